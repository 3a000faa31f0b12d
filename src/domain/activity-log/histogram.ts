// The aggregate's histogram (DESIGN.md §8): the step is the smallest of a fixed ladder for which
// the window spans at most 200 steps; buckets are aligned on the Unix epoch (start included, end
// excluded) and run from the bucket holding received_from to the one holding the last instant
// before received_to, zero-filled, so their counts add up to the total.
import { EARLIEST, LATEST } from '../date-time.ts';
import type { TimeWindow } from './time-window.ts';

export const INTERVAL_LADDER_SECONDS = [15, 30, 120, 600, 1200, 3600, 14400, 28800, 86400] as const;
export const MAX_BUCKETS_PER_WINDOW = 200;

export interface HistogramBucket {
  start: string;
  end: string;
  count: number;
}

export function intervalSizeSeconds(window: TimeWindow): number {
  const spanSeconds = (window.to.getTime() - window.from.getTime()) / 1000;
  const fits = INTERVAL_LADDER_SECONDS.find((step) => spanSeconds / step <= MAX_BUCKETS_PER_WINDOW);
  // The window is at most 93 days, so some step always fits; the largest is the fallback.
  return fits ?? 86400;
}

/** The epoch-aligned bucket index of an instant, for a step in seconds. */
export function bucketIndex(instantMs: number, stepSeconds: number): number {
  return Math.floor(instantMs / (stepSeconds * 1000));
}

// Bucket edges are written as RFC 3339 date-times, which have four-digit years: the first and
// last bucket of a window at the ends of that range are cut to it (found by test/fuzz).
const edge = (ms: number) => new Date(Math.min(LATEST, Math.max(EARLIEST, ms))).toISOString();

/** Every bucket of the window, with the counts found (by bucket index) and zero elsewhere. */
export function zeroFilledHistogram(window: TimeWindow, stepSeconds: number, counts: ReadonlyMap<number, number>): HistogramBucket[] {
  const stepMs = stepSeconds * 1000;
  const first = bucketIndex(window.from.getTime(), stepSeconds);
  // Instants are whole milliseconds: the last one in [from, to) is to - 1 ms.
  const last = bucketIndex(window.to.getTime() - 1, stepSeconds);
  const buckets: HistogramBucket[] = [];
  for (let index = first; index <= last; index++) {
    buckets.push({ start: edge(index * stepMs), end: edge((index + 1) * stepMs), count: counts.get(index) ?? 0 });
  }
  return buckets;
}
