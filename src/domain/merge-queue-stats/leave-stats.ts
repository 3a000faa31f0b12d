// What the stays that ended say (action.queue.leave, spec §6.3), told by the interval in which
// each pull request left: how many failed (left without being merged, as the public API counts
// them), how long they were queued, and why they left. Intervals without a leave are left out of
// rates and durations; reasons are listed only where counted.
import { MERGED_DEQUEUE_CODES } from '../events/shapes/queue-codes.ts';
import { distributionOf } from './distribution.ts';
import { distinctBy } from './stats-groups.ts';
import { groupSeries, type Edges, type GroupSeries } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { flagOf, secondsBetween, textOf, timeOf, type StatsRow } from './stats-rows.ts';

export type LeaveRow = StatsRow<'merged' | 'dequeue_code' | 'queued_at' | 'session_id'>;

const MERGED = new Set<string>(MERGED_DEQUEUE_CODES);

export function isMerged(row: LeaveRow): boolean {
  return flagOf(row.merged) ?? MERGED.has(textOf(row.dequeue_code) ?? '');
}

export function failureRates(rows: readonly LeaveRow[], intervals: Intervals) {
  return groupSeries(rows, intervals, (own) => own.map((row) => ({ at: row.at, value: isMerged(row) })), (merged) => {
    if (merged.length === 0) return undefined;
    const failures = merged.filter((m) => !m).length;
    return { total: merged.length, failures, failure_rate: failures / merged.length };
  });
}

/** Seconds from entering (queued_at) to leaving, per stay. */
export function queueTimes(rows: readonly LeaveRow[], intervals: Intervals) {
  const items = (own: LeaveRow[]) => own.flatMap((row) => {
    const seconds = secondsBetween(timeOf(row.queued_at), row.at);
    return seconds === undefined ? [] : [{ at: row.at, value: seconds }];
  });
  return groupSeries(rows, intervals, items, (seconds) => {
    const d = distributionOf(seconds);
    return d && { avg_queue_time: d.mean, max_queue_time: d.max, min_queue_time: d.min, sum_queue_time: d.sum, count_queue_time: d.count };
  });
}

/** Exits by dequeue code, each stay (session) once. */
export function exitReasons(rows: readonly LeaveRow[], intervals: Intervals): GroupSeries<{ exit_reason: string; count: number }>[] {
  const stays = distinctBy(rows, (row) => textOf(row.session_id) ?? `event ${row.id}`);
  return reasonSeries(stays, intervals, (row) => textOf(row.dequeue_code), 'exit_reason');
}

/** How stays ended, as the public QueueChecksOutcome names it: SUCCESS for a merge, else the code. */
export function checksOutcome(row: LeaveRow): string | undefined {
  return isMerged(row) ? 'SUCCESS' : textOf(row.dequeue_code);
}

export function checksOutcomes(rows: readonly LeaveRow[], intervals: Intervals): GroupSeries<{ check_outcome: string; count: number }>[] {
  return reasonSeries(rows, intervals, checksOutcome, 'check_outcome');
}

/** One stat per interval and reason counted there: by count, most first, then by reason. */
function reasonSeries<K extends string>(rows: readonly LeaveRow[], intervals: Intervals, reasonOf: (row: LeaveRow) => string | undefined, name: K): GroupSeries<Record<K, string> & { count: number }>[] {
  const series = groupSeries(rows, intervals, (own) => own.flatMap((row) => {
    const reason = reasonOf(row);
    return reason === undefined ? [] : [{ at: row.at, value: reason }];
  }), (reasons) => (reasons.length === 0 ? undefined : { reasons }));
  return series.map(({ stats, ...group }) => ({ ...group, stats: stats.flatMap((stat) => countReasons(stat, stat.reasons, name)) }));
}

function countReasons<K extends string>(edges: Edges, reasons: string[], name: K): (Edges & Record<K, string> & { count: number })[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([reason, count]) => ({ start: edges.start, end: edges.end, [name]: reason, count }) as Edges & Record<K, string> & { count: number });
}
