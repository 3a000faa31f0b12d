// Histogram arithmetic (DESIGN.md §8) and facet ranking, as pure functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketIndex, intervalSizeSeconds, zeroFilledHistogram } from '../../src/domain/activity-log/histogram.ts';
import { rankFacet } from '../../src/domain/activity-log/facets.ts';

const window = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });
const HOUR = 3600_000;

test('the step is the smallest of the ladder for which the window spans at most 200 steps', () => {
  const cases: [number, number][] = [
    [1000, 15], // one second
    [50 * 60_000, 15], // 3000 s / 15 = 200: fits exactly
    [50 * 60_000 + 1, 30],
    [100 * 60_000, 30],
    [24 * HOUR, 600],
    [7 * 24 * HOUR, 3600],
    [30 * 24 * HOUR, 14400],
    [60 * 24 * HOUR, 28800],
    [93 * 24 * HOUR, 86400],
  ];
  for (const [spanMs, step] of cases) {
    const from = Date.UTC(2024, 0, 1);
    assert.equal(intervalSizeSeconds({ from: new Date(from), to: new Date(from + spanMs) }), step, `${spanMs} ms`);
  }
});

test('buckets are aligned on the epoch, cover the window, and are zero-filled', () => {
  const w = window('2024-01-01T00:07:00Z', '2024-01-01T00:31:00Z');
  const buckets = zeroFilledHistogram(w, 600, new Map([[bucketIndex(Date.parse('2024-01-01T00:25:00Z'), 600), 4]]));
  assert.deepEqual(buckets, [
    { start: '2024-01-01T00:00:00.000Z', end: '2024-01-01T00:10:00.000Z', count: 0 },
    { start: '2024-01-01T00:10:00.000Z', end: '2024-01-01T00:20:00.000Z', count: 0 },
    { start: '2024-01-01T00:20:00.000Z', end: '2024-01-01T00:30:00.000Z', count: 4 },
    { start: '2024-01-01T00:30:00.000Z', end: '2024-01-01T00:40:00.000Z', count: 0 },
  ]);
});

test('a window ending exactly on a bucket boundary does not add an empty bucket after it', () => {
  const buckets = zeroFilledHistogram(window('2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z'), 600, new Map());
  assert.equal(buckets.length, 3);
  assert.equal(buckets.at(-1)!.end, '2024-01-01T00:30:00.000Z');
});

test('a one-day window off the step edges has 145 buckets of 600 s (144 cut in two at each end), and a 93-day window 94', () => {
  const from = Date.UTC(2024, 0, 1, 0, 3);
  assert.equal(zeroFilledHistogram({ from: new Date(from), to: new Date(from + 24 * HOUR) }, 600, new Map()).length, 145);
  assert.equal(zeroFilledHistogram({ from: new Date(from), to: new Date(from + 93 * 24 * HOUR) }, 86400, new Map()).length, 94);
});

test('facets rank by count, then value; numbers numerically; zero and null dropped; capped at 200', () => {
  assert.deepEqual(rankFacet('by_pull_request', [{ value: '10', count: 2 }, { value: '9', count: 2 }, { value: null, count: 9 }, { value: '3', count: 0 }, { value: '1', count: 5 }]), [
    { value: '1', count: 5 },
    { value: '9', count: 2 },
    { value: '10', count: 2 },
  ]);
  assert.deepEqual(rankFacet('by_trigger', [{ value: 'b', count: 1 }, { value: 'B', count: 1 }, { value: 'a', count: 1 }]).map((r) => r.value), ['B', 'a', 'b']);
  const many = Array.from({ length: 250 }, (_, i) => ({ value: String(i), count: 1 + (i % 3) }));
  const top = rankFacet('by_pull_request', many);
  assert.equal(top.length, 200);
  assert.deepEqual(top.slice(0, 2), [{ value: '2', count: 3 }, { value: '5', count: 3 }]);
  assert.equal(rankFacet('by_event_type', many).length, 250, 'type and outcome facets are not capped (they have at most 46 and 4 values)');
});

test('bucket edges stay within the years a date-time can write', () => {
  const buckets = zeroFilledHistogram(window('9999-12-31T00:00:00Z', '9999-12-31T23:59:59Z'), 600, new Map());
  assert.equal(buckets.at(-1)!.end, '9999-12-31T23:59:59.999Z');
  const early = zeroFilledHistogram(window('0000-01-01T00:00:00Z', '0000-01-01T01:00:00Z'), 30, new Map());
  assert.equal(early[0]!.start, '0000-01-01T00:00:00.000Z');
});
