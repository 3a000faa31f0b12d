// The aggregate endpoint through HTTP (spec §4.4, §2.6; DESIGN.md §8), every field checked against
// an independent model (plain filtering and counting of the ingested events) over randomized
// filter sets: self-ignoring facets, ties at the 200th place, empty windows, windows that cut a
// bucket, the 93-day limit, and total equal to what the list returns.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTCOMES, type EventType, type Outcome } from '../../src/domain/events/index.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { eventAt, expectedEvents, modelEvents, modelWindow, searchOf, type ModelEvent, type ModelQuery } from '../support/activity-log-model.ts';
import { validateIngestEvents } from '../../src/domain/events/index.ts';
import { ingestEvents, walkNext } from '../support/activity-log-client.ts';
import { generateEvents } from '../fixtures/event-fixtures.ts';
import { purgeExpiredEvents } from '../../src/services/retention.ts';
import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { openStore } from '../../src/storage/store.ts';
import { privateSchemaUrl } from '../support/backends.ts';

const REPO = 'acme/widgets';
const DAY = 86_400_000;
const LADDER = [15, 30, 120, 600, 1200, 3600, 14400, 28800, 86400];

interface Facet {
  value: string;
  count: number;
}

/** The aggregate, computed from the model alone. */
function modelAggregate(all: ModelEvent[], query: ModelQuery, now: number) {
  const matching = expectedEvents(all, REPO, query, now);
  const { from, to } = modelWindow(query, now);
  const step = LADDER.find((s) => (to - from) / 1000 / s <= 200)!;
  const histogram = [];
  for (let start = Math.floor(from / (step * 1000)) * step * 1000; start < to; start += step * 1000) {
    histogram.push({ start: new Date(start).toISOString(), end: new Date(start + step * 1000).toISOString(), count: matching.filter((e) => e.receivedAt >= start && e.receivedAt < start + step * 1000).length });
  }
  const without = (...names: (keyof ModelQuery)[]) => expectedEvents(all, REPO, Object.fromEntries(Object.entries(query).filter(([k]) => !names.includes(k as keyof ModelQuery))), now);
  return {
    total: matching.length,
    interval_size_seconds: step,
    histogram,
    by_event_type: rank(matching.map((e) => e.type), false, Infinity),
    by_outcome: rank(matching.map((e) => e.outcome), false, Infinity),
    by_trigger: rank(without('trigger', 'not_trigger').map((e) => e.trigger), false, 200),
    by_pull_request: rank(without('pull_request', 'not_pull_request').map((e) => e.pullRequest), true, 200),
    by_batch_pull_request: rank(without('batch_pull', 'not_batch_pull').map((e) => e.batchPull), true, 200),
  };
}

function rank(values: (string | bigint | null)[], numeric: boolean, limit: number): Facet[] {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  const order = (a: string, b: string) => (numeric ? (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0) : a < b ? -1 : a > b ? 1 : 0);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || order(a.value, b.value)).slice(0, limit);
}

/** A seeded generator, so a failing query can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
}

function pick<T>(next: () => number, values: readonly T[], max: number): T[] {
  const count = 1 + Math.floor(next() * max);
  return [...new Set(Array.from({ length: count }, () => values[Math.floor(next() * values.length)]!))];
}

/** A random filter set drawn from values present in the data (and some absent ones). */
function randomQuery(next: () => number, all: ModelEvent[], now: number): ModelQuery {
  const query: ModelQuery = {};
  const pulls = [...new Set(all.map((e) => e.pullRequest).filter((p): p is bigint => p !== null)), 999_999n];
  const batches = [...new Set(all.map((e) => e.batchPull).filter((p): p is bigint => p !== null))];
  const types = [...new Set(all.map((e) => e.type))] as EventType[];
  const triggers = [...new Set(all.map((e) => e.trigger)), 'no such trigger'];
  const side = () => next() < 0.5;
  if (next() < 0.35) query[side() ? 'pull_request' : 'not_pull_request'] = pick(next, pulls, 4);
  if (next() < 0.3 && batches.length) query[side() ? 'batch_pull' : 'not_batch_pull'] = pick(next, batches, 3);
  if (next() < 0.35) query[side() ? 'event_type' : 'not_event_type'] = pick(next, types, 5);
  if (next() < 0.3) query[side() ? 'outcome' : 'not_outcome'] = pick(next, OUTCOMES as readonly Outcome[], 2);
  if (next() < 0.35) query[side() ? 'trigger' : 'not_trigger'] = pick(next, triggers, 3);
  if (next() < 0.15) query.base_ref = 'main';
  if (next() < 0.5) {
    const to = now - Math.floor(next() * DAY);
    query.received_to = new Date(to).toISOString();
    query.received_from = new Date(to - 60_000 - Math.floor(next() * 2 * DAY)).toISOString();
  }
  return query;
}

// Each model test runs twice: answered by the columnar copy (src/storage/columnar/, the default),
// and by storage alone (the copy turned off), which answers whenever the copy cannot.
const ANSWERED_BY = [
  { copy: true, name: 'columnar copy' },
  { copy: false, name: 'storage' },
] as const;

for (const backend of await backends()) {
  for (const { copy, name: answeredBy } of ANSWERED_BY) describe(`activity log aggregate (${backend}, ${answeredBy})`, () => {
    let t: TestApp;
    let all: ModelEvent[];
    const now = Date.now();
    const aggregate = async (query: ModelQuery) => {
      const response = await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf(query)}`);
      assert.equal(response.status, 200, response.text);
      return response.json;
    };

    before(async () => {
      t = await startTestApp(backend);
      t.store.eventAggregates.copyEnabled = copy;
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/other')).status, 201);
      const events = generateEvents({ seed: 11, count: 2500, start: new Date(now - 2 * DAY), end: new Date(now - 1000), pullRange: [1n, 60n] });
      all = await ingestEvents(t, REPO, events, now);
      await ingestEvents(t, 'acme/other', generateEvents({ seed: 12, count: 300, start: new Date(now - DAY), end: new Date(now - 1000) }), now);
    });
    after(() => t.close());

    // A query without received_to ends at the server's now: the model takes the instant just
    // before the request, not the suite's start (on a busy machine, set-up takes a minute, and
    // the one-day window has moved past a few events since).
    test('with no filters, every field matches the model', async () => {
      const at = Date.now();
      assert.deepEqual(await aggregate({}), modelAggregate(all, {}, at));
    });

    test('randomized filter sets: every field matches the model, each facet ignoring only its own pair', async () => {
      const next = random(backend === 'pglite' ? 101 : 202);
      for (let i = 0; i < 40; i++) {
        const query = randomQuery(next, all, now);
        const at = Date.now();
        assert.deepEqual(await aggregate(query), modelAggregate(all, query, at), `query ${searchOf(query)}`);
      }
    });

    test('total equals the number of events the list returns for the same filters', async () => {
      const next = random(7);
      for (let i = 0; i < 4; i++) {
        const query = randomQuery(next, all, now);
        query.received_to ??= new Date(now).toISOString();
        const pages = await walkNext(t, `/v1/repos/${REPO}/logs?${searchOf(query, { per_page: '100' })}`);
        const listed = pages.reduce((sum, page) => sum + page.ids.length, 0);
        assert.equal((await aggregate(query)).total, listed, searchOf(query));
      }
    });

    test('an empty window: total 0, a zero-filled histogram, no facet rows', async () => {
      const query = { received_from: new Date(now - 30 * DAY).toISOString(), received_to: new Date(now - 29 * DAY).toISOString() };
      const result = await aggregate(query);
      assert.equal(result.total, 0);
      assert.ok(result.histogram.length >= 144 && result.histogram.every((b: { count: number }) => b.count === 0));
      for (const facet of ['by_event_type', 'by_outcome', 'by_trigger', 'by_pull_request', 'by_batch_pull_request']) assert.deepEqual(result[facet], []);
    });

    test('a window that cuts buckets counts only the events inside it', async () => {
      const query = { received_from: new Date(now - DAY - 7 * 60_000 - 123).toISOString(), received_to: new Date(now - 3 * 60_000 - 77).toISOString() };
      const result = await aggregate(query);
      assert.deepEqual(result, modelAggregate(all, query, now));
      assert.equal(result.histogram.reduce((sum: number, b: { count: number }) => sum + b.count, 0), result.total);
    });

    test('93 days is the longest window; the 200-step ladder picks one day then', async () => {
      const to = now;
      const longest = await aggregate({ received_from: new Date(to - 93 * DAY).toISOString(), received_to: new Date(to).toISOString() });
      assert.equal(longest.interval_size_seconds, 86400);
      assert.equal(longest.total, all.filter((e) => e.receivedAt < to).length);
      const tooLong = await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf({ received_from: new Date(to - 93 * DAY - 1).toISOString(), received_to: new Date(to).toISOString() })}`);
      assert.equal(tooLong.status, 422);
      assert.deepEqual(tooLong.json.detail[0].loc, ['query', 'received_from']);
    });

    test('the same validation as the list: pairs, window order, timezone, unknown parameters, no paging', async () => {
      for (const search of ['trigger=a&not_trigger=b', 'pull_request=1&not_pull_request=2', 'received_from=2024-01-02T00:00:00Z&received_to=2024-01-01T00:00:00Z', 'received_to=2024-01-01T00:00:00', 'per_page=10', 'cursor=abc', 'event_typ=action.label', 'outcome=great', 'pull_request=9223372036854775808']) {
        const response = await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${search}`);
        assert.equal(response.status, 422, search);
        assert.ok(Array.isArray(response.json.detail) && response.json.detail[0].loc[0] === 'query', `${search}: ${response.text}`);
      }
      assert.equal((await t.request('GET', '/v1/repos/acme/ghost/logs/aggregate')).status, 404);
    });
  });

  for (const { copy, name: answeredBy } of ANSWERED_BY) describe(`activity log aggregate from the event counts (${backend}, ${answeredBy})`, () => {
    // Unfiltered windows longer than 400 minutes are answered from the count tables of migration
    // 0005, kept by triggers; these tests write, retry, purge and compare with the model.
    let t: TestApp;
    let all: ModelEvent[];
    const now = Date.now();
    const aggregate = async (query: ModelQuery) => (await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf(query)}`)).json;
    /** The count tables as the events say they should be. */
    const slot = () => sql`floor(date_part('epoch', date_trunc('second', received_at)) / width)::bigint * width`;
    const stored = {
      counts: sql`SELECT repository_id, width, slot_start, type, outcome, trigger, base_ref, n::bigint FROM event_counts`,
    };
    const widths = (...list: number[]) => sql`(VALUES ${sql.join(list.map((w) => sql`(${sql.lit(w)})`))}) AS w (width)`;
    const recounted = {
      counts: sql`SELECT repository_id, width, ${slot()}, type, outcome, trigger, base_ref, count(*) FROM events, ${widths(600, 14400, 86400)} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    };
    /** Rows in one and not the other, either way. */
    const differing = async (a: RawBuilder<unknown>, b: RawBuilder<unknown>) =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM (
        (SELECT * FROM (${a}) AS a EXCEPT ALL SELECT * FROM (${b}) AS b) UNION ALL (SELECT * FROM (${b}) AS b EXCEPT ALL SELECT * FROM (${a}) AS a)) AS d`.execute(t.store.db)).rows[0]!.n);
    /** The count tables as the events say they should be. */
    const countsMatchEvents = async () => {
      assert.equal(await differing(stored.counts, recounted.counts), 0, 'event_counts differs from the events');
    };

    before(async () => {
      t = await startTestApp(backend);
      t.store.eventAggregates.copyEnabled = copy;
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/other')).status, 201);
      const events = generateEvents({ seed: 21, count: 3000, start: new Date(now - 4 * DAY), end: new Date(now - 1000), pullRange: [1n, 400n] });
      // Every tenth event carries an idempotency key; those are all sent a second time, which
      // stores nothing and returns the first ids.
      events.forEach((event, i) => i % 10 === 0 && ((event as { idempotency_key?: string }).idempotency_key = `key-${i}`));
      all = await ingestEvents(t, REPO, events, now);
      const retried = events.filter((_, i) => i % 10 === 0);
      const again = await t.request('POST', `/v1/repos/${REPO}/logs`, { body: { events: retried } });
      assert.equal(again.status, 201);
      assert.deepEqual(again.json.ids.map(String), all.filter((_, i) => i % 10 === 0).map((e) => String(e.id)));
      await ingestEvents(t, 'acme/other', generateEvents({ seed: 22, count: 500, start: new Date(now - 2 * DAY), end: new Date(now - 1000) }), now);
      // PGlite reads windows in slices: these 12 hours long at most, so every long window here
      // takes many slices, each a statement of its own, with the events fixed on one id.
      if (backend === 'pglite') t.store.eventAggregates.slicing = { targetMs: 0, narrowestSeconds: 12 * 3600 };
    });
    after(() => t.close());

    test('the counts follow every insert, including retried batches that store only what is new', async () => {
      await countsMatchEvents();
    });

    test('unfiltered windows of 7 hours to 93 days, cut anywhere, match the model', async () => {
      const next = random(backend === 'pglite' ? 31 : 32);
      for (let i = 0; i < 25; i++) {
        const span = Math.floor(401 * 60_000 + next() * (i % 3 === 0 ? 93 * DAY - 401 * 60_000 : 3 * DAY));
        const to = now + 60_000 - Math.floor(next() * 4 * DAY);
        const query = { received_from: new Date(to - span).toISOString(), received_to: new Date(to).toISOString() };
        const result = await aggregate(query);
        assert.ok(result.interval_size_seconds >= 600);
        assert.deepEqual(result, modelAggregate(all, query, now), searchOf(query));
      }
    });

    test('randomized filter sets over windows of 7 hours to 93 days, cut anywhere, match the model', async () => {
      // The counts by type, outcome, trigger and base_ref apply those filters; a filter on pull
      // requests or batches sends the parts it concerns to the events.
      const next = random(backend === 'pglite' ? 41 : 42);
      for (let i = 0; i < 30; i++) {
        const query = randomQuery(next, all, now);
        if (i % 2 === 0) query.base_ref = 'main';
        const span = Math.floor(401 * 60_000 + next() * (i % 3 === 0 ? 93 * DAY - 401 * 60_000 : 4 * DAY));
        const to = now + 60_000 - Math.floor(next() * 3 * DAY);
        query.received_from = new Date(to - span).toISOString();
        query.received_to = new Date(to).toISOString();
        assert.deepEqual(await aggregate(query), modelAggregate(all, query, now), searchOf(query));
      }
    });

    test('aggregates read while batches are written each match the model at one batch boundary', async () => {
      const batches = Array.from({ length: 6 }, (_, i) => generateEvents({ seed: 40 + i, count: 150, start: new Date(now - 3 * DAY), end: new Date(now - 1000), pullRange: [1n, 400n] }));
      const queries: ModelQuery[] = [
        { received_from: new Date(now - 4 * DAY).toISOString(), received_to: new Date(now + 60_000).toISOString() },
        { base_ref: 'main', not_outcome: ['neutral'], received_from: new Date(now - 3 * DAY - 5_000).toISOString(), received_to: new Date(now).toISOString() },
      ];
      const states = [all];
      let writing = true;
      const writes = (async () => {
        for (const batch of batches) states.push([...states.at(-1)!, ...(await ingestEvents(t, REPO, batch, now))]);
        writing = false;
      })();
      const seen: { query: ModelQuery; result: unknown }[] = [];
      while (writing || seen.length < 4) for (const query of queries) seen.push({ query, result: await aggregate(query) });
      await writes;
      for (const { query, result } of seen) {
        const matches = states.some((state) => { try { assert.deepEqual(result, modelAggregate(state, query, now)); return true; } catch { return false; } });
        assert.ok(matches, `an aggregate read during writes matches no batch boundary: ${searchOf(query)}`);
      }
      all = states.at(-1)!;
      await countsMatchEvents();
    });

    if (backend === 'pglite' && !copy) {
      /** An aggregate held after its second slice, until `release` is called. */
      const heldAggregate = async (query: ModelQuery) => {
        let reached!: () => void;
        let release!: () => void;
        const paused = new Promise<void>((resolve) => (reached = resolve));
        const released = new Promise<void>((resolve) => (release = resolve));
        t.store.eventAggregates.slicing = { targetMs: 0, narrowestSeconds: 12 * 3600, afterSlice: async (slices) => { if (slices === 2) { reached(); await released; } } };
        const slicesBefore = t.store.eventAggregates.slicing;
        const result = aggregate(query);
        await paused;
        return { result, release: () => { release(); t.store.eventAggregates.slicing = { ...slicesBefore, afterSlice: undefined }; } };
      };

      test('pglite: between two slices of an aggregate the session serves other requests, and what they write is not counted', { timeout: 120_000 }, async () => {
        const query = { received_from: new Date(now - 4 * DAY).toISOString(), received_to: new Date(now + 60_000).toISOString() };
        const expected = modelAggregate(all, query, now);
        const held = await heldAggregate(query);
        // Written while the aggregate is half done: in its window, in slots it has read and not.
        const written = await ingestEvents(t, REPO, [eventAt('action.queue.checks_end', now - 3 * DAY), eventAt('action.label', now - 1000, { pull_request: 7n })], now);
        assert.equal((await t.request('GET', `/v1/repos/${REPO}/logs?${searchOf(query)}`)).status, 200);
        held.release();
        assert.deepEqual(await held.result, expected);
        all = [...all, ...written];
        assert.deepEqual(await aggregate(query), modelAggregate(all, query, now));
      });

      test('pglite: retention waits for a sliced aggregate to end, so the aggregate sees one state of the log', { timeout: 120_000 }, async () => {
        const query = { base_ref: 'main', received_from: new Date(now - 4 * DAY).toISOString(), received_to: new Date(now + 60_000).toISOString() };
        const expected = modelAggregate(all, query, now);
        const held = await heldAggregate(query);
        let purged = false;
        const purge = purgeExpiredEvents(t.store, 3, new Date(now - DAY / 2)).then((removed) => ((purged = true), removed));
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(purged, false, 'retention deleted while the aggregate read');
        held.release();
        assert.deepEqual(await held.result, expected);
        const cutoff = now - DAY / 2 - 3 * DAY;
        assert.equal(await purge, all.filter((e) => e.receivedAt < cutoff).length);
        all = all.filter((e) => e.receivedAt >= cutoff);
        assert.deepEqual(await aggregate(query), modelAggregate(all, query, now));
        await countsMatchEvents();
      });
    }

    test('retention removes events and their counts alike, even from a slot it cuts', async () => {
      // A cutoff 3 days and 1234 ms ago falls inside a count slot and a pull slot.
      const removed = await purgeExpiredEvents(t.store, 3, new Date(now - 1234));
      const cutoff = now - 1234 - 3 * DAY;
      assert.equal(removed, all.filter((e) => e.receivedAt < cutoff).length);
      all = all.filter((e) => e.receivedAt >= cutoff);
      await countsMatchEvents();
      const query = { received_from: new Date(now - 4 * DAY).toISOString(), received_to: new Date(now).toISOString() };
      assert.deepEqual(await aggregate(query), modelAggregate(all, query, now));
    });

    test('events cannot be updated, which would leave the counts behind', async () => {
      await assert.rejects(sql`UPDATE events SET trigger = 'changed'`.execute(t.store.db), /append-only/);
      await countsMatchEvents();
    });
  });

  describe(`activity log aggregate facets at the 200th place (${backend})`, () => {
    let t: TestApp;
    const now = Date.now();
    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
    });
    after(() => t.close());

    test('ties are broken by value (numerically for numbers), and only 200 rows are listed', async () => {
      // 260 pull requests (1000, 997, … 223) and 260 triggers with one event each; then 2^63-1
      // gets two events and 229 a second one, so they lead and the rest tie at one.
      const events = Array.from({ length: 260 }, (_, i) => eventAt('action.label', now - 60_000 - i, { pull_request: BigInt(1000 - i * 3), trigger: `trigger ${String(i).padStart(3, '0')}` }));
      for (const pull of [9223372036854775807n, 229n, 9223372036854775807n]) events.push(eventAt('action.comment', now - 1000, { pull_request: pull, trigger: 'trigger 259' }));
      const all = await ingestEvents(t, REPO, events, now);
      const result = (await t.request('GET', `/v1/repos/${REPO}/logs/aggregate`)).json;
      assert.equal(result.by_pull_request.length, 200);
      assert.deepEqual(result.by_pull_request.slice(0, 4).map((f: Facet) => f.value), ['229', '9223372036854775807', '223', '226']);
      assert.deepEqual(result.by_pull_request, modelAggregate(all, {}, now).by_pull_request);
      assert.equal(result.by_trigger.length, 200);
      assert.deepEqual(result.by_trigger[0], { value: 'trigger 259', count: 4 });
      assert.deepEqual(result.by_trigger, modelAggregate(all, {}, now).by_trigger);
    });
  });

  describe(`activity log aggregate from the columnar copy (${backend})`, () => {
    // The copy answers only when it can do so exactly (src/storage/columnar/event-copy.ts); these
    // tests drive it to each of its limits and check both who answered and that the answer is the model's.
    let t: TestApp;
    let all: ModelEvent[];
    let repositoryId: string;
    const now = Date.now();
    const window = { received_from: new Date(now - 5 * DAY).toISOString(), received_to: new Date(now + 60_000).toISOString() };
    const copy = () => t.store.eventAggregates.copy!;
    /** The aggregate, checked against the model, and whether the copy answered it. */
    const checked = async (query: ModelQuery) => {
      const before = { ...copy().counts };
      const response = await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf(query)}`);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(response.json, modelAggregate(all, query, now), searchOf(query));
      const answered = copy().counts.answered - before.answered;
      assert.equal(answered + copy().counts.declined - before.declined, 1);
      return answered === 1 ? 'copy' : 'storage';
    };
    const queries: ModelQuery[] = [window, { ...window, base_ref: 'main', not_outcome: ['success'] }, { ...window, batch_pull: [7n], event_type: ['action.queue.batch_bisection_start', 'action.queue.checks_end'] }];

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      repositoryId = (await t.store.repositories.identify('acme', 'widgets'))!.id;
      all = await ingestEvents(t, REPO, generateEvents({ seed: 51, count: 1200, start: new Date(now - 4 * DAY), end: new Date(now - 1000), pullRange: [1n, 90n] }), now);
    });
    after(() => t.close());

    test('a repository further behind than a request copies is answered by storage while a build copies it, then by the copy', async () => {
      copy().inlineRows = 100;
      assert.equal(await checked(queries[0]!), 'storage');
      // The build runs meanwhile (and may already be done); every answer is the model's either way.
      for (const query of queries) await checked(query);
      await copy().warm([repositoryId]);
      for (const query of queries) assert.equal(await checked(query), 'copy');
      // A few more events: the next request copies them itself.
      all = [...all, ...(await ingestEvents(t, REPO, generateEvents({ seed: 52, count: 60, start: new Date(now - 2 * DAY), end: new Date(now - 1000), pullRange: [1n, 90n] }), now))];
      for (const query of queries) assert.equal(await checked(query), 'copy');
      copy().inlineRows = 20_000;
    });

    test('after retention the copy leaves out what was removed; an event written later with an older time sends aggregates to storage until it is removed too', async () => {
      const purgeAt = (cutoff: number) => purgeExpiredEvents(t.store, 3, new Date(cutoff + 3 * DAY));
      const cutoff = now - 2 * DAY - 1234;
      assert.equal(await purgeAt(cutoff), all.filter((e) => e.receivedAt < cutoff).length);
      all = all.filter((e) => e.receivedAt >= cutoff);
      for (const query of queries) assert.equal(await checked(query), 'copy');
      assert.equal(await copy().copiedRows(repositoryId), all.length, 'the removed rows were deleted from the copy');
      // Older than anything retention removed: storage holds it; the copy would take it for removed.
      all = [...all, ...(await ingestEvents(t, REPO, [eventAt('action.queue.checks_end', now - 4 * DAY - 60_000, { base_ref: 'main' })], now))];
      for (const query of queries) assert.equal(await checked(query), 'storage');
      const later = cutoff + 1000;
      assert.equal(await purgeAt(later), all.filter((e) => e.receivedAt < later).length);
      all = all.filter((e) => e.receivedAt >= later);
      for (const query of queries) assert.equal(await checked(query), 'copy');
    });

    if (backend === 'postgres') {
      test('postgres: while several writers add events at once, each aggregate the copy answers matches one state their commits passed through', { timeout: 240_000 }, async () => {
        // Four writers, three batches each, one after the other within a writer: every state the
        // log passes through is a prefix of each writer's batches, 4^4 candidates in all.
        const writers = Array.from({ length: 4 }, (_, w) => Array.from({ length: 3 }, (_, b) => generateEvents({ seed: 60 + w * 3 + b, count: 80, start: new Date(now - 2 * DAY), end: new Date(now - 1000), pullRange: [1n, 90n] })));
        const written: ModelEvent[][][] = writers.map(() => []);
        let writing = true;
        const writes = Promise.all(writers.map(async (batches, w) => {
          for (const batch of batches) written[w]!.push(await ingestEvents(t, REPO, batch, now));
        })).finally(() => (writing = false));
        const seen: unknown[] = [];
        const answeredBefore = copy().counts.answered;
        while (writing || seen.length < 3) seen.push((await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf(window)}`)).json);
        await writes;
        assert.ok(copy().counts.answered - answeredBefore >= seen.length - 1, 'the copy answered the aggregates');
        const states: ModelEvent[][] = [];
        for (let code = 0; code < 4 ** 4; code++) {
          const prefixes = written.map((batches, w) => batches.slice(0, Math.floor(code / 4 ** w) % 4).flat());
          states.push([...all, ...prefixes.flat()]);
        }
        const expected = states.map((state) => JSON.stringify(modelAggregate(state, window, now)));
        for (const result of seen) assert.ok(expected.includes(JSON.stringify(result)), 'an aggregate read during concurrent writes matches no state of the log');
        all = states.at(-1)!;
        assert.equal(await checked(window), 'copy');
      });

      test('postgres: a writer whose transaction drew lower ids and commits last is not skipped by the copy', { timeout: 120_000 }, async () => {
        // The first writer draws its ids and holds its transaction open; a second writer comes
        // after it. Were the second to commit first, an aggregate between the two would copy past
        // the first writer's ids before they were visible, and never count them. The second waits
        // instead: here on the position row the first writer's trigger holds; in general (the
        // second's statement could reach that row first) on the lock per repository both take
        // before drawing ids.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let drawn!: () => void;
        const hasDrawn = new Promise<void>((resolve) => (drawn = resolve));
        const firstEvents = [eventAt('action.queue.checks_end', now - 3000, { pull_request: 5n, base_ref: 'main' })];
        const first = t.store.db.transaction().execute(async (trx) => {
          const validation = validateIngestEvents(structuredClone(firstEvents), new Date(now));
          assert.ok(validation.ok);
          const ids = await t.store.events.insertBatch(repositoryId, validation.events, trx);
          drawn();
          await released;
          return ids;
        });
        await hasDrawn;
        const second = ingestEvents(t, REPO, [eventAt('action.label', now - 2000, { pull_request: 6n })], now);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(await checked(window), 'copy');
        release();
        const [ids, secondWritten] = await Promise.all([first, second]);
        all = [...all, ...modelEvents(REPO, firstEvents, ids, now), ...secondWritten];
        assert.equal(await checked(window), 'copy');
      });

      test('postgres: two processes sharing one database each answer from their own copy', async () => {
        const { url, drop } = await privateSchemaUrl();
        const [first, second] = [await openStore({ databaseUrl: url, dataDir: 'unused' }), await openStore({ databaseUrl: url, dataDir: 'unused' })];
        const apps = [await startTestApp(backend, first), await startTestApp(backend, second)];
        try {
          assert.equal((await apps[0]!.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
          let shared: ModelEvent[] = [];
          for (let round = 0; round < 3; round++) {
            shared = [...shared, ...(await ingestEvents(apps[round % 2]!, REPO, generateEvents({ seed: 70 + round, count: 200, start: new Date(now - 2 * DAY), end: new Date(now - 1000), pullRange: [1n, 90n] }), now))];
            for (const app of apps) {
              const response = await app.request('GET', `/v1/repos/${REPO}/logs/aggregate?${searchOf(window)}`);
              assert.deepEqual(response.json, modelAggregate(shared, window, now));
            }
          }
          assert.equal(first.eventAggregates.copy!.counts.answered, 3);
          assert.equal(second.eventAggregates.copy!.counts.answered, 3);
        } finally {
          for (const app of apps) await app.close();
          await first.close();
          await second.close();
          await drop();
        }
      });
    }

    // Last in this group: the copy stays off for the rest of the process.
    test('when DuckDB fails, the copy turns itself off and storage answers every aggregate after', async () => {
      assert.equal(await checked(window), 'copy');
      // The copy's table gone under it: its next statement fails inside DuckDB.
      const { connection } = await copy()['open']();
      await connection.run('DROP TABLE events');
      for (const query of [...queries, window]) assert.equal(await checked(query), 'storage');
      assert.equal(copy().usable, false);
    });
  });

  if (backend === 'postgres') {
    test('postgres: an aggregate past the statement time limit answers 503 storage_timeout, not "unreachable"', async () => {
      const { url, drop } = await privateSchemaUrl();
      // Storage's own answer: the copy would answer this empty log without reading events.
      const store = await openStore({ databaseUrl: url, dataDir: 'unused', statementTimeoutMs: 1500, columnarCopy: false });
      const t = await startTestApp(backend, store);
      const locker = new pg.Client({ connectionString: url });
      try {
        assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
        await locker.connect();
        // The events held by another session: the aggregate waits for them, and waiting counts.
        await locker.query('BEGIN; LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
        const stopped = await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?outcome=failure`);
        assert.equal(stopped.status, 503, stopped.text);
        assert.equal(stopped.json.detail, 'The query ran longer than the storage time limit and was stopped; narrow the window or the filters, or retry later.');
        assert.ok(stopped.headers.get('retry-after'));
        await locker.query('ROLLBACK');
        assert.equal((await t.request('GET', `/v1/repos/${REPO}/logs/aggregate?outcome=failure`)).status, 200);
      } finally {
        await locker.end().catch(() => undefined);
        await t.close();
        await store.close();
        await drop();
      }
    });
  }
}
