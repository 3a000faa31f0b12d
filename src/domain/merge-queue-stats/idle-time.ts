// Where a stay's time went (public IdleTimeInInterval), per pull request that left the queue,
// told by the interval in which it left:
//   ci_runtime    its batches' checks running (checks_end: checks_started_at → checks_ended_at,
//                 aborted attempts included: they ran), within the stay;
//   idle_schedule, idle_freeze  as the leave event counts them (seconds_waiting_for_*);
//   idle_capacity the rest of the stay: waiting for a batch, a check slot or a parent.
import { distributionOf, type Distribution } from './distribution.ts';
import { byGroup } from './stats-groups.ts';
import { intervalSeries } from './interval-series.ts';
import type { Intervals } from './stats-intervals.ts';
import { numberOf, secondsBetween, textOf, timeOf, type StatsRow } from './stats-rows.ts';

export type IdleLeaveRow = StatsRow<'queued_at' | 'session_id' | 'seconds_waiting_for_schedule' | 'seconds_waiting_for_freeze'>;
export type CiRunRow = StatsRow<'session_id' | 'checks_started_at' | 'checks_ended_at'>;

const PARTS = ['idle_capacity', 'idle_schedule', 'idle_freeze', 'ci_runtime'] as const;
type Part = (typeof PARTS)[number];
type Split = Record<Part, number>;

export function idleTimes(leaves: readonly IdleLeaveRow[], runs: readonly CiRunRow[], intervals: Intervals) {
  const runsOf = runsBySession(runs);
  return byGroup(leaves).flatMap(({ group, rows }) => {
    const splits = rows.flatMap((row) => {
      const split = splitStay(row, runsOf.get(textOf(row.session_id) ?? '') ?? []);
      return split ? [{ at: row.at, value: split }] : [];
    });
    const stats = intervalSeries(splits, intervals, intervalStats);
    return stats.length > 0 ? [{ ...group, stats, summary: summaryOf(splits.map((s) => s.value)) }] : [];
  });
}

function runsBySession(runs: readonly CiRunRow[]): Map<string, [number, number][]> {
  const bySession = new Map<string, [number, number][]>();
  for (const run of runs) {
    const session = textOf(run.session_id);
    const [start, end] = [timeOf(run.checks_started_at), timeOf(run.checks_ended_at)];
    if (session === undefined || start === undefined || end === undefined || end < start) continue;
    const list = bySession.get(session) ?? [];
    // One attempt is written once per pull request of its batch, but only one is of this stay.
    if (!list.some(([s, e]) => s === start && e === end)) list.push([start, end]);
    bySession.set(session, list);
  }
  return bySession;
}

function splitStay(row: IdleLeaveRow, runs: [number, number][]): Split | undefined {
  const queuedAt = timeOf(row.queued_at);
  const total = secondsBetween(queuedAt, row.at);
  if (total === undefined || queuedAt === undefined) return undefined;
  const within = (ms: number) => Math.min(row.at, Math.max(queuedAt, ms));
  const ci = Math.min(total, runs.reduce((sum, [start, end]) => sum + (within(end) - within(start)) / 1000, 0));
  const schedule = Math.min(total - ci, Math.max(0, numberOf(row.seconds_waiting_for_schedule) ?? 0));
  const freeze = Math.min(total - ci - schedule, Math.max(0, numberOf(row.seconds_waiting_for_freeze) ?? 0));
  return { ci_runtime: ci, idle_schedule: schedule, idle_freeze: freeze, idle_capacity: total - ci - schedule - freeze };
}

function distributions(splits: Split[]): Record<Part, Distribution> | undefined {
  if (splits.length === 0) return undefined;
  return Object.fromEntries(PARTS.map((part) => [part, distributionOf(splits.map((split) => split[part]))!])) as Record<Part, Distribution>;
}

function intervalStats(splits: Split[]) {
  const d = distributions(splits);
  if (!d) return undefined;
  const pick = (prefix: string, value: (x: Distribution) => number) => Object.fromEntries(PARTS.map((part) => [`${prefix}${part}`, value(d[part])]));
  return {
    ...(pick('', (x) => x.mean) as Split),
    ...(pick('p95_', (x) => x.percentile(0.95)) as Record<`p95_${Part}`, number>),
    ...(pick('max_', (x) => x.max) as Record<`max_${Part}`, number>),
    ...(pick('sum_', (x) => x.sum) as Record<`sum_${Part}`, number>),
    count_idle: splits.length,
  };
}

function summaryOf(splits: Split[]) {
  const d = distributions(splits)!;
  const pick = (prefix: string, value: (x: Distribution) => number) => Object.fromEntries(PARTS.map((part) => [`${prefix}${part}`, value(d[part])]));
  return {
    ...(pick('avg_', (x) => x.mean) as Record<`avg_${Part}`, number>),
    ...(pick('p95_', (x) => x.percentile(0.95)) as Record<`p95_${Part}`, number>),
    ...(pick('max_', (x) => x.max) as Record<`max_${Part}`, number>),
  };
}
