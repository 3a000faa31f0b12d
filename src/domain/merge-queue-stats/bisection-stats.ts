// Bisections of failed batches (batch_bisection_start / _end, spec §6.3), each written once per
// pull request of the batch split: a split counts once (its batch_id and depth), a completion
// once (its batch_id), each in the interval it happened.
import { distinctBy } from './stats-groups.ts';
import { groupSeries } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { flagOf, numberOf, textOf, type StatsRow } from './stats-rows.ts';

export type BisectionStartRow = StatsRow<'batch_id' | 'bisection_depth' | 'batch_size_before_split'>;
export type BisectionEndRow = StatsRow<'batch_id' | 'culprit_found' | 'max_failure_resolution_reached'>;

const batchOf = (row: StatsRow<'batch_id'>) => textOf(row.batch_id) ?? `event ${row.id}`;

export function bisectionsStarted(rows: readonly BisectionStartRow[], intervals: Intervals) {
  const items = (own: BisectionStartRow[]) => distinctBy(own, (row) => `${batchOf(row)} ${textOf(row.bisection_depth) ?? numberOf(row.bisection_depth)}`).map((row) => ({
    at: row.at,
    value: { depth: numberOf(row.bisection_depth) ?? 0, size: numberOf(row.batch_size_before_split) ?? 0 },
  }));
  return groupSeries(rows, intervals, items, (splits) => {
    if (splits.length === 0) return undefined;
    const sum = (pick: (s: { depth: number; size: number }) => number) => splits.reduce((total, split) => total + pick(split), 0);
    return {
      bisection_count: splits.length,
      avg_depth: sum((s) => s.depth) / splits.length,
      max_depth: Math.max(...splits.map((s) => s.depth)),
      avg_batch_size_before_split: sum((s) => s.size) / splits.length,
    };
  });
}

export function bisectionsCompleted(rows: readonly BisectionEndRow[], intervals: Intervals) {
  const items = (own: BisectionEndRow[]) => distinctBy(own, batchOf).map((row) => ({
    at: row.at,
    value: { culprit: flagOf(row.culprit_found) === true, maxReached: flagOf(row.max_failure_resolution_reached) === true },
  }));
  return groupSeries(rows, intervals, items, (ends) =>
    ends.length === 0 ? undefined : { bisection_completed_count: ends.length, culprit_found_count: ends.filter((e) => e.culprit).length, max_failure_reached_count: ends.filter((e) => e.maxReached).length },
  );
}
