// No credential or owner takes the service from the others (issue 20, item 4): requests per
// minute per credential and per owner (429 with Retry-After and RateLimit-* headers), expensive
// reads queued per owner, and /readyz answering while the pool is busy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

for (const backend of await backends()) {
  describe(`fair share (${backend})`, () => {
    let t: TestApp;
    const keys: Record<string, string> = {};

    before(async () => {
      t = await startTestApp(backend, undefined, { limits: { requestsPerMinutePerCredential: 5, requestsPerMinutePerOwner: 8, expensiveReadsPerOwner: 1, expensiveReadsTotal: 2 } });
      for (const repo of ['acme/widgets', 'globex/gadgets']) assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
      for (const [name, owner] of [['a1', 'acme'], ['a2', 'acme'], ['a3', 'acme'], ['g1', 'globex'], ['g2', 'globex']] as const) {
        keys[name] = (await t.request('POST', '/v1/admin/keys', { body: { owner, scope: 'admin', name } })).json.key;
      }
    });
    after(() => t.close());

    test('a credential past its requests per minute gets 429 with Retry-After; its budget is in RateLimit-* headers', async () => {
      for (let i = 0; i < 5; i++) {
        const response = await t.request('GET', '/v1/products/acme/widgets', { token: keys.a1 });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('ratelimit-limit'), '5');
        assert.equal(response.headers.get('ratelimit-remaining'), String(4 - i));
        assert.ok(Number(response.headers.get('ratelimit-reset')) > 0);
      }
      const refused = await t.request('GET', '/v1/products/acme/widgets', { token: keys.a1 });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      assert.match(refused.json.detail, /Too many requests/);
      // Another key of the same owner has its own budget; the service token has none.
      assert.equal((await t.request('GET', '/v1/products/acme/widgets', { token: keys.a2 })).status, 200);
      for (let i = 0; i < 10; i++) assert.equal((await t.request('GET', '/v1/products/acme/widgets')).status, 200);
    });

    test("an owner's keys together are held to the owner's budget; other owners are not", async () => {
      // a1 made 6 requests on acme and a2 one: one more from a2 fills acme's 8, then a3 is refused.
      assert.equal((await t.request('GET', '/v1/products/acme/widgets', { token: keys.a2 })).status, 200);
      const refused = await t.request('GET', '/v1/products/acme/widgets', { token: keys.a3 });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal((await t.request('GET', '/v1/products/globex/gadgets', { token: keys.g1 })).status, 200);
    });

    test("one owner's many aggregates queue behind each other, not in front of another owner's", async () => {
      // The service token is not rate-limited: 30 scans of acme, then one of globex.
      const query = 'outcome=success';
      const order: string[] = [];
      const acme = Array.from({ length: 30 }, () => t.request('GET', `/v1/repos/acme/widgets/logs/aggregate?${query}`).then((r) => (order.push('acme'), r.status)));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const globex = await t.request('GET', `/v1/repos/globex/gadgets/logs/aggregate?${query}`);
      const acmeBefore = order.length;
      assert.equal(globex.status, 200);
      assert.deepEqual(new Set(await Promise.all(acme)), new Set([200]));
      assert.ok(acmeBefore <= 10, `${acmeBefore} of acme's 30 aggregates were answered before globex's one`);
    });

    test('/readyz answers at once while every database connection is busy', async () => {
      const busy = Array.from({ length: backend === 'postgres' ? 12 : 2 }, () => sql`SELECT pg_sleep(3)`.execute(t.store.db).catch(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      const ready = await t.request('GET', '/readyz', { token: null });
      const ms = performance.now() - started;
      assert.equal(ready.status, 200);
      assert.ok(ms < 1000, `answered in ${ms} ms`);
      await Promise.all(busy);
    });
  });
}
