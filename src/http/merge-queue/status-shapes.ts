// The public MergeQueueStatus and the shapes inside it, wire-compatible with the public
// merge-queue API (DESIGN.md §9). Written here in TypeBox; where Switchyard may not know a fact
// the public document requires (a title, an author), the field is nullable and says so: null,
// never an invented value. A pull request's page and priority rule are always known
// (public-pull-fields.ts).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../domain/int64.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../domain/schema-primitives.ts';

export const BATCH_STATUS_CODES = [
  'running',
  'bisecting',
  'preparing',
  'failed',
  'merged',
  'waiting_for_merge',
  'waiting_for_previous_batches',
  'waiting_for_requeue',
  'waiting_schedule',
  'waiting_for_batch',
  'waiting_for_checks_slot',
  'frozen',
] as const;

const When = (description: string) => Nullable(DateTime(), { description });

export const PullRequestAuthor = Type.Object({ id: Int64(), login: Type.String() }, { title: 'PullRequestAuthor' });

export const MergeQueueStatusPullRequest = Type.Object(
  {
    number: Int64({ description: 'The pull request number' }),
    title: Nullable(Type.String(), { description: 'Its title; null until the hosting platform told Switchyard' }),
    url: Type.String({ description: "Its page on the hosting platform: as its webhooks told it (pull_request.html_url), else built from SWITCHYARD_HOSTING_WEB_URL" }),
    author: Nullable(PullRequestAuthor, { description: 'Its author; null until the hosting platform told Switchyard' }),
    queued_at: DateTime({ description: 'When it entered the queue' }),
    priority_alias: StringEnum(['high', 'medium', 'low'] as const),
    priority_rule_name: Type.String({ description: 'The priority rule that set its priority; `<default>` when the priority was asked for when queuing, or no rule matched (medium)' }),
    labels: Type.Array(Type.String(), { description: 'Its labels as last reported', deprecated: true }),
    scopes: Type.Array(Type.String(), { description: 'Its effective scopes (DESIGN §5); empty while none is reported' }),
    all_scopes: Nullable(Type.Boolean(), { description: 'It impacts every scope (a barrier); null while nothing is reported' }),
    github_labels: Type.Null({ description: 'Always null: label ids and colours are not recorded' }),
    estimated_merge_at: When('When its batch should merge; null when it cannot be estimated (waiting for scopes, paused)'),
    estimated_ci_finish_at: When("When its batch's checks should end; null when it cannot be estimated"),
  },
  { title: 'MergeQueueStatusPullRequest' },
);

export const BatchStatus = Type.Object(
  {
    code: StringEnum(BATCH_STATUS_CODES, { description: 'docs/merge-queue.md says what each status means' }),
    batch_filled_slots: Nullable(Type.Integer(), { description: 'A filling batch (`waiting_for_batch`): pull requests in it so far' }),
    max_batch_slots: Nullable(Type.Integer(), { description: 'A filling batch: the size it waits for' }),
    batch_max_start_at: When('A filling batch: when it starts at the latest, full or not'),
    retries: Type.Integer({ description: 'Check attempts retried so far' }),
    max_retries: Type.Integer({ description: "The queue rule's max_checks_retries" }),
  },
  { title: 'BatchStatus' },
);

export const BatchChecksSummary = Type.Object(
  { passed: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) },
  { title: 'BatchChecksSummary', description: 'Required checks seen on the batch head: passed, of how many' },
);

export const MergeQueueStatusPause = Type.Object(
  {
    paused: Type.Boolean(),
    reason: Nullable(Type.String({ maxLength: 255 })),
    paused_at: When('When the queue was paused'),
  },
  { title: 'MergeQueueStatusPause', description: 'The pause of the repository (the MergeQueuePauseResponse shape)' },
);

export const MergeQueueStatusBatch = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        id: Uuid(),
        name: Type.String(),
        parent_ids: Type.Array(Uuid(), { description: 'Batches whose changes this one is checked on top of; it merges after them' }),
        status: BatchStatus,
        started_at: When('When it started; null for a batch the plan proposes but has not started'),
        estimated_merge_at: When('Estimated from recent check durations; null when it cannot be estimated (paused, frozen without an end)'),
        estimated_ci_finish_at: When('Estimated from recent check durations; its end when its checks have ended'),
        ci_finished_at: When('When its checks ended; null while they have not'),
        scopes: Type.Array(Type.String()),
        all_scopes: Type.Boolean({ description: 'It impacts every scope: a barrier' }),
        queue_rule_name: Type.String(),
        checks_summary: BatchChecksSummary,
        pull_requests: Type.Array(MergeQueueStatusPullRequest),
        checks_timeout_at: When("When its running checks time out (the rule's checks_timeout)"),
        intermediate_results_skipped: Type.Boolean(),
        queue_pull_request_number: Nullable(Int64(), { description: 'The pull request its checks run on; null until there is one' }),
        sub_batches: Nullable(Type.Array(Self), { description: 'A bisecting batch: the parts being checked; null otherwise' }),
      },
      { title: 'MergeQueueStatusBatchWithSubBatch' },
    ),
  { $id: 'MergeQueueStatusBatchWithSubBatch', title: 'MergeQueueStatusBatchWithSubBatch' },
);

export const MergeQueueStatus = Type.Object(
  {
    batches: Type.Array(MergeQueueStatusBatch, { description: 'In plan order: parents before the batches depending on them' }),
    waiting_pull_requests: Type.Array(MergeQueueStatusPullRequest, { description: 'Queued, in no batch yet: waiting for a scope report' }),
    mode: StringEnum(['serial', 'parallel', 'isolated'] as const),
    scope_queues: Type.Record(Type.String(), Type.Array(Uuid()), { description: 'Scope → the batches holding it, in plan order; a barrier is in every one' }),
    pause: Nullable(MergeQueueStatusPause, { description: 'null when the queue is not paused' }),
  },
  { title: 'MergeQueueStatus' },
);
