// The state valid requests need (a registered repository, keys of each kind, open pull requests,
// commit reports, some events), the credentials to send for each documented security scheme,
// and the few rules no schema states, each applied by the parameter or property it is about.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TestApp } from '../support/test-app.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET } from '../support/test-app.ts';
import { generateEvents } from '../fixtures/event-fixtures.ts';
import { refResolver, type JsonSchema, type Operation, type ServedDocument } from './openapi-operations.ts';
import { valueOf, parameterText, type ValueContext } from './schema-values.ts';
import { dateTimeText, EARLIEST, formatDateTime, instantOf } from './date-time-text.ts';
import { SIGNATURE_HEADER, labelled, type RequestSpec } from './fuzz-http.ts';
import type { Resolve, Substitute } from './schema-check.ts';
import { parseConditions } from '../../src/domain/rules/index.ts';
import { evaluateRules } from '../../src/domain/rules/rules-report.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

export const OWNER = 'acme';
export const REPOSITORY = 'widgets';
export const HOSTING_TOKEN = 'fuzz-hosting-token-acme';
const DAY = 86_400_000;
/** DESIGN.md §8: a window spans at most 93 days. */
export const MAX_WINDOW_MS = 93 * DAY;

const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(20);

export interface FuzzWorld {
  resolve: Resolve;
  /** The metadata schema of an event object, by its type (for checking mutated bodies). */
  substitute: Substitute;
  values: ValueContext;
  /** Known values of path parameters, by name (spec §2.1 names). */
  pools: Record<string, string[]>;
  keys: { admin: string; ci: string; otherOwnerAdmin: string; revoked: string };
  /** Event metadata schema by type, from the documented event read-back. */
  metadataByType: Map<string, JsonSchema>;
}

/** The metadata schema each event type documents, found wherever a schema pins `type` to one value next to `metadata`. */
function metadataSchemas(document: JsonSchema): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const properties = (node as JsonSchema).properties as Record<string, JsonSchema> | undefined;
    const pinned = (properties?.type?.const !== undefined ? [properties.type.const] : properties?.type?.enum) as unknown[] | undefined;
    if (properties?.metadata && pinned?.length === 1 && typeof pinned[0] === 'string' && !found.has(pinned[0])) found.set(pinned[0], properties.metadata);
    Object.values(node).forEach(visit);
  };
  visit(document);
  return found;
}

/** Values valid for the rules beside the schemas: an event's metadata follows its type; received_at is not in the future. */
function refinements(metadataByType: Map<string, JsonSchema>): ValueContext['refine'] {
  return (schema, name, ctx) => {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    // The types with a documented read-back; an alias accepted on input (a public spelling) has none.
    const types = (properties?.type?.enum as string[] | undefined)?.filter((type) => metadataByType.has(type));
    if (properties?.metadata && types && types.length > 1) {
      return fc.constantFrom(...types).chain((type) =>
        valueOf({ ...schema, properties: { ...properties, type: { const: type }, metadata: metadataByType.get(type)! } }, { ...ctx, refine: refinements(new Map()) }, name),
      );
    }
    if (name === 'received_at' && schema.format === 'date-time') return dateTimeText(EARLIEST, Date.now());
    // Entering the merge queue: a rule the configuration has (a repository never configured has `default`).
    if (name === 'queue_rule' && schema.type === 'string') return fc.constant('default');
    // Freeze payloads take local times; event metadata of the same names takes date-times with a zone.
    // (A branch of such a schema, `null` alone, is left to the generator too.)
    const text = JSON.stringify(schema);
    if ((name === 'start' || name === 'end') && (/date-time|\$ref/.test(text) || !text.includes('"string"'))) return undefined;
    return name === undefined ? undefined : QUEUE_CONTROL_VALUES[name]?.();
  };
}

/** A local date-time (no offset, as scheduled freezes take them) from `fromDays` to `toDays` ahead. */
const localTimeAhead = (fromDays: number, toDays: number) =>
  fc.integer({ min: fromDays * 60 * 24, max: toDays * 60 * 24 }).map((minutes) => new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 19));

/**
 * DESIGN.md §9, the merge queue's controls: a freeze's times are read in a known timezone, a
 * start (before the world's freezes begin, so they may still move) comes before any end, its
 * conditions name base branches; dynamic batch bounds are in order.
 */
const QUEUE_CONTROL_VALUES: Record<string, () => fc.Arbitrary<unknown>> = {
  timezone: () => fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'),
  start: () => localTimeAhead(30, 300),
  end: () => fc.oneof(fc.constant(null), localTimeAhead(800, 1000)),
  matching_conditions: () => fc.constantFrom([], ['base=main'], ['base!=dev', { or: ['base=main', 'base=release'] }]),
  exclude_conditions: () => fc.constantFrom([], [{ not: { or: ['base=main'] } }], ['base=hotfix']),
  // Rule names must be unique (queue and priority rules), which no schema says: a few valid rule lists (mutations still reach every field).
  queue_rules: () =>
    fc.constantFrom(
      [{ name: 'default' }],
      [{ name: 'default', batch_size: { min: 1, max: 4 }, batch_max_wait_time: 60, checks_timeout: 600, max_checks_retries: 1, merge_method: 'squash', required_checks: ['ci/test'], branches: [] }],
      [{ name: 'default', branches: ['main'] }, { name: 'hotfix', merge_method: 'fast-forward', batch_size: 1, branches: ['release'] }],
    ),
  priority_rules: () =>
    fc.constantFrom([], [{ name: 'urgent', labels: ['urgent'], priority: 'high' }], [{ name: 'hotfix', priority: 'high' }, { name: 'chores', labels: ['chore'], priority: 'low' }]),
  // A configuration file that validates (the simulators): an arbitrary text is not one.
  mergify_yml: () =>
    fc.constantFrom('{}\n', 'pull_request_rules:\n  - name: docs\n    conditions: [files~=^docs/, -draft]\n    actions: {label: {add: [docs]}}\n', 'queue_rules:\n  - name: default\n    batch_size: 2\n    merge_conditions: [check-success=ci]\n'),
  batch_size: () => fc.oneof(fc.integer({ min: 1, max: 128 }), fc.tuple(fc.integer({ min: 1, max: 128 }), fc.integer({ min: 1, max: 128 })).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }))),
};

function metadataSubstitute(metadataByType: Map<string, JsonSchema>): Substitute {
  return (schema, value) => {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    const type = (value as { type?: unknown } | null)?.type;
    if (!properties?.metadata || !properties.type?.enum || typeof type !== 'string' || !metadataByType.has(type)) return schema;
    return { ...schema, properties: { ...properties, metadata: metadataByType.get(type)! } };
  };
}

const OPEN_PULLS = ['1', '2', '3', '9223372036854775807'];
/** The one open pull request left out of the merge queue, so that entering it can succeed. */
const NOT_QUEUED = '3';

/**
 * Opens the world's pull requests again (valid admin requests close and merge them at random), so
 * each operation starts from pull requests that take scope reports by number, and puts them back
 * in the merge queue (valid dequeues take them out) under the default configuration, so its reads
 * find them: all but NOT_QUEUED.
 */
export async function reopenPulls(t: TestApp): Promise<void> {
  // Valid configuration requests rename the queue rules at random; entering names `default`;
  // valid product requests may turn the merge queue off.
  await created(t, 'PUT', `/v1/repos/${OWNER}/${REPOSITORY}/merge-queue/configuration`, {});
  await created(t, 'PUT', `/v1/products/${OWNER}/${REPOSITORY}`, { products: ['merge_queue'] });
  for (const [i, number] of OPEN_PULLS.entries()) {
    await created(t, 'PUT', `/v1/admin/repos/${OWNER}/${REPOSITORY}/pulls/${number}`, { state: 'open', head_sha: sha(i + 1), base_ref: 'main' });
    const queue = `/v1/repos/${OWNER}/${REPOSITORY}/merge-queue/pull/${number}`;
    const answer = number === NOT_QUEUED ? await t.request('POST', `${queue}/dequeue`) : await t.request('PUT', queue, { body: {} });
    assert.ok([202, 204, 404, 409].includes(answer.status), `${queue}: ${answer.status} ${answer.text}`);
  }
}

/**
 * What each operation starts from: the world's pull requests open, and its merge queue paused
 * (so that every way of unpausing has a pause to undo; pausing again only changes the reason).
 */
export async function restoreWorld(t: TestApp, world?: FuzzWorld): Promise<void> {
  await reopenPulls(t);
  await created(t, 'PUT', `/v1/repos/${OWNER}/${REPOSITORY}/merge-queue/pause`, { reason: 'fuzzing' });
  if (world?.pools.freeze_id) await refillFreezes(t, world.pools.freeze_id);
}

/** Valid deletes of earlier operations removed freezes: new ones take their places in the pool. */
async function refillFreezes(t: TestApp, pool: string[]): Promise<void> {
  const listed = await created(t, 'GET', `/v1/repos/${OWNER}/${REPOSITORY}/scheduled_freeze`);
  const kept = new Set((listed.scheduled_freezes as { id: string }[]).map((freeze) => freeze.id));
  for (const [i, id] of pool.entries()) if (!kept.has(id)) pool[i] = await newFreeze(t, i);
}

async function newFreeze(t: TestApp, i: number): Promise<string> {
  const start = new Date(Date.now() + 365 * DAY).toISOString().slice(0, 19);
  return (await created(t, 'POST', `/v1/repos/${OWNER}/${REPOSITORY}/scheduled_freeze`, { reason: `fuzz ${i}`, start, timezone: 'UTC' })).id;
}

async function created(t: TestApp, method: string, path: string, body?: unknown): Promise<any> {
  const response = await t.request(method, path, { body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${response.text}`);
  return response.json;
}

/** What the rules engine stores after evaluating each open pull request (no engine runs here), for the reads of their rules. */
async function storeEvaluations(t: TestApp): Promise<void> {
  const parsed = parseConditions(['base=main', { or: ['label=ready', 'check-success=ci'] }], ['conditions']);
  assert.ok(parsed.ok);
  const rule = { section: 'pull_request_rules' as const, name: 'ready', condition: parsed.condition, disabledReason: null, does: [] };
  const { results } = evaluateRules([rule], pullSnapshot({ checks: [{ name: 'ci', state: 'pending' }] }), new Date());
  const repository = (await t.store.repositories.find(OWNER, REPOSITORY))!;
  for (const [i, number] of OPEN_PULLS.entries()) {
    await t.store.rulesEngine.saveState(repository.id, BigInt(number), { headSha: sha(i + 1), rules: {}, summary: { title: '0 rules match and 1 potential rule', results }, evaluatedAt: new Date() });
  }
}

export async function buildWorld(t: TestApp, served: ServedDocument): Promise<FuzzWorld> {
  await created(t, 'PUT', `/v1/admin/repos/${OWNER}/${REPOSITORY}`);
  await created(t, 'PUT', `/v1/products/${OWNER}/${REPOSITORY}`, { products: ['merge_queue'] });
  const key = async (owner: string, scope: string) => created(t, 'POST', '/v1/admin/keys', { owner, scope, name: `fuzz ${scope} of ${owner}` });
  const admin = await key(OWNER, 'admin');
  const ci = await key(OWNER, 'ci');
  const other = await key('globex', 'admin');
  const revoked = await key(OWNER, 'admin');
  await created(t, 'DELETE', `/v1/admin/keys/${revoked.id}`);
  const disposable: string[] = [];
  for (let i = 0; i < 12; i++) disposable.push((await key(OWNER, i % 2 ? 'ci' : 'admin')).id);
  // Scheduled freezes valid requests update and delete: beginning in a year, so their start may move.
  const freezes: string[] = [];
  for (let i = 0; i < 12; i++) freezes.push(await newFreeze(t, i));
  const numbers = [...OPEN_PULLS];
  const shas = [1, 2, 3, 4].map(sha);
  await reopenPulls(t);
  for (const s of shas) await created(t, 'PUT', `/v1/repos/${OWNER}/${REPOSITORY}/commits/${s}/scopes`, { scopes: ['api', 'ui'] });
  await storeEvaluations(t);
  const events = generateEvents({ seed: 9, count: 60, start: new Date(Date.now() - DAY / 2), end: new Date(Date.now() - 60_000), pullRange: [1n, 3n] });
  await created(t, 'POST', `/v1/repos/${OWNER}/${REPOSITORY}/logs`, { events });
  t.hosting.users.set(HOSTING_TOKEN, { login: 'fuzz-user', id: 4242, repos: { [`${OWNER}/${REPOSITORY}`]: { admin: true, pull: true } }, adminOf: [OWNER] });

  const resolve = refResolver(served.document);
  const metadataByType = metadataSchemas(served.document);
  return {
    resolve,
    substitute: metadataSubstitute(metadataByType),
    values: { resolve, maxItems: 4, refine: refinements(metadataByType) },
    pools: {
      owner: [OWNER, OWNER.toUpperCase(), 'Acme'],
      repository: [REPOSITORY, 'Widgets'],
      number: numbers,
      // The one pull request entering can succeed for, three times: drawn from four numbers,
      // 20 valid entries found none about one run in fifty (two owner spellings in three resolve).
      pr_number: [...numbers, NOT_QUEUED, NOT_QUEUED],
      sha: [...shas, shas[0]!.toUpperCase()],
      id: disposable,
      freeze_id: freezes,
    },
    keys: { admin: admin.key, ci: ci.key, otherOwnerAdmin: other.key, revoked: revoked.key },
    metadataByType,
  };
}

const sameName = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b;

/**
 * The bearer token a valid request sends for `scheme`. Keys and the hosting user are bound to
 * acme (and acme/widgets); where the path names anything else, the service token stands in.
 */
export function credentialFor(world: FuzzWorld, scheme: string | undefined, path: Record<string, string>): string | null {
  if (scheme === undefined) return null;
  const bound = sameName(path.owner, OWNER) && (path.repository === undefined || sameName(path.repository, REPOSITORY));
  if (!bound || scheme === 'ServiceTokenBearerAuth') return SERVICE_TOKEN;
  if (scheme === 'AdminApplicationKey') return world.keys.admin;
  if (scheme === 'CIApplicationKey') return world.keys.ci;
  if (scheme === 'HostingTokenBearerAuth') return HOSTING_TOKEN;
  throw new Error(`unknown security scheme ${scheme}`);
}

const HEADER_TEXT = (min: number, max: number) => fc.stringMatching(/^[\x21-\x7e]+$/).map((s) => s.slice(0, max)).filter((s) => s.length >= min);

function parameterValues(world: FuzzWorld, op: Operation): fc.Arbitrary<{ path: Record<string, string>; query: [string, string][]; headers: Record<string, string> }> {
  const path: Record<string, fc.Arbitrary<string>> = {};
  const query: Record<string, fc.Arbitrary<string[]>> = {};
  const headers: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters) {
    const fromSchema = valueOf(p.schema, world.values, p.name);
    if (p.in === 'path') {
      const pool = world.pools[p.name];
      path[p.name] = pool ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fromSchema.map(parameterText) }) : fromSchema.map(parameterText);
    } else if (p.in === 'query') {
      // A cursor is only ever taken from a Link header; valid requests start walks afresh.
      if (p.name === 'cursor') continue;
      query[p.name] = fromSchema.map((value) => (Array.isArray(value) ? value.map(parameterText) : [parameterText(value)]));
    } else if (p.name !== SIGNATURE_HEADER) {
      headers[p.name] = HEADER_TEXT(Number(p.schema.minLength ?? 1), Number(p.schema.maxLength ?? 64));
    }
  }
  const required = (where: string) => op.parameters.filter((p) => p.in === where && p.required).map((p) => p.name);
  return fc
    .record({
      path: fc.record(path),
      query: fc.record(query, { requiredKeys: required('query').filter((n) => n in query) }),
      headers: fc.record(headers),
      window: timeWindow(op),
    })
    .map(({ path: p, query: q, headers: h, window }) => ({ path: p, query: withoutContradictions(Object.entries(q).flatMap(([k, vs]) => vs.map((v) => [k, v] as [string, string])), window), headers: h }));
}

/** The window bounds of the activity log, and of the merge queue's statistics (which name them as the public API does). */
const WINDOW_BOUNDS = [['received_from', 'received_to'], ['start_at', 'end_at']] as const;

/** DESIGN.md §8: `x` and `not_x` are never both given. */
function withoutContradictions(query: [string, string][], window: [string, string][] | undefined): [string, string][] {
  const names = new Set(query.map(([k]) => k));
  const kept = query.filter(([k]) => !(k.startsWith('not_') && names.has(k.slice(4))) && !(window && WINDOW_BOUNDS.some((pair) => (pair as readonly string[]).includes(k))));
  return window ? [...kept, ...window] : kept;
}

/** DESIGN.md §8: from before to, at most 93 days apart; to defaults to now, from to to minus a day. */
function timeWindow(op: Operation): fc.Arbitrary<[string, string][] | undefined> {
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const bounds = WINDOW_BOUNDS.find(([from, to]) => names.has(from) && names.has(to));
  if (!bounds) return fc.constant(undefined);
  const [fromName, toName] = bounds;
  const span = fc.integer({ min: 1, max: MAX_WINDOW_MS });
  const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
  const both = fc.tuple(dateTimeText(EARLIEST + MAX_WINDOW_MS), span, offset).map(([to, ms, off]) => {
    const from = formatDateTime(instantOf(to)! - ms, off);
    return from === undefined ? [] : ([[fromName, from], [toName, to]] as [string, string][]);
  });
  const onlyFrom = fc.tuple(fc.integer({ min: 1_000, max: MAX_WINDOW_MS - 60_000 }), offset).map(([ms, off]) => [[fromName, formatDateTime(Date.now() - ms, off) ?? '']] as [string, string][]);
  const onlyTo = dateTimeText(EARLIEST + DAY).map((to) => [[toName, to]] as [string, string][]);
  return fc.oneof(fc.constant<[string, string][]>([]), both, onlyFrom, onlyTo);
}

/** A request the document says is valid, for state the world holds. */
export function validRequest(world: FuzzWorld, op: Operation): fc.Arbitrary<RequestSpec> {
  const body = op.body ? valueOf(op.body, world.values) : fc.constant(undefined);
  const scheme = op.security.length > 0 ? fc.constantFrom(...op.security) : fc.constant(undefined);
  return fc.record({ params: parameterValues(world, op), body, scheme }).map(({ params, body: b, scheme: s }) => labelled({
    op,
    path: params.path,
    rawPath: {},
    query: params.query,
    headers: params.headers,
    credential: credentialFor(world, s, params.path),
    body: b,
    signWith: op.parameters.some((p) => p.in === 'header' && p.name === SIGNATURE_HEADER) ? WEBHOOK_SECRET : undefined,
    mutations: [],
  }));
}
