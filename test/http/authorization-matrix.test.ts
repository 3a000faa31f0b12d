// DESIGN.md §3 as a matrix (issue #9): every documented endpoint × every kind of credential ×
// same owner, other owner, revoked, unknown and malformed, each answering exactly: the success
// status of a valid request where the table says yes, else 403 with the catalogued reason, and
// a refused request writes nothing. The endpoint list is checked against the served OpenAPI
// document both ways, so an endpoint added later fails here until it has its row.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { errorCatalogue, type ErrorCode } from '../../src/errors.ts';
import { signBody } from '../../src/domain/webhooks/signature.ts';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET, startTestApp, type TestApp } from '../support/test-app.ts';
import { changedTables, stateChecksum } from '../support/state-checksum.ts';
import { loadServedDocument } from '../fuzz/openapi-operations.ts';

type Kind = 'service' | 'admin_key' | 'ci_key' | 'hosting';
/** The hosting-platform right an endpoint needs (DESIGN.md §3). */
type HostingRight = 'pull' | 'push' | 'admin' | 'owner_admin' | undefined;

interface Row {
  method: string;
  /** The documented path template. */
  template: string;
  path: string;
  body?: () => unknown;
  accepts: Kind[];
  hostingRight?: HostingRight;
  /** The status of this (valid) request when the credential is accepted. */
  success: number;
  /** Run before each request, with the service token: puts back the state a success changed. A
   * string it returns replaces `{made}` in the path (a freeze made for this request). */
  prepare?: (t: TestApp) => Promise<unknown>;
}

const SHA = 'c0ffee'.padEnd(40, '0');
const SCHEMES: Record<Kind, string> = { service: 'ServiceTokenBearerAuth', admin_key: 'AdminApplicationKey', ci_key: 'CIApplicationKey', hosting: 'HostingTokenBearerAuth' };
const scopeReport = () => ({ scopes: ['api'] });
const products = () => ({ products: ['merge_queue'] });
const events = () => ({ events: [{ type: 'action.close', metadata: { message: 'closed' }, trigger: 'matrix' }] });

// One row per endpoint. The scope read-backs are not in DESIGN.md's table; they take whoever may
// send scope reports or read the repository, as their documentation says.
const ROWS: Row[] = [
  { method: 'POST', template: '/v1/admin/keys', path: '/v1/admin/keys', body: () => ({ owner: 'acme', scope: 'ci', name: 'matrix' }), accepts: ['service'], success: 201 },
  { method: 'GET', template: '/v1/admin/keys', path: '/v1/admin/keys?owner=acme', accepts: ['service'], success: 200 },
  { method: 'DELETE', template: '/v1/admin/keys/{id}', path: '/v1/admin/keys/{victim}', accepts: ['service'], success: 204 },
  { method: 'PUT', template: '/v1/admin/repos/{owner}/{repository}', path: '/v1/admin/repos/acme/widgets', accepts: ['service'], success: 204 },
  { method: 'PUT', template: '/v1/admin/repos/{owner}/{repository}/pulls/{number}', path: '/v1/admin/repos/acme/widgets/pulls/7', body: () => ({ state: 'open', head_sha: SHA }), accepts: ['service'], success: 204 },
  { method: 'POST', template: '/v1/repos/{owner}/{repository}/logs', path: '/v1/repos/acme/widgets/logs', body: events, accepts: ['service'], success: 201 },
  { method: 'PUT', template: '/v1/repos/{owner}/{repository}/commits/{sha}/scopes', path: `/v1/repos/acme/widgets/commits/${SHA}/scopes`, body: scopeReport, accepts: ['service', 'ci_key'], success: 204 },
  { method: 'PUT', template: '/v1/repos/{owner}/{repository}/pulls/{number}/scopes', path: '/v1/repos/acme/widgets/pulls/1/scopes', body: scopeReport, accepts: ['service', 'ci_key'], success: 204 },
  { method: 'POST', template: '/v1/repos/{owner}/{repository}/pulls/{number}/scopes', path: '/v1/repos/acme/widgets/pulls/1/scopes', body: scopeReport, accepts: ['service', 'ci_key'], success: 204 },
  { method: 'GET', template: '/v1/repos/{owner}/{repository}/commits/{sha}/scopes', path: `/v1/repos/acme/widgets/commits/${SHA}/scopes`, accepts: ['service', 'ci_key', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 },
  { method: 'GET', template: '/v1/repos/{owner}/{repository}/pulls/{number}/scopes', path: '/v1/repos/acme/widgets/pulls/1/scopes', accepts: ['service', 'ci_key', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 },
  { method: 'PUT', template: '/v1/products/{owner}/{repository}', path: '/v1/products/acme/widgets', body: products, accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'admin', success: 204 },
  { method: 'GET', template: '/v1/products/{owner}/{repository}', path: '/v1/products/acme/widgets', accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 },
  { method: 'GET', template: '/v1/default_products/{owner}', path: '/v1/default_products/acme', accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'owner_admin', success: 200 },
  { method: 'PUT', template: '/v1/default_products/{owner}', path: '/v1/default_products/acme', body: products, accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'owner_admin', success: 204 },
  { method: 'GET', template: '/v1/repos/{owner}/{repository}/logs', path: '/v1/repos/acme/widgets/logs', accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 },
  { method: 'GET', template: '/v1/repos/{owner}/{repository}/logs/aggregate', path: '/v1/repos/acme/widgets/logs/aggregate', accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 },
  ...mergeQueueRows(),
  ...mergeQueueControlRows(),
  ...mergeQueueStatsRows(),
  ...configurationRows(),
];
const WEBHOOK = 'POST /v1/hooks/hosting';

/** The merge queue's controls (DESIGN.md §3, §9): configuration with admin rights; pause and freezes with push rights; reads with pull rights. */
function mergeQueueControlRows(): Row[] {
  const repo = '/v1/repos/{owner}/{repository}';
  const at = (template: string) => template.replace('{owner}/{repository}', 'acme/widgets');
  const accepts: Kind[] = ['service', 'admin_key', 'hosting'];
  const row = (method: string, template: string, hostingRight: HostingRight, success: number, extra: Partial<Row> = {}): Row => ({ method, template, path: at(template), accepts, hostingRight, success, ...extra });
  const reason = () => ({ reason: 'matrix' });
  const paused = (t: TestApp) => t.request('PUT', at(`${repo}/merge-queue/pause`), { body: reason() });
  const freeze = async (t: TestApp) => (await t.request('POST', at(`${repo}/scheduled_freeze`), { body: { reason: 'matrix', start: '2099-01-01T00:00:00', timezone: 'UTC' } })).json.id as string;
  const made = (template: string) => at(template).replace('{freeze_id}', '{made}');
  return [
    row('PUT', `${repo}/merge-queue/configuration`, 'admin', 200, { body: () => ({}) }),
    row('GET', `${repo}/merge-queue/configuration`, 'pull', 200),
    row('GET', `${repo}/queues/configuration`, 'pull', 200),
    row('PUT', `${repo}/merge-queue/pause`, 'push', 200, { body: reason }),
    row('DELETE', `${repo}/merge-queue/pause`, 'push', 204, { prepare: paused }),
    row('GET', `${repo}/merge-queue/pause`, 'pull', 200),
    row('PUT', `${repo}/queue/pause`, 'push', 200, { body: reason }),
    row('DELETE', `${repo}/queue/pause`, 'push', 204, { prepare: paused }),
    row('POST', `${repo}/queue/pause/delete`, 'push', 204, { prepare: paused }),
    row('GET', `${repo}/queue/pause`, 'pull', 200),
    row('GET', `${repo}/scheduled_freeze`, 'pull', 200),
    row('POST', `${repo}/scheduled_freeze`, 'push', 201, { body: () => ({ reason: 'matrix', start: '2099-01-01T00:00:00', timezone: 'UTC' }) }),
    row('PATCH', `${repo}/scheduled_freeze/{freeze_id}`, 'push', 200, { path: made(`${repo}/scheduled_freeze/{freeze_id}`), body: () => ({ reason: 'changed' }), prepare: freeze }),
    row('DELETE', `${repo}/scheduled_freeze/{freeze_id}`, 'push', 204, { path: made(`${repo}/scheduled_freeze/{freeze_id}`), body: () => ({ delete_reason: 'matrix' }), prepare: freeze }),
    row('POST', `${repo}/scheduled_freeze/{freeze_id}/delete`, 'push', 204, { path: made(`${repo}/scheduled_freeze/{freeze_id}/delete`), body: () => ({ delete_reason: 'matrix' }), prepare: freeze }),
  ];
}

/**
 * The configuration file and the rules (DESIGN.md §13, §14): reads and the simulators with pull
 * rights, a refresh with push rights. Pull request 1 is open on the platform (the pull request
 * simulator reads it there) and has an evaluation stored.
 */
function configurationRows(): Row[] {
  const at = (template: string) => template.replace('{owner}/{repository}', 'acme/widgets');
  const accepts: Kind[] = ['service', 'admin_key', 'hosting'];
  const row = (method: string, template: string, hostingRight: HostingRight, extra: Partial<Row> = {}): Row => ({ method, template, path: at(template), accepts, hostingRight, success: 200, ...extra });
  const file = () => ({ mergify_yml: 'pull_request_rules:\n  - name: docs\n    conditions: [files~=^docs/]\n    actions: {}\n' });
  return [
    row('GET', '/v1/repos/{owner}/{repository}/configuration', 'pull'),
    row('POST', '/v1/repos/{owner}/{repository}/configuration/refresh', 'push'),
    row('POST', '/v1/repos/{owner}/{repository}/configuration-simulator', 'pull', { body: file }),
    row('POST', '/v1/repos/{owner}/{repository}/pulls/{number}/simulator', 'pull', { path: '/v1/repos/acme/widgets/pulls/1/simulator', body: file }),
    row('GET', '/v1/repos/{owner}/{repository}/pulls/{number}/rules', 'pull', { path: '/v1/repos/acme/widgets/pulls/1/rules' }),
  ];
}

/** The merge queue's statistics (issue 26): reads with pull rights, as the activity log. */
function mergeQueueStatsRows(): Row[] {
  const reads = ['average_ci_runtime', 'batch_bisection', 'batch_size', 'branches', 'checks_retries', 'failure_rate', 'idle_queue_time', 'merge_queue_checks_outcome', 'queue_size', 'queues', 'queues_checks_outcome_count', 'queues_entered_count', 'queues_merged_count', 'queues_pr_exit_reasons', 'running_speculative_checks', 'skip_intermediate_results', 'time_to_merge', 'total_queue_time'];
  return reads.map((read) => ({ method: 'GET', template: `/v1/repos/{owner}/{repository}/stats/${read}`, path: `/v1/repos/acme/widgets/stats/${read}`, accepts: ['service', 'admin_key', 'hosting'], hostingRight: 'pull', success: 200 }));
}

/** The merge queue (DESIGN.md §3): reads with pull rights, enter and dequeue with push rights. Pull request 2 stays queued. */
function mergeQueueRows(): Row[] {
  const queue = '/v1/repos/{owner}/{repository}/merge-queue';
  const at = (template: string) => template.replace('{owner}/{repository}', 'acme/widgets');
  const accepts: Kind[] = ['service', 'admin_key', 'hosting'];
  const read = (template: string, path = at(template)): Row => ({ method: 'GET', template, path, accepts, hostingRight: 'pull', success: 200 });
  return [
    read(`${queue}/status`, at(`${queue}/status?branch=main`)),
    read(`${queue}/branches`),
    read('/v1/repos/{owner}/{repository}/queues'),
    read('/v1/repos/{owner}/{repository}/queues/branches'),
    read(`${queue}/pull/{pr_number}`, at(`${queue}/pull/2`)),
    read(`${queue}/pull/{pr_number}/dequeue-impact`, at(`${queue}/pull/2/dequeue-impact`)),
    {
      method: 'PUT', template: `${queue}/pull/{pr_number}`, path: at(`${queue}/pull/3`), body: () => ({}), accepts, hostingRight: 'push', success: 202,
      prepare: (t) => t.request('POST', at(`${queue}/pull/3/dequeue`)),
    },
    {
      method: 'POST', template: `${queue}/pull/{pr_number}/dequeue`, path: at(`${queue}/pull/4/dequeue`), accepts, hostingRight: 'push', success: 204,
      prepare: (t) => t.request('PUT', at(`${queue}/pull/4`), { body: {} }),
    },
  ];
}

interface Credential {
  name: string;
  header: string | undefined;
  /** The answer for `row`: a success, or the catalogued reason of the 403. */
  expect(row: Row): 'success' | ErrorCode;
}

/** Accepted kinds get their rights checked against acme/widgets; other kinds are refused as such. */
function keyCredential(name: string, header: string, kind: Kind, coversAcme: boolean): Credential {
  return { name, header, expect: (row) => (!row.accepts.includes(kind) ? 'scheme_not_accepted' : coversAcme ? 'success' : 'insufficient_rights') };
}

function hostingCredential(name: string, header: string, rights: HostingRight[]): Credential {
  return { name, header, expect: (row) => (!row.accepts.includes('hosting') ? 'scheme_not_accepted' : rights.includes(row.hostingRight) ? 'success' : 'insufficient_rights') };
}

const refusedAs = (code: ErrorCode, name: string, header: string | undefined): Credential => ({ name, header, expect: () => code });

for (const backend of await backends()) {
  describe(`authorization matrix (${backend})`, () => {
    let t: TestApp;
    const credentials: Credential[] = [];
    const victims: string[] = [];

    async function key(owner: string, scope: 'admin' | 'ci'): Promise<{ id: string; key: string }> {
      const response = await t.request('POST', '/v1/admin/keys', { body: { owner, scope, name: `${scope} of ${owner}` } });
      assert.equal(response.status, 201, response.text);
      return response.json;
    }
    async function revokedKey(scope: 'admin' | 'ci'): Promise<string> {
      const created = await key('acme', scope);
      assert.equal((await t.request('DELETE', `/v1/admin/keys/${created.id}`)).status, 204);
      return created.key;
    }

    before(async () => {
      // The rules engine's platform client: a refresh and the pull request simulator read through it.
      t = await startTestApp(backend, undefined, { rules: { owner: 'acme' } });
      await t.hosting.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n' } });
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { body: products() })).status, 204);
      // Pull request 1 on the platform too, for the pull request simulator; its record is set below.
      assert.equal((await t.hosting.openPullRequest({ repo: 'acme/widgets', changes: { 'docs/a.md': 'a\n' }, title: 'Docs' })).number, 1n);
      await t.hosting.webhooks.settled();
      assert.equal((await t.request('PUT', '/v1/admin/repos/globex/gears')).status, 201);
      assert.equal((await t.request('PUT', '/v1/products/globex/gears', { body: { products: ['merge_queue'] } })).status, 204);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets/pulls/1', { body: { state: 'open', head_sha: SHA } })).status, 204);
      assert.equal((await t.request('PUT', `/v1/repos/acme/widgets/commits/${SHA}/scopes`, { body: scopeReport() })).status, 204);
      for (const number of [2, 3, 4]) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${number}`, { body: { state: 'open', head_sha: SHA, base_ref: 'main' } })).status, 204);
      assert.equal((await t.request('PUT', '/v1/repos/acme/widgets/merge-queue/pull/2', { body: {} })).status, 202);
      const widgets = (await t.store.repositories.find('acme', 'widgets'))!;
      await t.store.rulesEngine.saveState(widgets.id, 1n, { headSha: SHA, rules: {}, summary: { title: 'no rules configured, just listening for commands', results: [] }, evaluatedAt: new Date() });
      // Its engine writes in the background (what is due, its lease): a refused request must be seen to write nothing.
      await t.automation.engine!.stop();
      t.hosting.users.set('hosting-admin', { login: 'alice', id: 1, repos: { 'acme/widgets': { admin: true, pull: true } }, adminOf: ['acme'] });
      t.hosting.users.set('hosting-reader', { login: 'bob', id: 2, repos: { 'acme/widgets': { admin: false, pull: true } } });
      t.hosting.users.set('hosting-stranger', { login: 'eve', id: 3, repos: { 'globex/gears': { admin: true, pull: true } }, adminOf: ['globex'] });
      t.hosting.users.set('hosting-acme-self', { login: 'ACME', id: 4 });
      const [adminKey, ciKey, otherAdmin, otherCi] = [await key('acme', 'admin'), await key('ACME', 'ci'), await key('globex', 'admin'), await key('globex', 'ci')];
      credentials.push(
        { name: 'service token', header: `Bearer ${SERVICE_TOKEN}`, expect: () => 'success' },
        { name: 'service token, scheme in lower case', header: `bearer ${SERVICE_TOKEN}`, expect: () => 'success' },
        keyCredential('admin key of the owner', `Bearer ${adminKey.key}`, 'admin_key', true),
        keyCredential('ci key of the owner (created as ACME)', `Bearer ${ciKey.key}`, 'ci_key', true),
        keyCredential('admin key of another owner', `Bearer ${otherAdmin.key}`, 'admin_key', false),
        keyCredential('ci key of another owner', `Bearer ${otherCi.key}`, 'ci_key', false),
        refusedAs('invalid_credential', 'revoked admin key', `Bearer ${await revokedKey('admin')}`),
        refusedAs('invalid_credential', 'revoked ci key', `Bearer ${await revokedKey('ci')}`),
        refusedAs('invalid_credential', 'unknown application key', `Bearer swy_${'A'.repeat(43)}`),
        hostingCredential('hosting user, repository admin and organisation admin', 'Bearer hosting-admin', ['pull', 'push', 'admin', 'owner_admin']),
        hostingCredential('hosting user who may only pull', 'Bearer hosting-reader', ['pull']),
        hostingCredential('hosting user of another owner', 'Bearer hosting-stranger', []),
        hostingCredential('hosting user whose own account is the owner', 'Bearer hosting-acme-self', ['owner_admin']),
        { name: 'token the hosting platform refuses', header: 'Bearer not-a-platform-token', expect: (row) => (row.accepts.includes('hosting') ? 'invalid_credential' : 'scheme_not_accepted') },
        refusedAs('missing_credential', 'no Authorization header', undefined),
        refusedAs('missing_credential', 'Basic scheme', 'Basic dXNlcjpwYXNz'),
        refusedAs('missing_credential', 'Bearer without a token', 'Bearer'),
        refusedAs('missing_credential', 'two tokens', `Bearer ${SERVICE_TOKEN} ${SERVICE_TOKEN}`),
        refusedAs('missing_credential', 'token without a scheme', SERVICE_TOKEN),
        refusedAs('missing_credential', 'a non-ASCII token', 'Bearer jeton-\u00e9'),
      );
      for (let i = 0; i < credentials.length; i++) victims.push((await key('acme', 'ci')).id);
    });
    after(() => t.close());

    test('the matrix covers exactly the documented endpoints, with the documented credentials', async () => {
      const documented = new Map<string, string[]>();
      for (const op of (await loadServedDocument(t.baseUrl)).operations) documented.set(op.id, [...op.security].sort());
      const rows = new Map(ROWS.map((row) => [`${row.method} ${row.template}`, row.accepts.map((k) => SCHEMES[k]).sort()]));
      assert.deepEqual([...documented.keys()].filter((id) => id !== WEBHOOK).sort(), [...rows.keys()].sort(), 'one matrix row per documented endpoint');
      for (const [id, schemes] of rows) assert.deepEqual(documented.get(id), schemes, `${id}: documented security schemes`);
      assert.deepEqual(documented.get(WEBHOOK), [], 'webhooks are signed, not bearer-authenticated');
    });

    for (const row of ROWS) {
      test(`${row.method} ${row.template}`, async () => {
        for (const credential of credentials) {
          const expected = credential.expect(row);
          const prepared = await row.prepare?.(t);
          let path = row.path.includes('{victim}') ? row.path.replace('{victim}', victims.shift()!) : row.path;
          if (typeof prepared === 'string') path = path.replace('{made}', prepared);
          const before = expected === 'success' ? undefined : await stateChecksum(t.store);
          const headers: Record<string, string> = credential.header === undefined ? {} : { authorization: credential.header };
          const response = await t.request(row.method, path, { token: null, headers, body: row.body?.() });
          const where = `${credential.name}: ${row.method} ${path} → ${response.status} ${response.text.slice(0, 200)}`;
          if (expected === 'success') {
            assert.equal(response.status, row.success, where);
          } else {
            assert.equal(response.status, 403, where);
            assert.deepEqual(response.json, { detail: errorCatalogue[expected].detail }, where);
            assert.deepEqual(changedTables(before!, await stateChecksum(t.store)), [], `a refused request wrote: ${where}`);
          }
        }
      });
    }

    test(`${WEBHOOK}: the signature decides, whatever bearer credential comes with it`, async () => {
      const body = JSON.stringify({ zen: 'Keep it logically awesome.' });
      for (const credential of credentials) {
        const headers = { 'x-github-event': 'ping', 'x-github-delivery': `matrix-${Math.random()}`, ...(credential.header ? { authorization: credential.header } : {}) };
        const signed = await t.request('POST', '/v1/hooks/hosting', { token: null, rawBody: body, headers: { ...headers, 'x-hub-signature-256': signBody(WEBHOOK_SECRET, body) } });
        assert.equal(signed.status, 204, `${credential.name}, signed: ${signed.text}`);
        const before = await stateChecksum(t.store);
        const unsigned = await t.request('POST', '/v1/hooks/hosting', { token: null, rawBody: body, headers: { ...headers, 'x-hub-signature-256': signBody('another-secret-0123456789', body) } });
        assert.equal(unsigned.status, 403, `${credential.name}, wrongly signed: ${unsigned.text}`);
        assert.deepEqual(unsigned.json, { detail: errorCatalogue.bad_signature.detail });
        assert.deepEqual(changedTables(before, await stateChecksum(t.store)), []);
      }
    });
  });
}
