// The merge queue's statistics (the public `/repos/{o}/{r}/stats/*` reads, issue 26), each
// computed from the activity log's queue events: which events and fields a statistic reads, and
// which pure computation of src/domain/merge-queue-stats/ it goes through. Keyed by the
// statistic's public name, so a statistic added to the union does not compile until it is read.
import type { TimeWindow } from '../domain/activity-log/time-window.ts';
import type { EventType } from '../domain/events/event-type.ts';
import { bisectionsCompleted, bisectionsStarted } from '../domain/merge-queue-stats/bisection-stats.ts';
import { batchSizes, ciRuntimes } from '../domain/merge-queue-stats/batch-stats.ts';
import { checksOutcomeTotals } from '../domain/merge-queue-stats/checks-outcome-totals.ts';
import { checksRetries } from '../domain/merge-queue-stats/checks-retries.ts';
import { batchesSaved, countSeries } from '../domain/merge-queue-stats/count-stats.ts';
import { gaugeSeries } from '../domain/merge-queue-stats/gauge-stats.ts';
import { idleTimes } from '../domain/merge-queue-stats/idle-time.ts';
import { checksOutcomes, exitReasons, failureRates, queueTimes } from '../domain/merge-queue-stats/leave-stats.ts';
import { windowIntervals, type Intervals } from '../domain/merge-queue-stats/stats-intervals.ts';
import { textOf, timeOf, type StatsField, type StatsRow } from '../domain/merge-queue-stats/stats-rows.ts';
import { timeToMerge, timeToMergeWindow } from '../domain/merge-queue-stats/time-to-merge.ts';
import type { MergeQueueStatsQueries, RowOptions, StatsFilters } from '../storage/queries/merge-queue-stats.ts';

export type SeriesStat =
  | 'average_ci_runtime'
  | 'batch_bisection'
  | 'batch_size'
  | 'checks_retries'
  | 'failure_rate'
  | 'idle_queue_time'
  | 'merge_queue_checks_outcome'
  | 'queue_size'
  | 'queues_checks_outcome_count'
  | 'queues_entered_count'
  | 'queues_merged_count'
  | 'queues_pr_exit_reasons'
  | 'running_speculative_checks'
  | 'skip_intermediate_results'
  | 'total_queue_time';

const DAY_MS = 86_400_000;
/** How far before the window a gauge's last value is looked for. */
export const GAUGE_LOOKBACK_MS = 7 * DAY_MS;
/** How far before the window the checks of a stay that ended in it are looked for. */
export const STAY_LOOKBACK_MS = 31 * DAY_MS;

const LEAVE_FIELDS = ['merged', 'dequeue_code', 'queued_at', 'session_id'] as const;
const CHECKS_END_FIELDS = ['aborted', 'batch_id', 'session_id', 'checks_started_at', 'checks_ended_at', 'checks_conclusion', 'retry_attempt'] as const;

/** What one statistic reads with: its window, intervals and rows of the queue's events. */
interface Reader {
  window: TimeWindow;
  intervals: Intervals;
  now: number;
  rows<F extends StatsField>(type: EventType, fields: readonly F[], options?: RowOptions): Promise<StatsRow<F>[]>;
  lastBefore<F extends StatsField>(type: EventType, fields: readonly F[], lookbackMs: number, withPriority: boolean): Promise<StatsRow<F>[]>;
  /** The same rows over a window reaching `lookbackMs` further back. */
  rowsSince<F extends StatsField>(lookbackMs: number, type: EventType, fields: readonly F[], options?: RowOptions): Promise<StatsRow<F>[]>;
}

const SERIES: Record<SeriesStat, (r: Reader) => Promise<object>> = {
  average_ci_runtime: async (r) => ({ groups: ciRuntimes(await r.rows('action.queue.checks_end', CHECKS_END_FIELDS), r.intervals) }),
  batch_bisection: async (r) => ({
    started: bisectionsStarted(await r.rows('action.queue.batch_bisection_start', ['batch_id', 'bisection_depth', 'batch_size_before_split']), r.intervals),
    completed: bisectionsCompleted(await r.rows('action.queue.batch_bisection_end', ['batch_id', 'culprit_found', 'max_failure_resolution_reached']), r.intervals),
  }),
  batch_size: async (r) => ({ groups: batchSizes(await r.rows('action.queue.checks_start', ['batch_id', 'checks_started_at', 'batch_size']), r.intervals) }),
  checks_retries: async (r) => ({ groups: checksRetries(await r.rows('action.queue.checks_end', CHECKS_END_FIELDS), r.intervals) }),
  failure_rate: async (r) => ({ groups: failureRates(await r.rows('action.queue.leave', LEAVE_FIELDS), r.intervals) }),
  idle_queue_time: async (r) => {
    const leaves = await r.rows('action.queue.leave', [...LEAVE_FIELDS, 'seconds_waiting_for_schedule', 'seconds_waiting_for_freeze']);
    const sessions = [...new Set(leaves.flatMap((row) => textOf(row.session_id) ?? []))];
    // Back to the earliest of those stays' entries, at most STAY_LOOKBACK_MS.
    const entered = Math.min(...leaves.flatMap((row) => timeOf(row.queued_at) ?? []));
    const lookback = Math.min(STAY_LOOKBACK_MS, Math.max(0, r.window.from.getTime() - entered));
    const runs = await r.rowsSince(lookback, 'action.queue.checks_end', ['session_id', 'checks_started_at', 'checks_ended_at'], { sessions });
    return { groups: idleTimes(leaves, runs, r.intervals) };
  },
  merge_queue_checks_outcome: async (r) => ({ groups: checksOutcomeTotals(await r.rows('action.queue.leave', LEAVE_FIELDS)) }),
  queue_size: async (r) => {
    const [changes, before] = [await r.rows('action.queue.change', ['size']), await r.lastBefore('action.queue.change', ['size'], GAUGE_LOOKBACK_MS, true)];
    const series = gaugeSeries(changes, before, 'size', { ...r, withPriority: true });
    return { groups: series.map(({ group, stats }) => ({ ...group, stats: stats.map(({ avg, max, min, ...edges }) => ({ ...edges, avg_size: avg, max_size: max, min_size: min })) })) };
  },
  queues_checks_outcome_count: async (r) => ({ groups: checksOutcomes(await r.rows('action.queue.leave', LEAVE_FIELDS), r.intervals) }),
  queues_entered_count: async (r) => ({ groups: countSeries(await r.rows('action.queue.enter', []), r.intervals, 'entered') }),
  queues_merged_count: async (r) => ({ groups: countSeries(await r.rows('action.queue.merged', []), r.intervals, 'merged') }),
  queues_pr_exit_reasons: async (r) => ({ groups: exitReasons(await r.rows('action.queue.leave', LEAVE_FIELDS), r.intervals) }),
  running_speculative_checks: async (r) => {
    const [changes, before] = [await r.rows('action.queue.checks.change', ['running_checks']), await r.lastBefore('action.queue.checks.change', ['running_checks'], GAUGE_LOOKBACK_MS, false)];
    const series = gaugeSeries(changes, before, 'running_checks', { ...r, withPriority: false });
    return {
      groups: series.map(({ group, stats }) => ({
        base_ref: group.base_ref,
        queue_name: group.queue_name,
        stats: stats.map(({ avg, max, min, ...edges }) => ({ ...edges, avg_running_checks: avg, max_running_checks: max, min_running_checks: min })),
      })),
    };
  },
  skip_intermediate_results: async (r) => {
    const ended = await r.rows('action.queue.checks_end', ['abort_code', 'batch_id']);
    const left = await r.rows('action.queue.leave', ['dequeue_code', 'batch_id']);
    const rows = [...ended.map((row) => ({ ...row, dequeue_code: null })), ...left.map((row) => ({ ...row, abort_code: null }))];
    return { groups: batchesSaved(rows, r.intervals) };
  },
  total_queue_time: async (r) => ({ groups: queueTimes(await r.rows('action.queue.leave', LEAVE_FIELDS), r.intervals) }),
};

export class MergeQueueStats {
  constructor(
    private readonly queries: MergeQueueStatsQueries,
    private readonly now: () => number = Date.now,
  ) {}

  /** A statistic told by group (and interval) over the window, for the filters. */
  series(name: SeriesStat, repositoryId: string, window: TimeWindow, filters: StatsFilters): Promise<object> {
    const scope = { repositoryId, window, filters };
    const q = this.queries;
    return SERIES[name]({
      window,
      intervals: windowIntervals(window),
      now: this.now(),
      rows: (type, fields, options) => q.rows(scope, type, fields, options),
      lastBefore: (type, fields, lookbackMs, withPriority) => q.lastBefore(scope, type, fields, lookbackMs, withPriority),
      rowsSince: (lookbackMs, type, fields, options) => q.rows({ ...scope, window: { from: new Date(window.from.getTime() - lookbackMs), to: window.to } }, type, fields, options),
    });
  }

  async branches(repositoryId: string, window: TimeWindow): Promise<{ base_refs: string[] }> {
    return { base_refs: await this.queries.baseRefs(repositoryId, window) };
  }

  async queues(repositoryId: string, window: TimeWindow): Promise<{ queue_names: string[] }> {
    return { queue_names: await this.queries.queueNames(repositoryId, window) };
  }

  /** Time to merge per queue over the 7 days before `at` (default now), on one base branch or all. */
  async timeToMerge(repositoryId: string, at: Date | undefined, branch: string | undefined) {
    const scope = { repositoryId, window: timeToMergeWindow(at ?? new Date(this.now())), filters: { baseRefs: branch === undefined ? undefined : [branch] } };
    return timeToMerge(await this.queries.rows(scope, 'action.queue.merged', ['queued_at']), await this.queries.rows(scope, 'action.queue.enter', []));
  }
}
