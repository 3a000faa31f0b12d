// Counts by interval (spec §6.3 events): pull requests that entered (action.queue.enter), that
// merged (action.queue.merged), and batches saved by skip_intermediate_results: a batch whose
// checks ended INTERMEDIATE_RESULTS_SKIPPED or whose pull requests left
// PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED, counted once, when first seen. A count of nothing is 0:
// every interval of the window is listed for a group seen in it.
import type { Intervals } from './stats-intervals.ts';
import { distinctBy } from './stats-groups.ts';
import { groupSeries, type GroupSeries } from './interval-series.ts';
import { textOf, type StatsRow } from './stats-rows.ts';

export function countSeries<K extends string>(rows: readonly StatsRow[], intervals: Intervals, name: K): GroupSeries<Record<K, number>>[] {
  return groupSeries(rows, intervals, (own) => own.map((row) => ({ at: row.at, value: 1 })), (values) => ({ [name]: values.length }) as Record<K, number>);
}

/**
 * Batches merged on a later batch's result: from checks_end events (abort_code) and leave events
 * (dequeue_code) in time order, each batch once.
 */
export function batchesSaved(rows: readonly StatsRow<'abort_code' | 'dequeue_code' | 'batch_id'>[], intervals: Intervals): GroupSeries<{ batches_saved: number }>[] {
  const skipped = rows.filter((row) => row.abort_code === 'INTERMEDIATE_RESULTS_SKIPPED' || row.dequeue_code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED');
  const inOrder = [...skipped].sort((a, b) => a.at - b.at);
  return countSeries(distinctBy(inOrder, (row) => `${row.base_ref} ${row.queue_name} ${row.priority_rule_name} ${textOf(row.batch_id) ?? `event ${row.id}`}`), intervals, 'batches_saved');
}
