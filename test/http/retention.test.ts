// Retention (DESIGN.md §8): events older than the configured days are removed, in every
// repository, across chunk boundaries; younger events stay.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { purgeExpiredEvents, scheduleRetention } from '../../src/services/retention.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const DAY = 86_400_000;

for (const backend of await backends()) {
  describe(`retention (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend);
    });
    after(() => t.close());

    test('events and webhook deliveries older than the retention window are removed, younger ones kept', async () => {
      const now = Date.now();
      for (const repository of ['old-and-new', 'only-old']) {
        assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${repository}`)).status, 201);
        const ages = repository === 'only-old' ? [91, 120] : [200, 90.5, 89.9, 1];
        const events = ages.map((days) => ({ ...exampleEvent('action.label'), trigger: `${days}`, received_at: new Date(now - days * DAY).toISOString() }));
        assert.equal((await t.request('POST', `/v1/repos/acme/${repository}/logs`, { body: { events } })).status, 201);
      }
      // 6000 old events in one repository: more than one chunk.
      const bulk = Array.from({ length: 6 }, (_, b) => Array.from({ length: 1000 }, (_, i) => ({ ...exampleEvent('action.close'), received_at: new Date(now - 100 * DAY - (b * 1000 + i) * 1000).toISOString() })));
      for (const events of bulk) assert.equal((await t.request('POST', '/v1/repos/acme/only-old/logs', { body: { events } })).status, 201);

      await t.store.db.insertInto('webhook_deliveries').values([{ delivery_id: 'old', received_at: new Date(now - 91 * DAY) }, { delivery_id: 'recent', received_at: new Date(now - DAY) }]).execute();

      const removed = await purgeExpiredEvents(t.store, 90, new Date(now));
      assert.equal(removed, 6004);
      const left = await t.store.db.selectFrom('events').select('trigger').orderBy('received_at').execute();
      assert.deepEqual(left.map((row) => row.trigger), ['89.9', '1']);
      assert.equal(await purgeExpiredEvents(t.store, 90, new Date(now)), 0, 'a second run finds nothing');
      const deliveries = await t.store.db.selectFrom('webhook_deliveries').select('delivery_id').execute();
      assert.deepEqual(deliveries.map((row) => row.delivery_id), ['recent'], 'delivery ids expire with the events');
    });

    test('the job purges at once and then every interval, logging what it removed, until stopped', async () => {
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/scheduled')).status, 201);
      const writeOld = async (trigger: string) => {
        const events = [{ ...exampleEvent('action.label'), trigger, received_at: new Date(Date.now() - 100 * DAY).toISOString() }];
        assert.equal((await t.request('POST', '/v1/repos/acme/scheduled/logs', { body: { events } })).status, 201);
      };
      const remaining = async (trigger: string) => (await t.store.db.selectFrom('events').select('id').where('trigger', '=', trigger).execute()).length;
      const until = async (condition: () => Promise<boolean>, what: string) => {
        for (const started = Date.now(); !(await condition()); await sleep(20)) if (Date.now() - started > 5000) assert.fail(`timed out waiting: ${what}`);
      };
      const logged: object[] = [];
      await writeOld('first');
      const stop = scheduleRetention(t.store, { retentionDays: 90, webhookMaxAgeSeconds: 3600 }, { info: (o) => logged.push(o), warn: (o) => logged.push(o) }, 200);
      try {
        await until(async () => (await remaining('first')) === 0, 'the run at start');
        await writeOld('second');
        await until(async () => (await remaining('second')) === 0, 'a run one interval later');
      } finally {
        stop();
      }
      assert.ok(logged.some((entry) => (entry as { removed?: number }).removed === 1), JSON.stringify(logged));
      await sleep(50); // a run already under way may finish
      await writeOld('after stop');
      await sleep(600);
      assert.equal(await remaining('after stop'), 1, 'no run after stop');
    });
  });
}
