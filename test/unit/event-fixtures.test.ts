// The fixture generator: deterministic, valid, spread over its window, and telling the stories
// the activity-log features are tested on (batch lifecycles, bisection, retries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, validateIngestEvents, type IngestEventInput } from '../../src/domain/events/index.ts';
import { generateEvents } from '../fixtures/event-fixtures.ts';

const start = new Date('2024-09-01T00:00:00.000Z');
const end = new Date('2024-09-08T00:00:00.000Z');
const events = generateEvents({ seed: 7, count: 5_000, start, end });

const byType = (type: string) => events.filter((event) => event.type === type);
const meta = (event: IngestEventInput) => event.metadata as Record<string, any>;

test('the same seed gives the same events; another seed other events', () => {
  const again = generateEvents({ seed: 7, count: 5_000, start, end });
  assert.deepEqual(again, events);
  assert.notDeepEqual(generateEvents({ seed: 8, count: 50, start, end }), events.slice(0, 50));
});

test('exactly count events, ordered by received_at within [start, end)', () => {
  assert.equal(events.length, 5_000);
  const times = events.map((event) => Date.parse(event.received_at!));
  assert.ok(times.every((time) => time >= start.getTime() && time < end.getTime()));
  assert.ok(times.every((time, index) => index === 0 || time >= times[index - 1]!));
  assert.ok(times[0]! - start.getTime() < 86_400_000 && end.getTime() - times.at(-1)! < 86_400_000, 'spread over the window');
});

test('every type occurs and every event is valid', () => {
  assert.deepEqual(EVENT_TYPES.filter((type) => byType(type).length === 0), []);
  const now = new Date(end.getTime() + 60_000);
  for (let index = 0; index < events.length; index += 1000) {
    const result = validateIngestEvents(structuredClone(events.slice(index, index + 1000)), now);
    assert.deepEqual(result.ok ? [] : result.issues.slice(0, 3), []);
  }
});

test('bisection events share the batch_id of a checks_start and a checks_end', () => {
  const starts = new Set(byType('action.queue.checks_start').map((event) => meta(event).batch_id));
  const ends = new Set(byType('action.queue.checks_end').map((event) => meta(event).batch_id));
  const bisections = [...byType('action.queue.batch_bisection_start'), ...byType('action.queue.batch_bisection_end')];
  assert.ok(bisections.length > 0);
  for (const event of bisections) assert.ok(starts.has(meta(event).batch_id) && ends.has(meta(event).batch_id));
});

test('a checks retry runs on a new batch with a new draft number, linked to the previous batch', () => {
  const starts = byType('action.queue.checks_start');
  const byBatch = new Map(starts.map((event) => [meta(event).batch_id, meta(event)]));
  const retries = starts.map(meta).filter((m) => m.previous_batch_id !== null && byBatch.has(m.previous_batch_id));
  assert.ok(retries.length > 0);
  const renumbered = retries.filter((m) => m.speculative_check_pull_request.number !== byBatch.get(m.previous_batch_id)?.speculative_check_pull_request.number);
  assert.ok(renumbered.length > 0);
  assert.ok(retries.every((m) => m.parent_batch_ids.includes(m.previous_batch_id)));
});

test('a queue stay reads enter, checks, then merged and leave, on one session', () => {
  const merged = byType('action.queue.merged')[0]!;
  const session = meta(merged).session_id;
  const stay = events.filter((event) => meta(event).session_id === session && event.pull_request === merged.pull_request).map((event) => event.type);
  assert.equal(stay[0], 'action.queue.enter');
  assert.ok(stay.includes('action.queue.checks_start') && stay.includes('action.queue.checks_end'));
  assert.deepEqual(stay.slice(-2), ['action.queue.merged', 'action.queue.leave']);
});

test('pull request numbers stay in the given range, as bigint beyond 2^53', () => {
  const high = 9223372036854775807n;
  const sample = generateEvents({ seed: 1, count: 300, start, end, pullRange: [high - 10n, high] });
  const pulls = sample.map((event) => event.pull_request).filter((pull) => pull !== null && pull !== undefined);
  assert.ok(pulls.length > 0);
  assert.ok(pulls.every((pull) => typeof pull === 'bigint' && pull >= high - 10n));
  const result = validateIngestEvents(sample.slice(0, 300), new Date(end.getTime() + 60_000));
  assert.deepEqual(result.ok ? [] : result.issues.slice(0, 3), []);
});
