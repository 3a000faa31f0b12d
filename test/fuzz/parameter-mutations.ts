// Mutations of what travels beside the body: path segments, query parameters, credentials and
// headers, including the rules DESIGN.md states for queries (exclusive pairs, time windows,
// cursors only as issued).
import fc from 'fast-check';
import { SERVICE_TOKEN } from '../support/test-app.ts';
import type { Operation } from './openapi-operations.ts';
import { SIGNATURE_HEADER, type RequestSpec } from './fuzz-http.ts';
import { textAccepted } from './schema-check.ts';
import { formatDateTime } from './date-time-text.ts';
import { valueOf, parameterText } from './schema-values.ts';
import { HOSTING_TOKEN, MAX_WINDOW_MS, type FuzzWorld } from './fuzz-world.ts';
import { RAW_PATH_JUNK, badTexts, itemSchema, mutated, type Mutation } from './mutation-kit.ts';

export function pathMutations(world: FuzzWorld, op: Operation): Mutation[] {
  return op.parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({
      name: `path ${p.name}`,
      weight: 2,
      apply: (spec) =>
        fc.oneof(
          badTexts(p.schema, world).map((text) => mutated(spec, { path: { ...spec.path, [p.name]: text } }, `path ${p.name}=${JSON.stringify(text)}`)),
          fc.constantFrom(...RAW_PATH_JUNK).map((raw) => mutated(spec, { rawPath: { ...spec.rawPath, [p.name]: raw } }, `path ${p.name} raw ${raw}`)),
        ),
    }));
}

function windowPair(kind: 'reversed' | 'too long' | 'equal', to: number): [string, string][] {
  const span = kind === 'reversed' ? -60_000 : kind === 'equal' ? 0 : MAX_WINDOW_MS + 1;
  return [['received_from', formatDateTime(to - span, 0)!], ['received_to', formatDateTime(to, 0)!]];
}

export function queryMutations(world: FuzzWorld, op: Operation): Mutation[] {
  const query = op.parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return [];
  const names = new Set(query.map((p) => p.name));
  const without = (spec: RequestSpec, drop: (name: string) => boolean) => spec.query.filter(([k]) => !drop(k));
  const mutations: Mutation[] = query.map((p) => ({
    name: `query ${p.name}`,
    weight: 2,
    apply: (spec) => badTexts(itemSchema(p), world).map((text) => mutated(spec, { query: [...without(spec, (k) => k === p.name && p.schema.type !== 'array'), [p.name, text]] }, `query ${p.name}=${JSON.stringify(text)}`)),
  }));
  mutations.push({
    name: 'query unknown parameter',
    weight: 1,
    apply: (spec) =>
      fc
        .constantFrom('fuzz', '__proto__', 'constructor', 'toString', `${query[0]!.name}[]`, query[0]!.name.toUpperCase(), ` ${query[0]!.name}`, 'per_pag', '')
        .filter((name) => !names.has(name))
        .map((name) => mutated(spec, { query: [...spec.query, [name, '1']] }, `query unknown ${JSON.stringify(name)}`)),
  });
  const scalars = query.filter((p) => p.schema.type !== 'array' && p.name !== 'cursor');
  if (scalars.length > 0) {
    mutations.push({
      name: 'query scalar given twice',
      weight: 1,
      apply: (spec) =>
        fc.constantFrom(...scalars).chain((p) =>
          fc.tuple(valueOf(p.schema, world.values, p.name), valueOf(p.schema, world.values, p.name)).map(([a, b]) =>
            mutated(spec, { query: [...without(spec, (k) => k === p.name || k.startsWith('received_')), [p.name, parameterText(a)], [p.name, parameterText(b)]] }, `query ${p.name} twice`),
          ),
        ),
    });
  }
  const pairs = query.filter((p) => names.has(`not_${p.name}`));
  if (pairs.length > 0) {
    mutations.push({
      name: 'query both sides of an exclusive pair',
      weight: 1,
      apply: (spec) =>
        fc.constantFrom(...pairs).chain((p) =>
          fc.tuple(valueOf(p.schema, world.values), valueOf(query.find((q) => q.name === `not_${p.name}`)!.schema, world.values)).map(([a, b]) => {
            const first = (v: unknown) => parameterText(Array.isArray(v) && v.length > 0 ? v[0] : '1');
            return mutated(spec, { query: [...spec.query, [p.name, first(a)], [`not_${p.name}`, first(b)]] }, `query ${p.name} with not_${p.name}`);
          }).filter((s) => s.query.filter(([k]) => k === p.name || k === `not_${p.name}`).every(([k, v]) => textAccepted(itemSchema(query.find((q) => q.name === k)!), v, world.resolve))),
        ),
    });
  }
  if (names.has('received_from') && names.has('received_to')) {
    mutations.push({
      name: 'query window',
      weight: 1,
      apply: (spec) =>
        fc.tuple(fc.constantFrom('reversed', 'too long', 'equal' as const), fc.integer({ min: Date.parse('1971-01-01'), max: Date.parse('9000-01-01') })).map(([kind, to]) =>
          mutated(spec, { query: [...without(spec, (k) => k.startsWith('received_')), ...windowPair(kind as 'reversed', to)] }, `query window ${kind}`),
        ),
    });
  }
  if (names.has('cursor')) {
    mutations.push({
      name: 'query cursor',
      weight: 1,
      apply: (spec) => fc.oneof(fc.base64String({ minLength: 4, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 60 })).map((cursor) => mutated(spec, { query: [...without(spec, (k) => k === 'cursor'), ['cursor', cursor]] }, `query cursor=${JSON.stringify(cursor)}`)),
    });
  }
  return mutations;
}

export function credentialMutations(world: FuzzWorld, op: Operation): Mutation[] {
  if (op.security.length === 0) return [];
  const refused: [string, string | undefined][] = [
    ['no Authorization header', undefined],
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without token', 'Bearer'],
    ['Bearer with blank token', 'Bearer    '],
    ['two tokens', `Bearer ${SERVICE_TOKEN} extra`],
    ['token without scheme', SERVICE_TOKEN],
    ['Token scheme', `Token ${SERVICE_TOKEN}`],
    ['unknown application key', 'Bearer swy_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['revoked application key', `Bearer ${world.keys.revoked}`],
    ['unknown hosting token', 'Bearer not-a-token-the-platform-knows'],
    ['service token with a suffix', `Bearer ${SERVICE_TOKEN}x`],
    ['service token truncated', `Bearer ${SERVICE_TOKEN.slice(0, -1)}`],
    ['a very long token', `Bearer ${'t'.repeat(8000)}`],
    ['non-ASCII token', `Bearer ${Buffer.from('jeton-é', 'latin1').toString('latin1')}`],
  ];
  const kinds: Record<string, string> = { AdminApplicationKey: world.keys.admin, CIApplicationKey: world.keys.ci, HostingTokenBearerAuth: HOSTING_TOKEN, ServiceTokenBearerAuth: SERVICE_TOKEN };
  for (const [scheme, token] of Object.entries(kinds)) if (!op.security.includes(scheme)) refused.push([`${scheme} not accepted here`, `Bearer ${token}`]);
  return [
    {
      name: 'credential',
      weight: 2,
      apply: (spec) =>
        fc.constantFrom(...refused).map(([what, header]) => mutated(spec, header === undefined ? { credential: null } : { authorization: header }, `credential: ${what}`)),
    },
  ];
}

export function headerMutations(world: FuzzWorld, op: Operation): Mutation[] {
  const mutations: Mutation[] = [
    {
      name: 'headers over 16 KiB',
      weight: 1,
      apply: (spec) => fc.integer({ min: 17 * 1024, max: 64 * 1024 }).map((n) => mutated(spec, { headers: { ...spec.headers, 'x-fuzz-padding': 'p'.repeat(n) } }, `header of ${n} bytes`)),
    },
  ];
  if (op.body) {
    mutations.push({
      name: 'content type',
      weight: 1,
      apply: (spec) =>
        fc
          .constantFrom('text/plain', 'application/xml', 'application/jsonx', 'multipart/form-data; boundary=x', 'application/octet-stream', 'json', '*/*', 'text/json')
          .map((type) => mutated(spec, { contentType: type, body: spec.body ?? {} }, `content-type ${type}`)),
    });
  }
  for (const p of op.parameters.filter((q) => q.in === 'header')) {
    if (p.name === SIGNATURE_HEADER) {
      mutations.push({
        name: 'signature',
        weight: 2,
        apply: (spec) =>
          fc.constantFrom('', 'sha256=', `sha256=${'0'.repeat(64)}`, `sha1=${'0'.repeat(40)}`, 'sha256=zz', `sha256=${'a'.repeat(65)}`, 'missing').map((value) => {
            const headers = { ...spec.headers };
            if (value === 'missing') return mutated(spec, { signWith: undefined }, 'signature missing');
            headers[SIGNATURE_HEADER] = value;
            return mutated(spec, { headers }, `signature ${JSON.stringify(value)}`);
          }),
      });
      continue;
    }
    mutations.push({
      name: `header ${p.name}`,
      weight: 1,
      apply: (spec) =>
        fc.oneof(
          fc.constant(p.required ? 'missing' : undefined),
          fc.constant('x'.repeat(Number(p.schema.maxLength ?? 0) + 1)),
        ).map((value) => {
          if (value === undefined || (value !== 'missing' && textAccepted(p.schema, value, world.resolve))) return undefined;
          const headers = { ...spec.headers };
          if (value === 'missing') delete headers[p.name];
          else headers[p.name] = value;
          return mutated(spec, { headers }, `header ${p.name}=${value.slice(0, 20)}`);
        }),
    });
  }
  return mutations;
}
