// Time to merge (the public deprecated read): per queue, the mean and median of the seconds from
// entering the queue (queued_at) to merging, over the merges of the 7 days before `at`. Queues
// that pull requests entered in those days but none merged answer null.
import { distributionOf } from './distribution.ts';
import { secondsBetween, timeOf, type StatsRow } from './stats-rows.ts';
import type { TimeWindow } from '../activity-log/time-window.ts';

export const TIME_TO_MERGE_DAYS = 7;

export function timeToMergeWindow(at: Date): TimeWindow {
  return { from: new Date(at.getTime() - TIME_TO_MERGE_DAYS * 86_400_000), to: at };
}

export function timeToMerge(merged: readonly StatsRow<'queued_at'>[], entered: readonly StatsRow[]) {
  const seconds = new Map<string, number[]>();
  for (const row of entered) if (!seconds.has(row.queue_name)) seconds.set(row.queue_name, []);
  for (const row of merged) {
    const list = seconds.get(row.queue_name) ?? [];
    const duration = secondsBetween(timeOf(row.queued_at), row.at);
    if (duration !== undefined) list.push(duration);
    seconds.set(row.queue_name, list);
  }
  const queues = [...seconds.keys()].sort().map((queue_name) => {
    const d = distributionOf(seconds.get(queue_name)!);
    return { queue_name, time_to_merge: { mean: d ? d.mean : null, median: d ? d.percentile(0.5) : null } };
  });
  // One partition: Switchyard has no partitions.
  return [{ queues }];
}
