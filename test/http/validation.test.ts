// DESIGN.md §2 through HTTP: exact int64 path values, 422 bodies naming each invalid value,
// 413 for oversized bodies, and nothing written by a refused request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MAX = '9223372036854775807';

for (const backend of await backends()) {
  describe(`validation (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('pull request numbers are exact from 0 to 2^63-1', async () => {
      for (const number of ['0', '9007199254740993', MAX]) {
        const response = await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${number}`, { body: { state: 'open', head_sha: 'A'.repeat(40) } });
        assert.equal(response.status, 204, `${number}: ${response.text}`);
      }
      const stored = await t.store.db.selectFrom('pull_requests').select(['number', 'head_sha']).orderBy('number').execute();
      assert.deepEqual(stored.map((row) => row.number), ['0', '9007199254740993', MAX]);
      assert.equal(stored[0]!.head_sha, 'a'.repeat(40), 'shas are stored lower-case');
    });

    test('numbers outside 0..2^63-1 or not integers are 422 naming the path parameter', async () => {
      for (const number of ['9223372036854775808', '-1', '1.5', '1e3', 'abc', '99999999999999999999999']) {
        const response = await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${number}`, { body: { state: 'open' } });
        assert.equal(response.status, 422, `${number}: ${response.text}`);
        assert.deepEqual(response.json.detail[0].loc, ['path', 'number']);
        assert.equal(typeof response.json.detail[0].msg, 'string');
        assert.equal(typeof response.json.detail[0].type, 'string');
      }
    });

    test('owner, repository and sha are validated by spec §2.1', async () => {
      const cases: [string, string][] = [
        ['/v1/admin/repos/' + 'a'.repeat(41) + '/r', 'owner'],
        ['/v1/admin/repos/ac_me/r', 'owner'],
        ['/v1/admin/repos/acme/' + 'r'.repeat(101), 'repository'],
        ['/v1/admin/repos/acme/r%20r', 'repository'],
      ];
      for (const [path, field] of cases) {
        const response = await t.request('PUT', path);
        assert.equal(response.status, 422, path);
        assert.deepEqual(response.json.detail.map((d: { loc: unknown[] }) => d.loc), [['path', field]]);
      }
      assert.equal((await t.request('PUT', '/v1/admin/repos/a-b-1/r.e_p-o')).status, 201);
      const badSha = await t.request('PUT', '/v1/repos/acme/widgets/commits/' + 'g'.repeat(40) + '/scopes', { body: { scopes: [] } });
      assert.equal(badSha.status, 422);
      assert.deepEqual(badSha.json.detail[0].loc, ['path', 'sha']);
    });

    test('a body with several defects lists each, and nothing is written', async () => {
      const response = await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'root', name: 5, extra: true } });
      assert.equal(response.status, 422);
      const locs = response.json.detail.map((d: { loc: unknown[] }) => d.loc.join('.')).sort();
      assert.deepEqual(locs, ['body.extra', 'body.name', 'body.scope']);
      const extra = response.json.detail.find((d: { loc: string[] }) => d.loc[1] === 'extra');
      assert.equal(extra.type, 'extra_forbidden');
      assert.equal((await t.store.keys.list(undefined)).length, 0);
    });

    test('bodies are not coerced: "5" is not a number and "true" not a boolean', async () => {
      const response = await t.request('PUT', '/v1/admin/repos/acme/widgets/pulls/5', { body: { state: 'open', base_ref: 5 } });
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail[0].loc, ['body', 'base_ref']);
    });

    test('missing required fields are named', async () => {
      const response = await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme' } });
      assert.equal(response.status, 422);
      assert.deepEqual(response.json.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]).sort(), [
        ['body.name', 'missing'],
        ['body.scope', 'missing'],
      ]);
    });

    test('malformed JSON, duplicate keys and an empty body are 422', async () => {
      for (const rawBody of ['{"owner": "acme",', '{"owner":"a","owner":"b","scope":"ci","name":"x"}', '', 'nul']) {
        const response = await t.request('POST', '/v1/admin/keys', { rawBody, headers: { 'content-type': 'application/json' } });
        assert.equal(response.status, 422, `${rawBody}: ${response.text}`);
        assert.equal(response.json.detail[0].loc[0], 'body');
      }
    });

    test('an empty body with a JSON content type is no body: fine where none is expected, missing where one is', async () => {
      const register = await t.request('PUT', '/v1/admin/repos/acme/empty-body', { rawBody: '', headers: { 'content-type': 'application/json' } });
      assert.equal(register.status, 201, register.text);
      const create = await t.request('POST', '/v1/admin/keys', { rawBody: '', headers: { 'content-type': 'application/json' } });
      assert.equal(create.status, 422);
      assert.deepEqual(create.json.detail[0].loc, ['body']);
    });

    test('a body over 1 MiB is 413', async () => {
      const response = await t.request('POST', '/v1/admin/keys', { rawBody: JSON.stringify({ owner: 'acme', scope: 'ci', name: 'x'.repeat(1024 * 1024) }) });
      assert.equal(response.status, 413);
      assert.match(response.json.detail, /larger/);
    });

    test('a body that is not JSON is 415', async () => {
      const response = await t.request('POST', '/v1/admin/keys', { rawBody: 'owner=acme', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(response.status, 415);
      assert.equal(typeof response.json.detail, 'string');
    });

    test('an unknown route is 404 with a JSON detail', async () => {
      const response = await t.request('GET', '/v1/nowhere');
      assert.equal(response.status, 404);
      assert.match(response.json.detail, /No endpoint GET \/v1\/nowhere/);
    });

    test('an unknown repository is 404 "Repository not found"', async () => {
      const response = await t.request('PUT', '/v1/admin/repos/acme/ghost/pulls/1', { body: { state: 'open' } });
      assert.equal(response.status, 404);
      assert.deepEqual(response.json, { detail: 'Repository not found' });
    });

    test('registration is 201 once, then 204, whatever the case of the name', async () => {
      const first = await t.request('PUT', '/v1/admin/repos/Initech/Tps');
      assert.equal(first.status, 201);
      assert.deepEqual(first.json, { owner: 'Initech', repository: 'Tps', full_name: 'Initech/Tps', products: [] });
      assert.equal((await t.request('PUT', '/v1/admin/repos/initech/TPS')).status, 204);
    });
  });
}
