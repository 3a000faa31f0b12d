// The answers of the statistics reads, in the public document's shapes and names
// (reference/mergify-openapi-ci-insights-stats-subset.json): groups by base branch, queue and
// priority rule, each with its figures per interval. Durations are in seconds.
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { CHECKS_OUTCOMES } from '../../domain/merge-queue-stats/checks-outcome-totals.ts';
import { Nullable } from '../../domain/schema-primitives.ts';

const Edge = (description: string) => Type.String({ format: 'date-time', description });
const Num = (description: string) => Type.Number({ description });
const Int = (description: string) => Type.Integer({ minimum: 0, description });

/** One interval's figures: its edges (epoch-aligned, start included, end excluded) and `fields`. */
function InInterval(title: string, fields: TProperties): TObject {
  const properties: TProperties = { start: Edge('Start of the interval, included'), end: Edge('End of the interval, excluded'), ...fields };
  return Type.Object(properties, { title });
}

function Group(title: string, stats: TSchema, options: { priority?: boolean; extra?: TProperties } = {}): TObject {
  return Type.Object(
    {
      base_ref: Type.String({ description: 'Base branch' }),
      queue_name: Type.String({ description: 'Queue (queue rule) name' }),
      ...(options.priority === false ? {} : { priority_rule_name: Nullable(Type.String(), { description: 'Priority rule; null when the events do not name one' }) }),
      stats,
      ...options.extra,
    },
    { title },
  );
}

const Groups = (title: string, group: TSchema) => Type.Object({ groups: Type.Array(group) }, { title });

const series = (title: string, inInterval: TSchema) => Type.Array(inInterval, { description: `${title}, by interval` });

export const CIAverageRuntimeResponse = Groups(
  'CIAverageRuntimeResponse',
  Group('CIRuntimeGroupResponse', series('CI runtime', InInterval('RuntimeInInterval', { runtime: Num('Mean seconds from checks started to checks concluded, per batch attempt'), sum_runtime: Num('Their sum, in seconds'), count_runtime: Int('Batch attempts whose checks concluded') }))),
);

export const BisectionResponse = Type.Object(
  {
    started: Type.Array(Group('BisectionStartGroupResponse', series('Splits', InInterval('BisectionStartInInterval', {
      bisection_count: Int('Failed batches split'),
      avg_depth: Num('Mean bisection depth (1 for the first split of a batch)'),
      max_depth: Int('Deepest split'),
      avg_batch_size_before_split: Num('Mean pull requests in a batch before it was split'),
    })))),
    completed: Type.Array(Group('BisectionEndGroupResponse', series('Bisections completed', InInterval('BisectionEndInInterval', {
      bisection_completed_count: Int('Bisections that ended'),
      culprit_found_count: Int('Of those, how many found the culprit'),
      max_failure_reached_count: Int('Of those, how many stopped at the most resolution attempts'),
    })))),
  },
  { title: 'BisectionResponse' },
);

export const BatchSizeResponse = Groups(
  'BatchSizeResponse',
  Group('BatchSizeGroupResponse', series('Batch sizes', InInterval('BatchSizeInInterval', {
    avg_batch_size: Num('Mean pull requests per batch attempt started'),
    max_batch_size: Int('Largest'),
    min_batch_size: Int('Smallest'),
    sum_batch_size: Int('Pull requests checked, summed over the attempts'),
    count_batch_size: Int('Batch attempts started'),
  }))),
);

export const ChecksRetriesResponse = Groups(
  'ChecksRetriesResponse',
  Group('ChecksRetriesGroupResponse', series('Retries', InInterval('ChecksRetriesInInterval', {
    total_retries: Int('Retried check attempts of the pull requests'),
    sessions_with_retries: Int('Stays in the queue whose checks were retried'),
    recovered: Int('Of those, how many had a retry pass'),
    not_recovered: Int('Of those, how many had none pass'),
    recovery_rate: Num('recovered / sessions_with_retries'),
    avg_retry_depth: Num('Mean highest retry attempt per stay'),
    max_retry_depth: Int('Highest retry attempt'),
  }))),
);

export const FailureRateResponse = Groups(
  'FailureRateResponse',
  Group('FailureRateGroupResponse', series('Failure rates', InInterval('FailureRateInInterval', {
    total: Int('Pull requests that left the queue'),
    failures: Int('Of those, how many left without being merged'),
    failure_rate: Num('failures / total, from 0 to 1'),
  }))),
);

const IDLE_PARTS = { idle_capacity: 'waiting for a batch, a check slot or a batch ahead', idle_schedule: 'waiting for a schedule', idle_freeze: 'held by a scheduled freeze', ci_runtime: 'checks running' } as const;
const idleFields = (prefix: string, what: string, kind: (d: string) => TSchema) =>
  Object.fromEntries(Object.entries(IDLE_PARTS).map(([part, meaning]) => [`${prefix}${part}`, kind(`${what} seconds ${meaning}`)]));

export const AverageIdleQueueTimeResponse = Groups(
  'AverageIdleQueueTimeResponse',
  Group(
    'IdleTimeGroupResponse',
    series('Where the time in queue went', InInterval('IdleTimeInInterval', {
      ...idleFields('', 'Mean', Num),
      ...idleFields('p95_', '95th percentile of the', Num),
      ...idleFields('max_', 'Most', Num),
      ...idleFields('sum_', 'Sum of the', Num),
      count_idle: Int('Pull requests that left the queue'),
    })),
    { extra: { summary: Type.Object({ ...idleFields('avg_', 'Mean', Num), ...idleFields('p95_', '95th percentile of the', Num), ...idleFields('max_', 'Most', Num) }, { title: 'IdleTimeSummary' }) } },
  ),
);

export const QueueChecksOutcome = Type.Object(
  Object.fromEntries(CHECKS_OUTCOMES.map((outcome) => [outcome, Type.Integer({ minimum: 0, default: 0, description: outcome === 'SUCCESS' ? 'Merged' : `Left with ${outcome}` })])),
  { title: 'QueueChecksOutcome' },
);

export const ChecksOutcomeResponse = Groups('ChecksOutcomeResponse', Group('ChecksOutcomeGroupResponse', QueueChecksOutcome));

export const QueueSizeResponse = Groups(
  'QueueSizeResponse',
  Group('QueueSizeGroupResponse', series('Queue sizes', InInterval('QueueSizeInInterval', {
    avg_size: Num('Pull requests queued, time-weighted mean'),
    max_size: Int('Most queued at once'),
    min_size: Int('Fewest queued at once'),
  }))),
);

export const QueueNamesResponse = Type.Object({ queue_names: Type.Array(Type.String(), { description: 'Queues with queue events in the window, by name' }) }, { title: 'QueueNamesResponse' });

const ReasonCount = (title: string, name: string, description: string) => InInterval(title, { [name]: Type.String({ description }), count: Type.Integer({ minimum: 1, description: 'How many' }) });

export const ChecksOutcomeByIntervalResponse = Groups(
  'ChecksOutcomeByIntervalResponse',
  Group('ChecksOutcomeByIntervalGroupResponse', series('Outcomes', ReasonCount('CheckOutcomeInInterval', 'check_outcome', '`SUCCESS` for a merge, else the dequeue code'))),
);

export const EnteredCountResponse = Groups('EnteredCountResponse', Group('EnteredGroupResponse', series('Entries', InInterval('EnteredInInterval', { entered: Int('Pull requests that entered the queue') }))));

export const MergedCountResponse = Groups('MergedCountResponse', Group('MergedGroupResponse', series('Merges', InInterval('MergedInInterval', { merged: Int('Pull requests the queue merged') }))));

export const PrExitReasonResponse = Groups(
  'PrExitReasonResponse',
  Group('PrExitReasonGroupResponse', series('Exits', ReasonCount('PrExitReasonInInterval', 'exit_reason', 'The dequeue code of the stay (spec §6.4)'))),
);

export const RunningChecksResponse = Groups(
  'RunningChecksResponse',
  Group(
    'RunningChecksGroupResponse',
    series('Checks running', InInterval('RunningChecksInInterval', {
      avg_running_checks: Num('Batches with checks running, time-weighted mean'),
      max_running_checks: Int('Most at once'),
      min_running_checks: Int('Fewest at once'),
    })),
    { priority: false },
  ),
);

export const SkipIntermediateResultsResponse = Groups(
  'SkipIntermediateResultsResponse',
  Group('SkipIntermediateResultsGroupResponse', series('Batches saved', InInterval('SkipIntermediateResultsInInterval', { batches_saved: Int('Batches merged on a later batch passing, without their own result') }))),
);

export const TimeToMergeResponse = Type.Array(
  Type.Object(
    {
      queues: Type.Array(
        Type.Object(
          {
            queue_name: Type.String({ description: 'Queue (queue rule) name' }),
            time_to_merge: Type.Object({ mean: Nullable(Type.Number(), { description: 'Mean seconds from entering to merged; null without a merge' }), median: Nullable(Type.Number(), { description: 'Median seconds; null without a merge' }) }, { title: 'TimeToMergeResponse' }),
          },
          { title: 'TimeToMergePerQueue' },
        ),
      ),
    },
    { title: 'TimeToMergePerPartition' },
  ),
  { description: 'One element: Switchyard has no partitions' },
);

export const QueueAverageTimeResponse = Groups(
  'QueueAverageTimeResponse',
  Group('QueueTimeGroupResponse', series('Time in queue', InInterval('QueueTimeInInterval', {
    avg_queue_time: Num('Mean seconds from entering to leaving, per pull request that left'),
    max_queue_time: Num('Longest'),
    min_queue_time: Num('Shortest'),
    sum_queue_time: Num('Sum'),
    count_queue_time: Int('Pull requests that left'),
  }))),
);
