// Issue 20 item 9 through HTTP on both backends: what the hosting platform answers about a
// token is trusted only as far as it is definite and valid. A rate limit is a 503 that is not
// remembered; a user id above 2^53 is recorded exactly; a user that could not exist (a login
// GitHub would not issue, an id out of range) is a refused credential, 403 saying why, never a
// 500 nor a 503 to retry; and random tokens from one client stop costing upstream calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson } from '../../src/json/exact-json.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BUDGET = 5;

for (const backend of await backends()) {
  describe(`hosting identities (${backend})`, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('a platform rate limit is a 503 with Retry-After and is not remembered as a bad token', async () => {
      t.hosting.users.set('hosting-limited', { login: 'lim', id: 21, repos: { 'acme/widgets': { admin: true, pull: true } } });
      t.hosting.faults.add({ path: /^\/user$/, times: 1, kind: { rateLimit: 'primary', resetInSeconds: 600 } });
      const limited = await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-limited' });
      assert.equal(limited.status, 503, limited.text);
      assert.equal(limited.headers.get('retry-after'), '5');
      t.hosting.faults.add({ path: /^\/user$/, times: 1, kind: { rateLimit: 'secondary', retryAfterSeconds: 60 } });
      assert.equal((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-limited' })).status, 503);
      const after = await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-limited' });
      assert.equal(after.status, 200, 'the platform answers again: so does Switchyard, at once');
    });

    test('a user id above 2^53 is recorded exactly as the actor of a product change', async () => {
      const id = 2n ** 53n + 1n;
      t.hosting.users.set('hosting-big-id', { login: 'big-id', id, repos: { 'acme/widgets': { admin: true, pull: true } } });
      const response = await t.request('PUT', '/v1/products/acme/widgets', { token: 'hosting-big-id', body: { products: ['merge_queue'] } });
      assert.equal(response.status, 204, response.text);
      const [row] = await t.store.db.selectFrom('events').select('metadata').where('type', '=', 'product.enabled').orderBy('id', 'desc').limit(1).execute();
      assert.deepEqual((parseJson(row!.metadata) as { enabled_by: unknown }).enabled_by, { type: 'user', id, name: 'big-id' });
    });

    test('an identity GitHub would not issue is a refused credential (403 saying which field), and nothing is written', async () => {
      const bad: [string, unknown, unknown][] = [
        ['a login with U+0000', 'evil\u0000admin', 22],
        ['a login over 39 characters', 'a'.repeat(40), 23],
        ['an id beyond 64 bits', 'too-big', 2n ** 64n],
        ['an id that is not an integer', 'fraction', 1.5],
        ['a negative id', 'negative', -4],
      ];
      const before = await t.store.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      for (const [what, login, id] of bad) {
        const token = `hosting-bad-${what.replace(/\W+/g, '-')}`;
        t.hosting.users.set(token, { login: login as string, id: id as bigint, repos: { 'acme/widgets': { admin: true, pull: true } } });
        const response = await t.request('PUT', '/v1/products/acme/widgets', { token, body: { products: ['ci_insights'] } });
        assert.equal(response.status, 403, `${what}: ${response.text}`);
        assert.equal(response.headers.get('retry-after'), null, `${what}: nothing to retry`);
        assert.match(response.json.detail, new RegExp(`user with an invalid ${what.includes('login') ? 'login' : 'id'} .*refused as a credential`));
        const read = await t.request('GET', '/v1/repos/acme/widgets/logs', { token });
        assert.equal(read.status, 403, `${what}: reads refused too`);
      }
      const afterwards = await t.store.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      assert.equal(String(afterwards.n), String(before.n));
    });

    test('unknown tokens from one client stop reaching the platform after the budget; known ones do not count', async () => {
      // A frozen clock: the budget does not refill while the test runs, however slowly.
      const frozen = Date.now();
      const t = await startTestApp(backend, undefined, { tokenVerificationsPerMinute: BUDGET, hostingClock: () => frozen });
      try {
        assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
        for (let i = 0; i < BUDGET + 3; i++) t.hosting.users.set(`hosting-real-${i}`, { login: `real-${i}`, id: 100 + i, repos: { 'acme/widgets': { admin: false, pull: true } } });
        for (let i = 0; i < BUDGET + 3; i++) {
          assert.equal((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: `hosting-real-${i}` })).status, 200, 'real tokens give their verification back');
        }
        const asked = () => t.hosting.requests.filter((url) => url === '/user').length;
        const before = asked();
        const answers = [];
        for (let i = 0; i < BUDGET + 3; i++) answers.push(await t.request('GET', '/v1/repos/acme/widgets/logs', { token: `random-token-${i}-${Math.random()}` }));
        assert.deepEqual(answers.map((a) => a.status), [...Array(BUDGET).fill(403), 429, 429, 429]);
        assert.equal(asked() - before, BUDGET, 'no upstream call once the budget is spent');
        const limited = answers.at(-1)!;
        assert.ok(Number(limited.headers.get('retry-after')) >= 1);
        assert.match(limited.json.detail, /Too many unknown tokens/);
        assert.equal((await t.request('GET', '/v1/repos/acme/widgets/logs', { token: 'hosting-real-0' })).status, 200, 'a token already verified still works');
      } finally {
        await t.close();
      }
    });
  });
}
