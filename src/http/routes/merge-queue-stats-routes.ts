// One row per statistics read, keyed by its path under `/repos/{o}/{r}/stats/`: the public
// operation id, what it reads, its query, its answer and how the reference describes it.
import type { TSchema } from '@sinclair/typebox';
import type { SeriesStat } from '../../services/merge-queue-stats.ts';
import type { StatsQueryKind } from '../merge-queue-stats/stats-queries.ts';
import { BaseRefsResponse } from '../merge-queue/pull-shapes.ts';
import * as shapes from '../merge-queue-stats/stats-shapes.ts';

/** A statistics read, by its path: the statistics by group, and three lists. */
export type StatsRead = SeriesStat | 'branches' | 'queues' | 'time_to_merge';

export interface StatsRoute {
  operationId: string;
  query: StatsQueryKind;
  response: TSchema;
  summary: string;
  description: string;
  /** What a 200 holds. */
  answer: string;
  deprecated?: true;
}

const id = (name: string, path: string) => `${name}_repos__owner___repository__stats_${path}_get`;

const GROUPS = 'Told by base branch, queue and priority rule, and by interval: the step is the smallest of 15 s, 30 s, 2 min, 10 min, 20 min, 1 h, 4 h, 8 h and 1 day for which the window spans at most 200, aligned on the Unix epoch.';

const series = (path: SeriesStat, name: string, response: TSchema, summary: string, description: string, query: StatsQueryKind = 'filters'): StatsRoute => ({
  operationId: id(name, path),
  query,
  response,
  summary,
  description: `${description} ${GROUPS}`,
  answer: 'The figures per group and interval.',
});

export const STATS_ROUTES: Record<StatsRead, StatsRoute> = {
  average_ci_runtime: series('average_ci_runtime', 'get_average_ci_runtime', shapes.CIAverageRuntimeResponse, 'CI runtime of the batches', 'Seconds from checks started to checks concluded, per batch attempt whose checks concluded (not aborted), in the interval they concluded.'),
  batch_bisection: series('batch_bisection', 'get_stats_batch_bisection', shapes.BisectionResponse, 'Bisections of failed batches', 'Splits of failed batches (`started`: count, depth, size before the split) and bisections that ended (`completed`: culprits found, resolution attempts exhausted).'),
  batch_size: series('batch_size', 'get_stats_batch_size', shapes.BatchSizeResponse, 'Batch sizes', 'Pull requests per batch attempt whose checks started, in the interval they started.'),
  branches: { operationId: id('get_stats_branches', 'branches'), query: 'window', response: BaseRefsResponse, summary: 'Base branches with queue activity', description: 'The base branches of the merge-queue events in the window.', answer: 'The base branches, by name.' },
  checks_retries: series('checks_retries', 'get_queue_checks_retries', shapes.ChecksRetriesResponse, 'Checks retried', 'Per stay of a pull request in the queue: its retried check attempts (`max_checks_retries`), the highest retry, and whether a retry passed; in the interval of its last retry.'),
  failure_rate: series('failure_rate', 'get_queue_failure_rate', shapes.FailureRateResponse, 'Failure rate', 'Of the pull requests that left the queue in the interval, how many left without being merged.'),
  idle_queue_time: series('idle_queue_time', 'get_average_idle_queue_time', shapes.AverageIdleQueueTimeResponse, 'Where the time in queue went', 'Per pull request that left the queue, its stay split into checks running (`ci_runtime`), held by a freeze or a schedule, and the rest (`idle_capacity`: waiting for a batch, a slot or a batch ahead); means, 95th percentiles, maxima and sums, with a summary of the window.'),
  merge_queue_checks_outcome: {
    ...series('merge_queue_checks_outcome', 'get_checks_outcome', shapes.ChecksOutcomeResponse, 'How pull requests left the queue (deprecated)', 'Deprecated in the public API for `queues_checks_outcome_count`; answers with `Deprecation: true`. Per group, over the whole window: the stays that ended, by outcome (`SUCCESS` for a merge, else the dequeue code), every outcome listed.'),
    answer: 'The outcomes per group.',
    deprecated: true,
  },
  queue_size: series('queue_size', 'get_queue_size', shapes.QueueSizeResponse, 'Queue size', 'Pull requests queued, from the size each change of the queue recorded: time-weighted mean, least and most per interval. Before its first change in the window a queue holds its last size of the 7 days before; where that is not known, and after now, the interval is left out.'),
  queues: { operationId: id('get_stats_queues', 'queues'), query: 'window', response: shapes.QueueNamesResponse, summary: 'Queues with activity', description: 'The queue (queue rule) names of the merge-queue events in the window.', answer: 'The queue names, by name.' },
  queues_checks_outcome_count: series('queues_checks_outcome_count', 'get_checks_outcome_by_interval', shapes.ChecksOutcomeByIntervalResponse, 'How pull requests left the queue, by interval', 'The pull requests that left the queue, by outcome (`SUCCESS` for a merge, else the dequeue code); only outcomes counted are listed.'),
  queues_entered_count: series('queues_entered_count', 'get_queues_pull_requests_entered_count', shapes.EnteredCountResponse, 'Pull requests entered', 'Pull requests that entered the queue; every interval listed, 0 where none.'),
  queues_merged_count: series('queues_merged_count', 'get_queues_pull_requests_merged_count', shapes.MergedCountResponse, 'Pull requests merged', 'Pull requests the queue merged; every interval listed, 0 where none.'),
  queues_pr_exit_reasons: series('queues_pr_exit_reasons', 'get_pr_exit_reasons', shapes.PrExitReasonResponse, 'Why pull requests left the queue', 'Stays in the queue that ended, by dequeue code, each stay once (a pull request queued again counts again).'),
  running_speculative_checks: series('running_speculative_checks', 'get_total_running_checks', shapes.RunningChecksResponse, 'Checks running', 'Batches whose checks run at once, from each change the queue recorded: time-weighted mean, least and most per interval, per base branch. Known as for the queue size.', 'filtersWithoutPriority'),
  skip_intermediate_results: series('skip_intermediate_results', 'get_skip_intermediate_results', shapes.SkipIntermediateResultsResponse, 'Batches saved by skip_intermediate_results', 'Batches merged because a later batch holding them passed, without waiting for their own result: each counted once; every interval listed, 0 where none.'),
  time_to_merge: {
    operationId: id('get_time_to_merge_stats_for_all_queues_and_partitions_endpoint', 'time_to_merge'),
    query: 'timeToMerge',
    response: shapes.TimeToMergeResponse,
    summary: 'Time to merge per queue (deprecated)',
    description: 'Deprecated in the public API; answers with `Deprecation: true`. Mean and median seconds from entering the queue to merged, per queue, over the merges of the 7 days before `at`; null for a queue entered but with no merge then.',
    answer: 'One partition with its queues.',
    deprecated: true,
  },
  total_queue_time: series('total_queue_time', 'get_total_queue_time', shapes.QueueAverageTimeResponse, 'Time in queue', 'Seconds from entering to leaving the queue, per pull request that left, in the interval it left.'),
};
