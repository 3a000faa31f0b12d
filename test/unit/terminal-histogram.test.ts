// The terminal histogram of `switchyard logs aggregate`: bars to the eighth, buckets merged to fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bar, groupBuckets, renderHistogram } from '../../src/cli/terminal-histogram.ts';

const bucket = (minute: number, count: number) => ({
  start: new Date(Date.UTC(2026, 0, 2, 3, minute)).toISOString(),
  end: new Date(Date.UTC(2026, 0, 2, 3, minute + 10)).toISOString(),
  count,
});

test('bars are scaled to the largest, to the eighth, and any non-zero count shows', () => {
  assert.equal(bar(8, 8, 4), '████');
  assert.equal(bar(1, 8, 4), '▌');
  assert.equal(bar(3, 8, 4), '█▌');
  assert.equal(bar(1, 10_000, 4), '▏');
  assert.equal(bar(0, 8, 4), '');
});

test('buckets are added together in groups, spanning first start to last end', () => {
  const groups = groupBuckets([bucket(0, 1), bucket(10, 2), bucket(20, 3)], 2);
  assert.deepEqual(groups.map((g) => g.count), [3, 3]);
  assert.equal(groups[0]!.end, bucket(10, 0).end);
  assert.equal(groups[1]!.start, bucket(20, 0).start);
});

test('one line per group, labelled by its UTC start, counts aligned; empty buckets have no bar', () => {
  const text = renderHistogram([bucket(0, 4), bucket(10, 0), bucket(20, 12), bucket(30, 2)], { rows: 10, width: 6 });
  assert.equal(text, ['2026-01-02 03:00   4 ██', '2026-01-02 03:10   0', '2026-01-02 03:20  12 ██████', '2026-01-02 03:30   2 █'].join('\n') + '\n');
  const merged = renderHistogram([bucket(0, 4), bucket(10, 0), bucket(20, 12), bucket(30, 2)], { rows: 2, width: 4 });
  assert.equal(merged, '2026-01-02 03:00   4 █▏\n2026-01-02 03:20  14 ████\n');
  assert.equal(renderHistogram([], { rows: 5, width: 5 }), '');
});
