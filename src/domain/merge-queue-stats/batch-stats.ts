// What the batches' checks say (spec §6.3): checks_start and checks_end are written once per
// pull request of a batch, so a batch's attempt is counted once per group, known by its batch_id
// and the instant its checks started. CI runtime: attempts that concluded (not aborted), from
// checks_started_at to checks_ended_at, told by the interval in which they ended. Batch size:
// the pull requests of each attempt that started, told by the interval in which it started.
import { distributionOf } from './distribution.ts';
import { distinctBy } from './stats-groups.ts';
import { groupSeries } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { flagOf, numberOf, secondsBetween, textOf, timeOf, type StatsRow } from './stats-rows.ts';

export type ChecksEndRow = StatsRow<'aborted' | 'batch_id' | 'session_id' | 'checks_started_at' | 'checks_ended_at' | 'checks_conclusion' | 'retry_attempt'>;
export type ChecksStartRow = StatsRow<'batch_id' | 'checks_started_at' | 'batch_size'>;

/** One attempt of a batch: its id and when its checks started (a retry starts again). */
const attemptKey = (row: StatsRow<'batch_id' | 'checks_started_at'>) => `${textOf(row.batch_id) ?? `event ${row.id}`} ${textOf(row.checks_started_at) ?? ''}`;

export function ciRuntimes(rows: readonly ChecksEndRow[], intervals: Intervals) {
  const items = (own: ChecksEndRow[]) => distinctBy(own.filter((row) => flagOf(row.aborted) !== true), attemptKey).flatMap((row) => {
    const seconds = secondsBetween(timeOf(row.checks_started_at), timeOf(row.checks_ended_at));
    return seconds === undefined ? [] : [{ at: row.at, value: seconds }];
  });
  return groupSeries(rows, intervals, items, (seconds) => {
    const d = distributionOf(seconds);
    return d && { runtime: d.mean, sum_runtime: d.sum, count_runtime: d.count };
  });
}

export function batchSizes(rows: readonly ChecksStartRow[], intervals: Intervals) {
  const items = (own: ChecksStartRow[]) => distinctBy(own, attemptKey).flatMap((row) => {
    const size = numberOf(row.batch_size);
    return size === undefined || size < 1 ? [] : [{ at: row.at, value: size }];
  });
  return groupSeries(rows, intervals, items, (sizes) => {
    const d = distributionOf(sizes);
    return d && { avg_batch_size: d.mean, max_batch_size: d.max, min_batch_size: d.min, sum_batch_size: d.sum, count_batch_size: d.count };
  });
}
