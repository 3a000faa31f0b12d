// Scope reports through HTTP (spec §4.2, DESIGN.md §5): the body rules and every validation
// error, replacement in full, sha case, 404/409, the deprecated POST, the read-backs, and who
// may call what (DESIGN.md §3).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';

const REPO = '/v1/repos/acme/widgets';
const sha = (seed: string) => seed.repeat(40 / seed.length);
const commitPath = (s: string, repo = REPO) => `${repo}/commits/${s}/scopes`;
const pullPath = (n: number | string, repo = REPO) => `${repo}/pulls/${n}/scopes`;

type Detail = { loc: (string | number)[]; type: string };
const issues = (response: TestResponse) => (response.json.detail as Detail[]).map((d) => `${d.loc.join('.')}:${d.type}`).sort();

for (const backend of await backends()) {
  describe(`scope reports (${backend})`, () => {
    let t: TestApp;
    let ciKey = '';

    const key = async (owner: string, scope: 'admin' | 'ci') => (await t.request('POST', '/v1/admin/keys', { body: { owner, scope, name: `${scope} ${owner}` } })).json.key as string;
    const setPull = async (n: number, state: string, head?: string) => {
      const response = await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state, ...(head && { head_sha: head }) } });
      assert.equal(response.status, 204, response.text);
    };

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      ciKey = await key('acme', 'ci');
    });
    after(() => t.close());

    test('a commit report is 204 with no body and reads back; the sha is accepted in either case and stored lower-case', async () => {
      const response = await t.request('PUT', commitPath(sha('AbC12')), { token: ciKey, body: { scopes: ['api', 'web'], all_scopes: true } });
      assert.equal(response.status, 204, response.text);
      assert.equal(response.text, '');
      for (const spelling of [sha('abc12'), sha('ABC12')]) {
        const read = await t.request('GET', commitPath(spelling), { token: ciKey });
        assert.equal(read.status, 200, read.text);
        assert.equal(read.json.sha, sha('abc12'));
        assert.deepEqual(read.json.scopes, ['api', 'web']);
        assert.equal(read.json.all_scopes, true);
        assert.ok(Math.abs(Date.parse(read.json.reported_at) - Date.now()) < 60_000);
      }
      const stored = await t.store.db.selectFrom('commit_scope_reports').select('sha').where('sha', 'like', 'abc12%').execute();
      assert.deepEqual(stored.map((row) => row.sha), [sha('abc12')]);
    });

    test('a report replaces the previous one in full: omitting all_scopes clears a barrier', async () => {
      const path = commitPath(sha('b4'));
      assert.equal((await t.request('PUT', path, { body: { scopes: ['a', 'b'], all_scopes: true } })).status, 204);
      assert.equal((await t.request('GET', path)).json.all_scopes, true);
      assert.equal((await t.request('PUT', path, { body: { scopes: ['c'] } })).status, 204);
      const read = (await t.request('GET', path)).json;
      assert.deepEqual([read.scopes, read.all_scopes], [['c'], false]);
      assert.equal((await t.request('PUT', path, { body: { scopes: [] } })).status, 204, '[] is a valid report');
      assert.deepEqual((await t.request('GET', path)).json.scopes, []);
    });

    test('a report by number is 204, replaces in full and reads back; the barrier is cleared the same way', async () => {
      await setPull(10, 'open', sha('10'));
      assert.equal((await t.request('PUT', pullPath(10), { token: ciKey, body: { scopes: ['x'], all_scopes: true } })).status, 204);
      let read = await t.request('GET', pullPath(10), { token: ciKey });
      assert.equal(read.status, 200);
      const { reported_at: reportedAt, ...rest } = read.json;
      assert.deepEqual(rest, { pull_request: 10, head_sha: sha('10'), scopes: ['x'], all_scopes: true, source: 'pull_request' });
      assert.ok(Math.abs(Date.parse(reportedAt) - Date.now()) < 60_000, `reported_at ${reportedAt}`);
      assert.equal((await t.request('PUT', pullPath(10), { body: { scopes: ['y'] } })).status, 204);
      read = await t.request('GET', pullPath(10));
      assert.deepEqual([read.json.scopes, read.json.all_scopes], [['y'], false]);
    });

    test('the deprecated POST behaves as the PUT and answers with Deprecation: true', async () => {
      await setPull(11, 'open', sha('11'));
      const response = await t.request('POST', pullPath(11), { token: ciKey, body: { scopes: ['legacy'] } });
      assert.equal(response.status, 204, response.text);
      assert.equal(response.headers.get('deprecation'), 'true');
      assert.deepEqual((await t.request('GET', pullPath(11))).json.scopes, ['legacy']);
      const refused = await t.request('POST', pullPath(11), { token: ciKey, body: { scopes: 'legacy' } });
      assert.equal(refused.status, 422);
      assert.equal(refused.headers.get('deprecation'), 'true', 'errors of the deprecated endpoint say so too');
      assert.equal((await t.request('PUT', pullPath(11), { body: { scopes: [] } })).headers.get('deprecation'), null);
    });

    test('a report by number for a pull request never heard of is stored, and counts once it is known', async () => {
      assert.equal((await t.request('PUT', pullPath(12), { body: { scopes: ['early'] } })).status, 204);
      const read = await t.request('GET', pullPath(12));
      assert.equal(read.status, 200);
      assert.deepEqual([read.json.head_sha, read.json.scopes, read.json.source], [null, ['early'], 'pull_request']);
      await setPull(12, 'open', sha('12'));
      assert.deepEqual((await t.request('GET', pullPath(12))).json.scopes, ['early']);
    });

    test('a report by number for a pull request known closed or merged is 409, by PUT and POST; reopened, it is accepted', async () => {
      for (const state of ['closed', 'merged']) {
        await setPull(13, state, sha('13'));
        for (const method of ['PUT', 'POST']) {
          const response = await t.request(method, pullPath(13), { token: ciKey, body: { scopes: ['late'] } });
          assert.equal(response.status, 409, `${state} ${method}: ${response.text}`);
          assert.match(response.json.detail, /closed or merged/);
        }
      }
      assert.equal((await t.request('GET', pullPath(13))).json.source, null, 'nothing was stored');
      assert.equal((await t.request('PUT', commitPath(sha('13')), { body: { scopes: ['commit'] } })).status, 204, 'commit reports are not refused');
      await setPull(13, 'open');
      assert.equal((await t.request('PUT', pullPath(13), { body: { scopes: ['again'] } })).status, 204);
    });

    test('an unknown repository is 404 on every scope endpoint', async () => {
      for (const [method, path] of [['PUT', commitPath(sha('1'), '/v1/repos/acme/nope')], ['PUT', pullPath(1, '/v1/repos/acme/nope')], ['POST', pullPath(1, '/v1/repos/acme/nope')], ['GET', commitPath(sha('1'), '/v1/repos/acme/nope')], ['GET', pullPath(1, '/v1/repos/acme/nope')]] as const) {
        const response = await t.request(method, path, { token: ciKey, body: method === 'GET' ? undefined : { scopes: [] } });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.equal(response.json.detail, 'Repository not found');
      }
    });

    test('owner and repository match without regard to case', async () => {
      assert.equal((await t.request('PUT', commitPath(sha('c4'), '/v1/repos/ACME/Widgets'), { token: ciKey, body: { scopes: ['s'] } })).status, 204);
      assert.deepEqual((await t.request('GET', commitPath(sha('c4')))).json.scopes, ['s']);
    });

    test('read-backs: an unknown pull request or commit is 404; a known pull request with nothing reported has empty scopes', async () => {
      const unknownPull = await t.request('GET', pullPath(999));
      assert.equal(unknownPull.status, 404);
      assert.equal(unknownPull.json.detail, 'Pull request not found');
      const unknownCommit = await t.request('GET', commitPath(sha('9')));
      assert.equal(unknownCommit.status, 404);
      assert.match(unknownCommit.json.detail, /No scope report/);
      await setPull(14, 'open', sha('14'));
      assert.deepEqual((await t.request('GET', pullPath(14))).json, { pull_request: 14, head_sha: sha('14'), scopes: [], all_scopes: false, source: null, reported_at: null });
    });

    test('pull request numbers up to 2^63-1 are exact', async () => {
      const big = '9223372036854775807';
      assert.equal((await t.request('PUT', pullPath(big), { body: { scopes: ['big'] } })).status, 204);
      const read = await t.request('GET', pullPath(big));
      assert.match(read.text, new RegExp(`"pull_request":${big}`));
    });

    test('limits: 1000 scopes of 255 characters are accepted; characters, not bytes, are counted', async () => {
      const scopes = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, '0')}${'s'.repeat(251)}`);
      assert.equal((await t.request('PUT', commitPath(sha('d5')), { body: { scopes } })).status, 204);
      assert.deepEqual((await t.request('GET', commitPath(sha('d5')))).json.scopes, scopes);
      const wide = ['🚂'.repeat(255), 'é"\\,{}NULL', 'NULL', ' '];
      assert.equal((await t.request('PUT', commitPath(sha('d6')), { body: { scopes: wide } })).status, 204);
      assert.deepEqual((await t.request('GET', commitPath(sha('d6')))).json.scopes, wide, 'scopes round-trip exactly');
    });

    test('every invalid body is a 422 naming the field, and writes nothing', async () => {
      const cases: [unknown, string[]][] = [
        [{}, ['body.scopes:missing']],
        [{ all_scopes: true }, ['body.scopes:missing']],
        [{ scopes: 'api' }, ['body.scopes:type_error']],
        [{ scopes: null }, ['body.scopes:type_error']],
        [{ scopes: ['api', 7, null] }, ['body.scopes.1:type_error', 'body.scopes.2:type_error']],
        [{ scopes: [''] }, ['body.scopes.0:string_too_short']],
        [{ scopes: ['ok', 'x'.repeat(256)] }, ['body.scopes.1:string_too_long']],
        [{ scopes: Array.from({ length: 1001 }, (_, i) => `s${i}`) }, ['body.scopes:too_long']],
        [{ scopes: ['api', 'web', 'api'] }, ['body.scopes:unique_items']],
        [{ scopes: ['nul\u0000byte'] }, ['body.scopes.0:string_unicode']],
        [{ scopes: ['ok', 'half \ud800 a pair'] }, ['body.scopes.1:string_unicode']],
        [{ scopes: [], all_scopes: 'true' }, ['body.all_scopes:type_error']],
        [{ scopes: [], all_scopes: null }, ['body.all_scopes:type_error']],
        [{ scopes: [], all_scope: true }, ['body.all_scope:extra_forbidden']],
        [[], ['body:type_error']],
        ['scopes', ['body:type_error']],
      ];
      for (const [method, path] of [['PUT', commitPath(sha('e7'))], ['PUT', pullPath(15)], ['POST', pullPath(15)]] as const) {
        for (const [body, expected] of cases) {
          const response = await t.request(method, path, { token: ciKey, body });
          assert.equal(response.status, 422, `${method} ${JSON.stringify(body)?.slice(0, 80)}: ${response.text.slice(0, 200)}`);
          assert.deepEqual(issues(response), expected, JSON.stringify(body)?.slice(0, 80));
        }
        for (const rawBody of ['{"scopes": [', '{"scopes":[],"scopes":["a"]}', '']) {
          const response = await t.request(method, path, { token: ciKey, rawBody, headers: { 'content-type': 'application/json' } });
          assert.equal(response.status, 422, `${method} ${rawBody}`);
        }
        const notJson = await t.request(method, path, { token: ciKey, rawBody: 'scopes=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        assert.equal(notJson.status, 415);
      }
      assert.equal((await t.request('GET', commitPath(sha('e7')))).status, 404);
      assert.equal((await t.request('GET', pullPath(15))).status, 404);
    });

    test('invalid path values are 422 naming them', async () => {
      const cases: [string, string, string][] = [
        ['PUT', commitPath('a'.repeat(39)), 'path.sha'],
        ['PUT', commitPath('g'.repeat(40)), 'path.sha'],
        ['GET', commitPath('a'.repeat(41)), 'path.sha'],
        ['PUT', pullPath(-1), 'path.number'],
        ['PUT', pullPath('abc'), 'path.number'],
        ['POST', pullPath('9223372036854775808'), 'path.number'],
        ['GET', pullPath('1.5'), 'path.number'],
        ['PUT', commitPath(sha('1'), '/v1/repos/ac_me/widgets'), 'path.owner'],
        ['PUT', pullPath(1, '/v1/repos/acme/wid%20gets'), 'path.repository'],
      ];
      for (const [method, path, loc] of cases) {
        const response = await t.request(method, path, { token: ciKey, body: method === 'GET' ? undefined : { scopes: [] } });
        assert.equal(response.status, 422, `${method} ${path}: ${response.text}`);
        assert.deepEqual(response.json.detail.map((d: Detail) => d.loc.join('.')), [loc]);
      }
    });

    describe('credentials (DESIGN.md §3)', () => {
      const tokens: Record<string, string> = {};
      before(async () => {
        tokens.ci = ciKey;
        tokens.admin = await key('acme', 'admin');
        tokens.otherCi = await key('globex', 'ci');
        tokens.otherAdmin = await key('globex', 'admin');
        tokens.reader = 'hosting-token-scope-reader';
        tokens.stranger = 'hosting-token-scope-stranger';
        t.hosting.users.set(tokens.reader, { login: 'rita', id: 21, repos: { 'acme/widgets': { admin: true, pull: true } } });
        t.hosting.users.set(tokens.stranger, { login: 'sam', id: 22, repos: { 'acme/other': { admin: true, pull: true } } });
        await setPull(20, 'open', sha('20'));
        await t.request('PUT', commitPath(sha('20')), { body: { scopes: ['seed'] } });
      });

      const writes = [
        ['PUT', () => commitPath(sha('20'))],
        ['PUT', () => pullPath(20)],
        ['POST', () => pullPath(20)],
      ] as const;
      const reads = [() => commitPath(sha('20')), () => pullPath(20)];

      test('writes: CI keys of the owner and the service token only', async () => {
        const expected: Record<string, number> = { ci: 204, service: 204, admin: 403, otherCi: 403, otherAdmin: 403, reader: 403, stranger: 403 };
        for (const [method, path] of writes) {
          for (const [who, status] of Object.entries(expected)) {
            const token = who === 'service' ? undefined : tokens[who];
            const response = await t.request(method, path(), { token, body: { scopes: ['seed'] } });
            assert.equal(response.status, status, `${who} ${method} ${path()}: ${response.text}`);
          }
        }
      });

      test('reads: CI and admin keys of the owner, hosting tokens that can read the repository, the service token', async () => {
        const expected: Record<string, number> = { ci: 200, service: 200, admin: 200, reader: 200, otherCi: 403, otherAdmin: 403, stranger: 403 };
        for (const path of reads) {
          for (const [who, status] of Object.entries(expected)) {
            const token = who === 'service' ? undefined : tokens[who];
            const response = await t.request('GET', path(), { token });
            assert.equal(response.status, status, `${who} GET ${path()}: ${response.text}`);
          }
        }
      });

      test('no credential, a malformed header, an unknown or revoked key are 403 before the body is looked at', async () => {
        const revoked = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'revoked' } })).json;
        assert.equal((await t.request('DELETE', `/v1/admin/keys/${revoked.id}`)).status, 204);
        for (const [method, path] of writes) {
          for (const token of [null, 'swy_unknown', revoked.key]) {
            const response = await t.request(method, path(), { token, body: { scopes: 'not even valid' } });
            assert.equal(response.status, 403, `${String(token)} ${method}`);
          }
          const malformed = await t.request(method, path(), { token: null, headers: { authorization: 'Basic eDp5' }, body: { scopes: [] } });
          assert.equal(malformed.status, 403);
        }
      });
    });
  });
}
