// A group's values told by interval: each summarised by the statistic, which leaves an interval
// out by answering undefined (an average of nothing) or writes zeros (a count of nothing).
import type { Intervals } from './stats-intervals.ts';
import type { StatsGroup } from './stats-rows.ts';
import { byGroup } from './stats-groups.ts';

export interface Edges {
  start: string;
  end: string;
}

export type GroupSeries<S> = StatsGroup & { stats: (Edges & S)[] };

export interface Timed<T> {
  at: number;
  value: T;
}

export function intervalSeries<T, S extends object>(items: Iterable<Timed<T>>, intervals: Intervals, summarise: (values: T[]) => S | undefined): (Edges & S)[] {
  const values = new Map<number, T[]>();
  for (const item of items) {
    const interval = intervals.of(item.at);
    if (!interval) continue;
    const list = values.get(interval.index);
    if (list) list.push(item.value);
    else values.set(interval.index, [item.value]);
  }
  const series: (Edges & S)[] = [];
  for (const interval of intervals.list) {
    const summary = summarise(values.get(interval.index) ?? []);
    if (summary) series.push({ start: interval.start, end: interval.end, ...summary });
  }
  return series;
}

/** One series per group of `rows`, each from the group's items (`itemsOf` may drop or merge rows). */
export function groupSeries<R extends StatsGroup, T, S extends object>(
  rows: readonly R[],
  intervals: Intervals,
  itemsOf: (rows: R[]) => Iterable<Timed<T>>,
  summarise: (values: T[]) => S | undefined,
): GroupSeries<S>[] {
  return byGroup(rows).flatMap(({ group, rows: own }) => {
    const stats = intervalSeries(itemsOf(own), intervals, summarise);
    return stats.length > 0 ? [{ ...group, stats }] : [];
  });
}
