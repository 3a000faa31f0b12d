// Metadata of the events of one batch: its checks and its bisection (spec §6.3). They share
// `batch_id`, which is how a batch's bisection is found from its draft pull request.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { AbortCode } from '../shapes/queue-codes.ts';
import { Nullable, StrictObject, StringEnum, Uuid } from '../../schema-primitives.ts';
import { SpeculativeCheckPullRequest } from '../shapes/speculative-check-pull-request.ts';
import { batchFields, batchScopeFields, queuedFields } from './queue-fields.ts';

const PullNumbers = () => Type.Array(Int64());

export const QueueChecksStartMetadata = StrictObject(
  {
    ...queuedFields,
    start_reason: Type.String(),
    speculative_check_pull_request: SpeculativeCheckPullRequest,
    pull_request_numbers: PullNumbers(),
    ...batchScopeFields,
    previous_batch_id: Nullable(Uuid(), { description: 'Batch checked just before for the same pull request on a restart.' }),
    previous_batch_name: Nullable(Type.String()),
    ...batchFields,
  },
  { title: 'QueueChecksStartMetadata' },
);

export const ABORT_STATUSES = ['DEFINITIVE', 'REEMBARKED'] as const;

export const QueueChecksEndMetadata = StrictObject(
  {
    aborted: Type.Boolean(),
    abort_code: Nullable(AbortCode),
    abort_reason: Nullable(Type.String()),
    abort_status: StringEnum(ABORT_STATUSES),
    ...queuedFields,
    retry_attempt: Nullable(Type.Integer()),
    max_retries: Nullable(Type.Integer()),
    speculative_check_pull_request: SpeculativeCheckPullRequest,
    pull_request_numbers: PullNumbers(),
    ...batchScopeFields,
    ...batchFields,
  },
  { title: 'QueueChecksEndMetadata' },
);

const bisectionFields = {
  queue_name: Type.String(),
  priority_rule_name: Nullable(Type.String()),
  original_batch_pr_numbers: PullNumbers(),
};

export const QueueBatchBisectionStartMetadata = StrictObject(
  {
    ...bisectionFields,
    batch_size_before_split: Type.Integer(),
    number_of_sub_batches: Type.Integer(),
    bisection_depth: Type.Integer(),
    is_top_level: Type.Boolean(),
    ...batchFields,
  },
  { title: 'QueueBatchBisectionStartMetadata' },
);

export const QueueBatchBisectionEndMetadata = StrictObject(
  {
    ...bisectionFields,
    culprit_found: Type.Boolean(),
    culprit_pr_numbers: PullNumbers(),
    confirmed_culprit_pr_numbers: Nullable(PullNumbers()),
    dropped_unverified_pr_numbers: Nullable(PullNumbers()),
    remaining_pr_numbers: PullNumbers(),
    max_failure_resolution_reached: Type.Boolean(),
    ...batchFields,
  },
  { title: 'QueueBatchBisectionEndMetadata' },
);
