// Event ingestion through HTTP (DESIGN.md §7): every type accepted, every kind of defect refused
// with a precise 422 and nothing written, idempotent retries, ids growing in write order.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, deriveOutcome, validateIngestEvents } from '../../src/domain/events/index.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { exampleEvent, generateEvents } from '../fixtures/event-fixtures.ts';

const LOGS = '/v1/repos/acme/widgets/logs';

type Detail = { loc: (string | number)[]; msg: string; type: string };

for (const backend of await backends()) {
  describe(`ingestion (${backend})`, () => {
    let t: TestApp;
    const count = async () => Number((await t.store.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    beforeEach(async () => {
      await t.store.db.deleteFrom('events').execute();
    });
    after(() => t.close());

    test('every one of the 46 types is accepted; outcome is derived and the envelope stored as sent', async () => {
      const events = EVENT_TYPES.map((type) => exampleEvent(type));
      const response = await t.request('POST', LOGS, { body: { events } });
      assert.equal(response.status, 201, response.text);
      const ids: number[] = response.json.ids;
      assert.equal(ids.length, 46);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids, 'ids grow in input order');
      const rows = await t.store.db.selectFrom('events').selectAll().orderBy('id').execute();
      assert.equal(rows.length, 46);
      rows.forEach((row, i) => {
        const sent = events[i]!;
        assert.equal(row.id, String(ids[i]));
        assert.equal(row.type, sent.type);
        assert.equal(row.outcome, deriveOutcome(sent.type, sent.metadata));
        assert.equal(row.trigger, sent.trigger);
        assert.deepEqual(JSON.parse(row.metadata), JSON.parse(JSON.stringify(sent.metadata, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))));
      });
    });

    test('metadata is stored as sent when compact (escapes and big integers kept), else re-serialised', async () => {
      const example = exampleEvent('action.comment');
      const envelope = (metadata: string) => `{"type":"action.comment","trigger":${JSON.stringify(example.trigger)},"pull_request":1,"metadata":${metadata}}`;
      const compact = JSON.stringify(example.metadata, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)).replace(/"([^"]*)":"/, '"$1":"\\u00e9\\/ ');
      const spaced = JSON.stringify(example.metadata, (_k, v) => (typeof v === 'bigint' ? Number(v) : v), 2);
      const response = await t.request('POST', LOGS, { rawBody: `{"events":[${envelope(compact)}, ${envelope(spaced)}]}`, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 201, response.text);
      const rows = await t.store.db.selectFrom('events').select('metadata').orderBy('id').execute();
      assert.equal(rows[0]!.metadata, compact, 'the compact text, escapes and all');
      assert.equal(rows[1]!.metadata, JSON.stringify(JSON.parse(spaced)), 'whitespace is not stored');
      assert.deepEqual(JSON.parse(rows[0]!.metadata), JSON.parse(compact));
    });

    test('received_at defaults to now and is kept to the millisecond when given', async () => {
      const before = Date.now();
      const given = '2024-05-01T10:20:30.123+02:00';
      const response = await t.request('POST', LOGS, { body: { events: [exampleEvent('action.comment'), { ...exampleEvent('action.comment'), received_at: given }] } });
      assert.equal(response.status, 201);
      const rows = await t.store.db.selectFrom('events').select('received_at').orderBy('id').execute();
      assert.ok(rows[0]!.received_at.getTime() >= before - 1 && rows[0]!.received_at.getTime() <= Date.now());
      assert.equal(rows[1]!.received_at.toISOString(), '2024-05-01T08:20:30.123Z');
    });

    test('64-bit pull request numbers and batch numbers are stored exactly', async () => {
      const start = exampleEvent('action.queue.checks_start');
      const max = 9223372036854775807n;
      const metadata = { ...start.metadata, speculative_check_pull_request: { ...(start.metadata.speculative_check_pull_request as object), number: max - 1n } };
      const response = await t.request('POST', LOGS, { body: { events: [{ ...start, pull_request: max, metadata }] } });
      assert.equal(response.status, 201, response.text);
      const row = await t.store.db.selectFrom('events').selectAll().executeTakeFirstOrThrow();
      assert.equal(row.pull_request, String(max));
      assert.equal(row.batch_pull_request, String(max - 1n));
      assert.match(row.metadata, /"number":9223372036854775806/);
    });

    const defects: [string, (e: Record<string, any>) => void, (string | number)[], string][] = [
      ['missing required field', (e) => delete e.metadata.message, ['metadata', 'message'], 'missing'],
      ['wrong type', (e) => (e.metadata.message = 5), ['metadata', 'message'], 'type_error'],
      ['missing trigger', (e) => delete e.trigger, ['trigger'], 'missing'],
      ['extra top-level field', (e) => (e.outcome = 'success'), ['outcome'], 'extra_forbidden'],
      ['extra metadata field', (e) => (e.metadata.mesage = 'typo'), ['metadata', 'mesage'], 'extra_forbidden'],
      ['bad date-time', (e) => (e.received_at = '2024-01-01T00:00:00'), ['received_at'], 'format'],
      ['received_at too far ahead', (e) => (e.received_at = new Date(Date.now() + 6 * 60_000).toISOString()), ['received_at'], 'received_at_in_future'],
      ['pull request out of range', (e) => (e.pull_request = 9223372036854775808n), ['pull_request'], 'int_parsing'],
    ];
    for (const [name, mutate, loc, type] of defects) {
      test(`${name}: a 422 naming the field, and the batch writes nothing`, async () => {
        const bad: Record<string, any> = structuredClone(exampleEvent('action.comment'));
        mutate(bad);
        const response = await t.request('POST', LOGS, { body: { events: [exampleEvent('action.label'), bad] } });
        assert.equal(response.status, 422, response.text);
        const detail: Detail[] = response.json.detail;
        assert.ok(detail.some((d) => d.loc.join('.') === ['body', 'events', 1, ...loc].join('.') && d.type === type), JSON.stringify(detail));
        assert.equal(await count(), 0);
      });
    }

    test('bad enum, bad uuid and unknown type are named precisely', async () => {
      const review: Record<string, any> = structuredClone(exampleEvent('action.review'));
      review.metadata.review_type = 'LGTM';
      const enter: Record<string, any> = structuredClone(exampleEvent('action.queue.enter'));
      enter.metadata.session_id = 'not-a-uuid';
      const unknown = { ...exampleEvent('action.comment'), type: 'action.teleport' };
      const response = await t.request('POST', LOGS, { body: { events: [review, enter, unknown] } });
      assert.equal(response.status, 422);
      const byLoc = new Map((response.json.detail as Detail[]).map((d) => [d.loc.join('.'), d.type]));
      assert.equal(byLoc.get('body.events.0.metadata.review_type'), 'enum');
      assert.equal(byLoc.get('body.events.1.metadata.session_id'), 'format');
      assert.equal(byLoc.get('body.events.2.type'), 'enum');
      assert.equal(await count(), 0);
    });

    test('batches must hold 1 to 1000 events, and the body only "events"', async () => {
      assert.equal((await t.request('POST', LOGS, { body: { events: [] } })).status, 422);
      const many = generateEvents({ seed: 1, count: 1001, start: new Date(Date.now() - 3_600_000), end: new Date() });
      assert.equal((await t.request('POST', LOGS, { body: { events: many } })).status, 422);
      const extra = await t.request('POST', LOGS, { body: { events: [exampleEvent('action.label')], dry_run: true } });
      assert.equal(extra.status, 422);
      assert.deepEqual(extra.json.detail[0].loc, ['body', 'dry_run']);
      assert.equal((await t.request('POST', LOGS, { body: { events: many.slice(0, 1000) } })).status, 201, '1000 is accepted');
    });

    test('a retried batch stores nothing new and returns the first ids', async () => {
      const events = [0, 1, 2].map((i) => ({ ...exampleEvent('action.label'), idempotency_key: `delivery-${i}` }));
      const first = await t.request('POST', LOGS, { body: { events } });
      const again = await t.request('POST', LOGS, { body: { events } });
      assert.equal(again.status, 201);
      assert.deepEqual(again.json.ids, first.json.ids);
      assert.equal(await count(), 3);
      const mixed = await t.request('POST', LOGS, { body: { events: [events[1], exampleEvent('action.close'), events[1], { ...events[0]!, idempotency_key: 'delivery-9' }] } });
      assert.equal(mixed.json.ids[0], first.json.ids[1]);
      assert.equal(mixed.json.ids[2], first.json.ids[1], 'a key repeated within a batch is one event');
      assert.ok(mixed.json.ids[1] > first.json.ids[2] && mixed.json.ids[3] > mixed.json.ids[1]);
      assert.equal(await count(), 5);
    });

    test('concurrent retries of one key store one event and all get its id', async () => {
      const event = { ...exampleEvent('action.merge'), idempotency_key: 'race' };
      const responses = await Promise.all(Array.from({ length: 12 }, () => t.request('POST', LOGS, { body: { events: [event, exampleEvent('action.label')] } })));
      assert.ok(responses.every((r) => r.status === 201), responses.map((r) => r.text).join('\n'));
      assert.equal(new Set(responses.map((r) => r.json.ids[0])).size, 1);
      assert.equal(await count(), 13);
    });

    test('a key stored by a transaction still open is waited for; its id and the batch\'s own line up', { skip: backend === 'pglite' && 'PGlite runs one transaction at a time' }, async () => {
      const repositoryId = (await t.store.repositories.find('acme', 'widgets'))!.id;
      const keyed = { ...exampleEvent('action.merge'), idempotency_key: 'held' };
      let settled = false;
      let batch: Promise<{ status: number; json: { ids: number[] } }> | undefined;
      const heldIds = await t.store.db.transaction().execute(async (trx) => {
        // Another writer has stored the key but not committed: the batch sees nothing yet.
        const validation = validateIngestEvents([{ ...keyed }], new Date());
        assert.ok(validation.ok);
        const ids = await t.store.events.insertBatch(repositoryId, validation.events, trx);
        batch = t.request('POST', LOGS, { body: { events: [exampleEvent('action.label'), keyed, exampleEvent('action.close'), keyed] } }).finally(() => (settled = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(settled, false, 'the batch did not wait for the key');
        return ids;
      });
      const response = await batch!;
      assert.equal(response.status, 201);
      const [label, first, close, again] = response.json.ids;
      assert.equal(BigInt(first!), heldIds[0], 'the key gets the id of the writer that stored it');
      assert.equal(again, first);
      assert.ok(close! > label! && label! > first!, 'the batch\'s own events take new ids, in input order');
      const types = await t.store.db.selectFrom('events').select(['id', 'type']).orderBy('id').execute();
      assert.deepEqual(types.map((r) => r.type), ['action.merge', 'action.label', 'action.close']);
      assert.deepEqual(types.map((r) => Number(r.id)), [first, label, close]);
    });

    test('idempotency keys belong to their repository', async () => {
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/gadgets')).status, 201);
      const event = { ...exampleEvent('action.label'), idempotency_key: 'shared' };
      const a = await t.request('POST', LOGS, { body: { events: [event] } });
      const b = await t.request('POST', '/v1/repos/acme/gadgets/logs', { body: { events: [event] } });
      assert.notEqual(a.json.ids[0], b.json.ids[0]);
    });

    test('ids grow in write order across batches', async () => {
      let last = 0;
      for (let i = 0; i < 5; i++) {
        const response = await t.request('POST', LOGS, { body: { events: [exampleEvent('action.label'), exampleEvent('action.close')] } });
        assert.ok(response.json.ids[0] > last && response.json.ids[1] > response.json.ids[0]);
        last = response.json.ids[1];
      }
    });

    test('an unknown repository is 404, an oversized body 413, a non-service credential 403', async () => {
      assert.equal((await t.request('POST', '/v1/repos/acme/ghost/logs', { body: { events: [exampleEvent('action.label')] } })).status, 404);
      const huge = { events: [{ ...exampleEvent('action.comment'), metadata: { message: 'x'.repeat(11 * 1024 * 1024) } }] };
      assert.equal((await t.request('POST', LOGS, { body: huge })).status, 413);
      const mid = { events: [{ ...exampleEvent('action.comment'), metadata: { message: 'x'.repeat(2 * 1024 * 1024) } }] };
      assert.equal((await t.request('POST', LOGS, { body: mid })).status, 201, 'ingestion takes up to 10 MiB');
      const key = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'a' } })).json.key;
      assert.equal((await t.request('POST', LOGS, { token: key, body: { events: [exampleEvent('action.label')] } })).status, 403);
    });
  });
}
