// The cover of a window by whole count slots and event edges: every instant exactly once, the
// widest slots first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverWindow } from '../../src/domain/activity-log/count-cover.ts';

const WIDTHS = [86400, 14400, 600];

/** Which part covers an instant (ms): a width, 'edge', or undefined; throws when two do. */
function coveredBy(cover: ReturnType<typeof coverWindow>, at: number): number | 'edge' | undefined {
  const hits = [
    ...cover.slots.filter((s) => at >= s.first * 1000 && at < s.end * 1000).map((s) => s.width),
    ...cover.edges.filter((e) => at >= e.from.getTime() && at < e.to.getTime()).map(() => 'edge' as const),
  ];
  assert.ok(hits.length <= 1, `instant ${at} covered ${hits.length} times`);
  return hits[0];
}

test('random windows: every instant inside is covered once, nothing outside', () => {
  let seed = 5;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 300; i++) {
    const from = Math.floor(1.7e12 + next() * 1e10);
    const to = from + 1 + Math.floor(next() * (i % 2 ? 93 * 86_400_000 : 5 * 3_600_000));
    const cover = coverWindow({ from: new Date(from), to: new Date(to) }, WIDTHS);
    const probes = [from, to - 1, from - 1, to, ...Array.from({ length: 200 }, () => from + Math.floor(next() * (to - from)))];
    for (const s of cover.slots) probes.push(s.first * 1000, s.end * 1000 - 1, s.end * 1000);
    for (const at of probes) assert.equal(coveredBy(cover, at) !== undefined, at >= from && at < to, `window ${from}..${to}, instant ${at}`);
    assert.ok(cover.slots.every((s) => s.first % s.width === 0 && s.end % s.width === 0 && s.first < s.end));
  }
});

test('a window of whole days is read from the day counts alone; a short one from the events alone', () => {
  const day = 86_400_000;
  assert.deepEqual(coverWindow({ from: new Date(10 * day), to: new Date(13 * day) }, WIDTHS), { slots: [{ width: 86400, first: 864000, end: 1123200 }], edges: [] });
  const short = { from: new Date(10 * day + 1000), to: new Date(10 * day + 500_000) };
  assert.deepEqual(coverWindow(short, WIDTHS), { slots: [], edges: [short] });
});

test('a window cut anywhere: days inside, then the 4-hour and 600-second slots the days leave, then the edges', () => {
  const day = 86_400_000;
  const from = 10 * day - 3 * 3_600_000 - 700_000; // 20:48:20 the day before
  const to = 12 * day + 5 * 3_600_000 + 1_234; // 05:00:01.234
  const cover = coverWindow({ from: new Date(from), to: new Date(to) }, WIDTHS);
  assert.deepEqual(cover.slots.map((s) => s.width), [86400, 14400, 600, 600]);
  assert.deepEqual(cover.edges.map((e) => [e.from.getTime(), e.to.getTime()]), [[from, from + 100_000], [to - 1_234, to]]);
});
