// The public shapes of one queued pull request (MergeQueuePullRequest, PullRequestQueued), the
// queue list (Queues), the branch lists and the dequeue impact, wire-compatible with the public
// merge-queue API (DESIGN.md §9); and Switchyard's own body for entering the queue.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../domain/int64.ts';
import { QueueCheck } from '../../domain/events/shapes/queue-check.ts';
import { QUEUE_CHECK_STATES } from '../../domain/events/shapes/queue-check.ts';
import { DateTime, Nullable, StrictObject, StringEnum } from '../../domain/schema-primitives.ts';

const When = (description: string) => Nullable(DateTime(), { description });

export const EnterQueueBody = StrictObject(
  {
    queue_rule: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The queue rule; default: the first rule covering the base branch' })),
    priority: Type.Optional(StringEnum(['high', 'medium', 'low'] as const, { description: 'Default: the first matching priority rule, else medium' })),
  },
  { title: 'MergeQueueEnterPayload' },
);

export const QueuedPullRequestRule = Type.Object(
  {
    name: Type.String({ description: 'The name of the queue rule' }),
    config: Type.Object({}, { additionalProperties: true, description: 'Its options, every default filled in (those of the configuration’s queue_rules, without `name`)' }),
  },
  { title: 'QueuedPullRequestRule', description: 'The queue rule of a queued pull request (the QueueRule shape)' },
);

/** DESIGN §14: a condition tree as the public API shows it (no pending: a pending node does not match and says so). */
export const QueueConditionEvaluation = Type.Recursive(
  (Self) =>
    Type.Object({
      match: Type.Boolean(),
      label: Type.String({ description: 'The condition as written, or `all of`, `any of`, `not`' }),
      description: Type.Union([Type.String(), Type.Null()]),
      documentation_url: Type.Union([Type.String(), Type.Null()]),
      schedule: Type.Union([Type.Object({ timezone: Type.String(), days: Type.Object({}, { additionalProperties: true }) }), Type.Null()]),
      subconditions: Type.Array(Self),
      evaluations: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
  { $id: 'QueueConditionEvaluationJsonSerialized', title: 'QueueConditionEvaluationJsonSerialized' },
);

export const MergeQueueMergeabilityCheck = Type.Object(
  {
    check_type: StringEnum(['in_place', 'draft_pr'] as const, { description: '`in_place`: checks run on the pull request itself; `draft_pr`: on a draft pull request of the batch' }),
    queue_pull_request_number: Int64({ description: 'The pull request the checks run on' }),
    started_at: When('When the checks started'),
    ci_ended_at: When('When the checks ended'),
    ci_state: StringEnum(['pending', 'success', 'failed'] as const),
    state: StringEnum(['pending', 'success', 'failure'] as const, { description: 'The conclusion of the queue check' }),
    checks: Type.Array(QueueCheck, { description: 'The checks seen not to succeed; passing ones are only counted (the status’s checks_summary)' }),
    conditions_evaluation: Nullable(QueueConditionEvaluation, { description: "Its queue rule's queue_conditions and merge_conditions as the rules engine last evaluated them on the pull request; null when no configuration file governs, or before the first evaluation" }),
  },
  { title: 'MergeQueueMergeabilityCheck' },
);

export const MergeQueuePullRequest = Type.Object(
  {
    number: Int64({ description: 'The pull request number' }),
    queued_at: DateTime({ description: 'When it entered the queue' }),
    estimated_time_of_merge: When('Estimated from recent check durations; null when it cannot be estimated'),
    position: Type.Integer({ minimum: 0, description: 'Its place in the queue, from 0: batches in plan order, then pull requests waiting for scopes' }),
    priority_rule_name: Type.String({ description: 'The priority rule that set its priority; `<default>` when none did' }),
    queue_rule_name: Type.String(),
    checks_timeout_at: When('When the running checks of its batch time out'),
    queue_rule: QueuedPullRequestRule,
    mergeability_check: Nullable(MergeQueueMergeabilityCheck, { description: 'The checks of its batch; null until they run on a pull request' }),
  },
  { title: 'MergeQueuePullRequest' },
);

export const BriefMergeabilityCheck = Type.Object(
  {
    check_type: StringEnum(['in_place', 'draft_pr'] as const),
    pull_request_number: Int64({ description: 'The pull request the checks run on' }),
    started_at: When('When the checks started'),
    ended_at: When('When the checks ended'),
    state: StringEnum(QUEUE_CHECK_STATES),
  },
  { title: 'BriefMergeabilityCheck' },
);

export const PullRequestQueued = Type.Object(
  {
    number: Int64({ description: 'The pull request number' }),
    position: Type.Integer({ minimum: 0, description: 'Its place in the queue, from 0' }),
    priority: Type.Integer({ description: 'Its priority as a number: low 1000, medium 2000, high 3000' }),
    effective_priority: Type.Integer({ description: 'The same as priority' }),
    priority_alias: StringEnum(['high', 'medium', 'low'] as const),
    queue_rule: QueuedPullRequestRule,
    queued_at: DateTime(),
    speculative_check_pull_request: Type.Null({ description: 'Deprecated: read mergeability_check', deprecated: true }),
    mergeability_check: Nullable(BriefMergeabilityCheck, { description: 'The checks of its batch; null until they run on a pull request' }),
    estimated_time_of_merge: When('Estimated from recent check durations; null when it cannot be estimated'),
    partition_name: Type.String({ description: 'Always `__default__`: queues are not partitioned' }),
  },
  { title: 'PullRequestQueued' },
);

export const Queues = Type.Object(
  {
    queues: Type.Array(
      Type.Object(
        {
          branch: Type.Object({ name: Type.String({ description: 'The base branch' }) }, { title: 'Branch' }),
          pull_requests: Type.Array(PullRequestQueued, { description: 'In queue order' }),
        },
        { title: 'Queue' },
      ),
      { description: 'One per base branch with pull requests queued, by name' },
    ),
  },
  { title: 'Queues' },
);

export const MergeQueueBranches = Type.Object(
  { branches: Type.Array(Type.String(), { description: 'Base branches with pull requests queued, by name' }) },
  { title: 'MergeQueueBranches' },
);

export const BaseRefsResponse = Type.Object(
  { base_refs: Type.Array(Type.String(), { description: 'Base branches with a pull request in their queue during the window, by name' }) },
  { title: 'BaseRefsResponse' },
);

export const MergeQueueDequeueImpact = Type.Object(
  {
    interrupted_batches: Type.Integer({ minimum: 0, description: 'Batches whose checks would be stopped and restarted' }),
    rechecked_pull_requests: Type.Integer({ minimum: 0, description: 'Other pull requests of those batches that would be checked again' }),
    cascaded_pull_requests: Type.Integer({ minimum: 0, description: 'Always 0: there are no stacked pull requests' }),
  },
  { title: 'MergeQueueDequeueImpact' },
);
