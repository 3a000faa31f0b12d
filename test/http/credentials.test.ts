// DESIGN.md §3 through HTTP: every credential scheme accepted or refused per the table,
// owner mismatch, revoked and unknown credentials, hosting-platform rights and its outage.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';

type Kind = 'admin' | 'ci' | 'hosting' | 'service';

// One endpoint per row of the table of DESIGN.md §3, with the hosting-platform right it needs.
const ENDPOINTS: { name: string; method: string; path: string; body?: unknown; accepts: Kind[] }[] = [
  { name: 'scope report by commit', method: 'PUT', path: '/v1/repos/acme/widgets/commits/' + 'a'.repeat(40) + '/scopes', body: { scopes: [] }, accepts: ['ci', 'service'] },
  { name: 'scope report by number', method: 'PUT', path: '/v1/repos/acme/widgets/pulls/1/scopes', body: { scopes: [] }, accepts: ['ci', 'service'] },
  { name: 'deprecated scope report', method: 'POST', path: '/v1/repos/acme/widgets/pulls/1/scopes', body: { scopes: [] }, accepts: ['ci', 'service'] },
  { name: 'products', method: 'PUT', path: '/v1/products/acme/widgets', body: { products: [] }, accepts: ['admin', 'hosting', 'service'] },
  { name: 'default products read', method: 'GET', path: '/v1/default_products/acme', accepts: ['admin', 'hosting', 'service'] },
  { name: 'default products write', method: 'PUT', path: '/v1/default_products/acme', body: { products: [] }, accepts: ['admin', 'hosting', 'service'] },
  { name: 'logs', method: 'GET', path: '/v1/repos/acme/widgets/logs', accepts: ['admin', 'hosting', 'service'] },
  { name: 'aggregate', method: 'GET', path: '/v1/repos/acme/widgets/logs/aggregate', accepts: ['admin', 'hosting', 'service'] },
  { name: 'admin keys list', method: 'GET', path: '/v1/admin/keys', accepts: ['service'] },
  { name: 'admin repository registration', method: 'PUT', path: '/v1/admin/repos/acme/widgets', accepts: ['service'] },
];

for (const backend of await backends()) {
  describe(`credentials (${backend})`, () => {
    let t: TestApp;
    const tokens: Record<Kind, string> = { admin: '', ci: '', hosting: 'hosting-token-acme-admin', service: '' };
    let otherOwnerAdmin = '';
    let revokedAdmin = '';

    async function createKey(owner: string, scope: 'admin' | 'ci'): Promise<{ id: string; key: string }> {
      const response = await t.request('POST', '/v1/admin/keys', { body: { owner, scope, name: `${scope} of ${owner}` } });
      assert.equal(response.status, 201, response.text);
      // DESIGN.md §4: {id: uuid, key: "swy_…", owner, scope, name, created_at}.
      const { id, key, created_at: createdAt, ...rest } = response.json;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.match(key, /^swy_/);
      assert.ok(Math.abs(Date.parse(createdAt) - Date.now()) < 60_000, `created_at ${createdAt}`);
      assert.deepEqual({ ...rest, owner: rest.owner.toLowerCase() }, { owner: owner.toLowerCase(), scope, name: `${scope} of ${owner}` });
      return response.json;
    }

    before(async () => {
      t = await startTestApp(backend);
      tokens.service = SERVICE_TOKEN;
      tokens.admin = (await createKey('acme', 'admin')).key;
      tokens.ci = (await createKey('ACME', 'ci')).key;
      otherOwnerAdmin = (await createKey('globex', 'admin')).key;
      const revoked = await createKey('acme', 'admin');
      revokedAdmin = revoked.key;
      assert.equal((await t.request('DELETE', `/v1/admin/keys/${revoked.id}`)).status, 204);
      t.hosting.users.set(tokens.hosting, { login: 'alice', id: 7, repos: { 'acme/widgets': { admin: true, pull: true } }, adminOf: ['acme'] });
      t.hosting.users.set('hosting-token-reader', { login: 'bob', id: 8, repos: { 'acme/widgets': { admin: false, pull: true } } });
      t.hosting.users.set('hosting-token-stranger', { login: 'eve', id: 9 });
    });
    after(() => t.close());

    for (const endpoint of ENDPOINTS) {
      for (const kind of ['admin', 'ci', 'hosting', 'service'] as Kind[]) {
        const expected = endpoint.accepts.includes(kind);
        test(`${endpoint.name}: ${kind} credential is ${expected ? 'accepted' : 'refused with 403'}`, async () => {
          const response = await t.request(endpoint.method, endpoint.path, { token: tokens[kind], body: endpoint.body });
          if (expected) assert.notEqual(response.status, 403, response.text);
          else {
            assert.equal(response.status, 403, response.text);
            assert.equal(typeof response.json.detail, 'string');
          }
        });
      }
      test(`${endpoint.name}: no credential, malformed header and unknown token are 403`, async () => {
        for (const headers of [{} as Record<string, string>, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer a b' }]) {
          const response = await t.request(endpoint.method, endpoint.path, { token: null, headers, body: endpoint.body });
          assert.equal(response.status, 403, `${JSON.stringify(headers)}: ${response.text}`);
        }
        for (const token of ['swy_unknownkey', 'not-a-known-hosting-token']) {
          const response = await t.request(endpoint.method, endpoint.path, { token, body: endpoint.body });
          assert.equal(response.status, 403, response.text);
        }
      });
    }

    test('an application key of another owner is 403', async () => {
      for (const [path, method, body] of [['/v1/products/acme/widgets', 'PUT', { products: [] }], ['/v1/repos/acme/widgets/logs', 'GET', undefined], ['/v1/default_products/acme', 'GET', undefined]] as const) {
        const response = await t.request(method, path, { token: otherOwnerAdmin, body });
        assert.equal(response.status, 403, response.text);
        assert.match(response.json.detail, /no rights/);
      }
    });

    test('a caller without rights to the path is refused before its body is read', async () => {
      // Not JSON, or not the body the endpoint takes: with rights, both are 422.
      for (const body of ['{"products": [', JSON.stringify({ products: 'all', extra: true })]) {
        for (const token of [otherOwnerAdmin, 'hosting-token-reader', 'hosting-token-stranger']) {
          const response = await t.request('PUT', '/v1/products/acme/widgets', { token, rawBody: body, headers: { 'content-type': 'application/json' } });
          assert.equal(response.status, 403, `${token}: ${response.text}`);
        }
        assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { token: tokens.admin, rawBody: body, headers: { 'content-type': 'application/json' } })).status, 422);
      }
      // A path whose owner is not a valid name is still a 422 naming it, whoever asks.
      const invalid = await t.request('PUT', '/v1/products/ac_me/widgets', { token: otherOwnerAdmin, body: { products: [] } });
      assert.equal(invalid.status, 422);
      assert.deepEqual(invalid.json.detail.map((d: { loc: string[] }) => d.loc.join('.')), ['path.owner']);
    });

    test('owner names match without regard to case', async () => {
      const response = await t.request('GET', '/v1/repos/AcMe/widgets/logs', { token: tokens.admin });
      assert.notEqual(response.status, 403);
    });

    test('a revoked key is 403', async () => {
      const response = await t.request('GET', '/v1/repos/acme/widgets/logs', { token: revokedAdmin });
      assert.equal(response.status, 403);
      assert.match(response.json.detail, /revoked/);
    });

    test('hosting tokens need pull to read logs and admin for products', async () => {
      assert.notEqual((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-token-reader' })).status, 403);
      assert.equal((await t.request('PUT', '/v1/products/acme/widgets', { token: 'hosting-token-reader', body: { products: [] } })).status, 403);
      assert.equal((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-token-stranger' })).status, 403);
      assert.equal((await t.request('GET', '/v1/default_products/acme', { token: 'hosting-token-reader' })).status, 403);
    });

    test('a hosting user administers their own account and organisations they are admin of', async () => {
      t.hosting.users.set('hosting-token-self', { login: 'Carol', id: 10 });
      assert.notEqual((await t.request('GET', '/v1/default_products/carol', { token: 'hosting-token-self' })).status, 403);
      assert.equal((await t.request('GET', '/v1/default_products/acme', { token: 'hosting-token-self' })).status, 403);
    });

    test('hosting answers are cached for 60 s per token', async () => {
      t.hosting.users.set('hosting-token-cached', { login: 'dan', id: 11, repos: { 'acme/widgets': { admin: false, pull: true } } });
      const before = t.hosting.requests.length;
      for (let i = 0; i < 5; i++) await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-token-cached' });
      assert.equal(t.hosting.requests.length - before, 2, 'one /user and one /repos call for five requests');
    });

    test('an unreachable hosting API is 503 with Retry-After, and is not cached', async () => {
      t.hosting.users.set('hosting-token-outage', { login: 'frank', id: 12, repos: { 'acme/widgets': { admin: true, pull: true } } });
      t.hosting.failWith = 502;
      const down = await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-token-outage' });
      t.hosting.failWith = undefined;
      assert.equal(down.status, 503);
      assert.equal(down.headers.get('retry-after'), '5');
      assert.notEqual((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-token-outage' })).status, 503);
    });

    test('keys are listed without secrets and their secrets are stored only as hashes', async () => {
      const response = await t.request('GET', '/v1/admin/keys?owner=ACME');
      assert.equal(response.status, 200);
      assert.equal(response.json.keys.length, 3);
      for (const key of response.json.keys) {
        assert.equal(key.key, undefined);
        assert.equal(key.owner.toLowerCase(), 'acme');
      }
      const stored = await t.store.db.selectFrom('application_keys').select('secret_hash').execute();
      assert.ok(stored.length > 0);
      for (const row of stored) assert.match(row.secret_hash, /^[0-9a-f]{64}$/, 'a SHA-256, never the key itself');
    });

    test('revoking an unknown key is 404, a malformed id 422', async () => {
      assert.equal((await t.request('DELETE', '/v1/admin/keys/6f0c7b1e-0000-4000-8000-000000000000')).status, 404);
      assert.equal((await t.request('DELETE', '/v1/admin/keys/nope')).status, 422);
    });
  });
}
