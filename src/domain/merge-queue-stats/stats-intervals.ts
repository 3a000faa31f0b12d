// The intervals a statistic is told by: the activity log histogram's steps (DESIGN.md §8), the
// smallest of 15 s … 1 day for which the window spans at most 200, aligned on the Unix epoch,
// from the one holding start_at to the one holding the last instant before end_at.
import { EARLIEST, LATEST } from '../date-time.ts';
import { bucketIndex, intervalSizeSeconds } from '../activity-log/histogram.ts';
import type { TimeWindow } from '../activity-log/time-window.ts';

export interface Interval {
  index: number;
  /** Epoch milliseconds, start included, end excluded. */
  startMs: number;
  endMs: number;
  start: string;
  end: string;
}

export interface Intervals {
  stepSeconds: number;
  list: Interval[];
  /** The interval holding an instant (epoch ms), or undefined outside the window. */
  of(ms: number): Interval | undefined;
}

// Edges are RFC 3339 date-times, which have four-digit years: cut to that range.
const edge = (ms: number) => new Date(Math.min(LATEST, Math.max(EARLIEST, ms))).toISOString();

export function windowIntervals(window: TimeWindow): Intervals {
  const stepSeconds = intervalSizeSeconds(window);
  const stepMs = stepSeconds * 1000;
  const first = bucketIndex(window.from.getTime(), stepSeconds);
  const last = bucketIndex(window.to.getTime() - 1, stepSeconds);
  const list: Interval[] = [];
  for (let index = first; index <= last; index++) {
    list.push({ index, startMs: index * stepMs, endMs: (index + 1) * stepMs, start: edge(index * stepMs), end: edge((index + 1) * stepMs) });
  }
  const inWindow = (ms: number) => ms >= window.from.getTime() && ms < window.to.getTime();
  return { stepSeconds, list, of: (ms) => (inWindow(ms) ? list[bucketIndex(ms, stepSeconds) - first] : undefined) };
}

/** The edges of an interval as the answers write them. */
export const edges = (interval: Interval) => ({ start: interval.start, end: interval.end });
