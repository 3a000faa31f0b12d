// Metadata of the queue events that follow one pull request's stay in the queue (spec §6.3).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { ConditionEvaluationResult } from '../shapes/condition-evaluation-result.ts';
import { QueueCheck } from '../shapes/queue-check.ts';
import { DequeueCode } from '../shapes/queue-codes.ts';
import { Nullable, StrictObject, Uuid } from '../../schema-primitives.ts';
import { queuedFields } from './queue-fields.ts';

export const QueueEnterMetadata = StrictObject({ ...queuedFields, session_id: Uuid() }, { title: 'QueueEnterMetadata' });

export const QueueChangeMetadata = StrictObject(
  { queue_name: Type.String(), priority_rule_name: Nullable(Type.String()), size: Type.Integer() },
  { title: 'QueueChangeMetadata' },
);

export const QueueChecksChangeMetadata = StrictObject(
  { queue_name: Type.String(), running_checks: Type.Integer() },
  { title: 'QueueChecksChangeMetadata' },
);

export const QueueMergedMetadata = StrictObject(
  {
    ...queuedFields,
    session_id: Uuid(),
    merge_commit_sha: Nullable(Type.String(), {
      description: 'New tip of the base branch after the queue merge. Null on older events.',
    }),
  },
  { title: 'QueueMergedMetadata' },
);

export const QueueChecksNotStartedMetadata = StrictObject(
  {
    ...queuedFields,
    reason: Type.String(),
    session_id: Uuid(),
    attempt: Type.Optional(
      Nullable(Type.Integer(), {
        description: "1-based count of this draft-creation failure within the pull request's current queue stay.",
      }),
    ),
  },
  { title: 'QueueChecksNotStartedMetadata' },
);

export const QueueConflictDeferredMetadata = StrictObject(
  {
    ...queuedFields,
    reason: Type.String(),
    session_id: Uuid(),
    blocking_pull_request_numbers: Type.Array(Int64(), {
      description: 'Pull requests ahead in the queue that were in flight when the merge failed.',
    }),
  },
  { title: 'QueueConflictDeferredMetadata' },
);

export const QueueLeaveMetadata = StrictObject(
  {
    reason: Type.String(),
    merged: Type.Boolean(),
    ...queuedFields,
    seconds_waiting_for_schedule: Type.Integer(),
    seconds_waiting_for_freeze: Type.Integer(),
    conditions_evaluation: Nullable(ConditionEvaluationResult),
    checks: Type.Array(QueueCheck),
    unsuccessful_checks: Type.Array(QueueCheck),
    pull_request_head_sha: Type.String(),
    session_id: Nullable(Uuid()),
    dequeue_code: Nullable(DequeueCode),
    batch_id: Nullable(Uuid(), { description: 'Batch the pull request was in on leaving; null if it never embarked.' }),
    scopes: Nullable(Type.Array(Type.String())),
    all_scopes: Nullable(Type.Boolean()),
  },
  { title: 'QueueLeaveMetadata' },
);
