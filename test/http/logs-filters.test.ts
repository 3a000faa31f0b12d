// Activity log filters through HTTP (spec §4.4, DESIGN.md §8): each filter and combinations of
// them, walked page by page through the Link header, against an independent model (plain filtering
// of what the test ingested). Another repository's events and events outside the window never show.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EventType, IngestEventInput } from '../../src/domain/events/index.ts';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { eventAt, expectedEvents, modelEvents, searchOf, type ModelEvent, type ModelQuery } from '../support/activity-log-model.ts';
import { ingestEvents, walkNext } from '../support/activity-log-client.ts';
import { exampleEvent, generateEvents } from '../fixtures/event-fixtures.ts';

const H = 3_600_000;
const REPO = 'acme/widgets';
const OTHER = 'acme/gadgets';
const MAX = 9223372036854775807n;

/** Checks and bisection events of one batch, with the number each checks event records. */
function batchEvents(type: EventType, when: number, batchId: string, number?: bigint): IngestEventInput {
  const example = exampleEvent(type);
  const speculative = number === undefined ? {} : { speculative_check_pull_request: { ...(example.metadata.speculative_check_pull_request as object), number } };
  return eventAt(type, when, {}, { batch_id: batchId, train_car_id: batchId, ...speculative });
}

/** Events the generator would not make: batches straddling the window, renumbered retries, edge values. */
function craftedEvents(now: number): IngestEventInput[] {
  const early = randomUUID();
  const renumbered = randomUUID();
  return [
    // A batch checked before the default window, bisected inside it.
    batchEvents('action.queue.checks_start', now - 30 * H, early, 777001n),
    batchEvents('action.queue.checks_end', now - 29 * H, early, 777001n),
    batchEvents('action.queue.batch_bisection_start', now - 2 * H, early),
    batchEvents('action.queue.batch_bisection_end', now - 1 * H, early),
    // One batch whose draft number changed on a retry.
    batchEvents('action.queue.checks_start', now - 5 * H, renumbered, 777002n),
    batchEvents('action.queue.checks_end', now - 4 * H, renumbered, 777003n),
    batchEvents('action.queue.batch_bisection_start', now - 3 * H, renumbered),
    eventAt('action.label', now - 6 * H, { pull_request: MAX, base_ref: 'release/2024.10' }),
    eventAt('action.comment', now - 6 * H, { pull_request: 0n, trigger: 'Rule: say hello' }),
  ];
}

function mostFrequent<T>(values: T[], count: number): T[] {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, count).map(([value]) => value);
}

/** Filter queries built from the data, so every one of them selects something worth checking. */
function queries(model: ModelEvent[], now: number): [string, ModelQuery][] {
  const recent = model.filter((e) => e.repository === REPO && e.receivedAt >= now - 24 * H);
  const pulls = mostFrequent(recent.flatMap((e) => (e.pullRequest === null ? [] : [e.pullRequest])), 3);
  const drafts = mostFrequent(recent.flatMap((e) => (e.batchPull === null ? [] : [e.batchPull])), 2);
  const from = new Date(now - 20 * H);
  return [
    ['no filter', {}],
    ['one pull request', { pull_request: pulls.slice(0, 1) }],
    ['several pull requests, one repeated', { pull_request: [...pulls, pulls[0]!] }],
    ['the largest and smallest pull request numbers', { pull_request: [MAX, 0n] }],
    ['not_pull_request keeps events without one', { not_pull_request: pulls.slice(0, 2) }],
    ['base_ref', { base_ref: 'develop' }],
    ['batch_pull', { batch_pull: drafts.slice(0, 1) }],
    ['batch_pull, several', { batch_pull: [...drafts, 777001n] }],
    ['batch_pull of a batch checked before the window', { batch_pull: [777001n] }],
    ['batch_pull, first number of a renumbered batch', { batch_pull: [777002n] }],
    ['batch_pull, second number of a renumbered batch', { batch_pull: [777003n] }],
    ['not_batch_pull', { not_batch_pull: [...drafts, 777002n] }],
    ['event_type', { event_type: ['action.queue.checks_start'] }],
    ['event_type, several', { event_type: ['action.label', 'action.comment', 'test.quarantined'] }],
    ['not_event_type', { not_event_type: ['action.queue.enter', 'action.queue.leave'] }],
    ['outcome', { outcome: ['failure'] }],
    ['outcome, several', { outcome: ['success', 'pending'] }],
    ['not_outcome', { not_outcome: ['neutral'] }],
    ['trigger, exact match', { trigger: ['merge queue'] }],
    ['trigger, several', { trigger: ['ci insights', 'Rule: automatic merge', 'Rule: say hello'] }],
    ['trigger, a prefix matches nothing', { trigger: ['merge'] }],
    ['not_trigger', { not_trigger: ['merge queue', 'ci insights'] }],
    ['type, outcome and base_ref', { event_type: ['action.queue.checks_end', 'action.queue.leave'], outcome: ['failure'], base_ref: 'main' }],
    ['exclusions together', { not_pull_request: pulls.slice(0, 1), not_event_type: ['action.queue.enter'], not_outcome: ['pending'], not_trigger: ['api'] }],
    ['batch_pull and outcome', { batch_pull: [...drafts, 777001n], outcome: ['pending'] }],
    ['pull requests with exclusions', { pull_request: pulls, not_outcome: ['success'], not_event_type: ['action.queue.change'] }],
    ['an explicit window with an offset', { received_from: from.toISOString().replace('Z', '+00:00'), received_to: new Date(now - 8 * H).toISOString() }],
    ['a window of older days', { received_from: new Date(now - 4 * 24 * H).toISOString(), received_to: new Date(now - 24 * H).toISOString() }],
    ['only received_to: one day before it', { received_to: new Date(now - 12 * H).toISOString(), not_trigger: ['merge queue'] }],
    ['only received_from', { received_from: new Date(now - 2 * H).toISOString() }],
  ];
}

// The data is generated once (deterministic but for the clock), so the queries, which pick their
// values from it, can each be a test of their own.
const now = Date.now();
const recent = generateEvents({ seed: 11, count: 700, start: new Date(now - 23 * H), end: new Date(now - 10 * 60_000) });
const older = generateEvents({ seed: 12, count: 150, start: new Date(now - 4 * 24 * H), end: new Date(now - 25 * H) });
const elsewhere = generateEvents({ seed: 13, count: 200, start: new Date(now - 23 * H), end: new Date(now - 10 * 60_000) });
const widgets = [...recent, ...older, ...craftedEvents(now)];
const QUERIES = queries(modelEvents(REPO, widgets, widgets.map(() => 0), now), now);

for (const backend of await backends()) {
  describe(`activity log filters (${backend})`, () => {
    let t: TestApp;
    let model: ModelEvent[];

    before(async () => {
      t = await startTestApp(backend);
      for (const repository of [REPO, OTHER]) assert.equal((await t.request('PUT', `/v1/admin/repos/${repository}`)).status, 201);
      model = [...(await ingestEvents(t, REPO, widgets, now)), ...(await ingestEvents(t, OTHER, elsewhere, now))];
      // PGlite reads pages in slices of the window: an hour each here, so pages span many slices.
      if (backend === 'pglite') t.store.eventLog.slicing = { targetMs: 0, firstMs: H, narrowestMs: H };
    });
    after(() => t.close());

    test('the data exercises the filters (a guard on the test itself)', () => {
      const mine = expectedEvents(model, REPO, {}, now);
      assert.ok(mine.length > 500, `${mine.length} events in the default window`);
      assert.ok(mine.some((e) => e.pullRequest === null) && mine.some((e) => e.type === 'action.queue.batch_bisection_end'));
      assert.ok(expectedEvents(model, OTHER, {}, now).length > 100);
    });

    // The model's window ends at the test's `now`; the service's own now is a little later, which
    // changes nothing, since every event was written with an earlier received_at.
    for (const [name, query] of QUERIES) {
      test(`${name}: exactly the model's events, in order, across pages`, async () => {
        const expected = expectedEvents(model, REPO, query, now).map((e) => String(e.id));
        for (const perPage of expected.length > 150 ? [100] : [7, 100]) {
          const pages = await walkNext(t, `/v1/repos/${REPO}/logs?${searchOf(query, { per_page: String(perPage) })}`);
          assert.deepEqual(pages.flatMap((p) => p.ids), expected, `per_page ${perPage}`);
          pages.forEach((page, index) => {
            assert.equal(page.response.json.per_page, perPage);
            assert.equal(page.ids.length, index < pages.length - 1 ? perPage : expected.length - perPage * index, `page ${index} is full unless last`);
          });
        }
      });
    }

    test('a filter that matches nothing is an empty page without links', async () => {
      const response = await t.request('GET', `/v1/repos/${REPO}/logs?trigger=nobody&per_page=5`);
      assert.equal(response.status, 200);
      assert.deepEqual(response.json, { size: 0, per_page: 5, events: [] });
      assert.equal(response.headers.get('link'), null);
    });

    test('the window is [received_from, received_to): an event at from is in, one at to is out', async () => {
      const from = now - 7 * H - 123;
      const to = now - 7 * H + 877;
      const edges = [eventAt('action.close', from, { trigger: 'edge' }), eventAt('action.close', to, { trigger: 'edge' }), eventAt('action.close', to - 1, { trigger: 'edge' })];
      const ids = (await t.request('POST', `/v1/repos/${REPO}/logs`, { body: { events: edges } })).json.ids;
      const search = `trigger=edge&received_from=${new Date(from).toISOString()}&received_to=${new Date(to).toISOString()}`;
      const response = await t.request('GET', `/v1/repos/${REPO}/logs?${search}`);
      assert.deepEqual(response.json.events.map((e: { id: number }) => e.id), [ids[2], ids[0]]);
    });
  });
}
