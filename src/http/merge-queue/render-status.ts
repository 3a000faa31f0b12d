// A queue's view as the public MergeQueueStatus (DESIGN.md §9): its plan's batches in plan
// order, a bisecting batch with its parts nested, the pull requests waiting for scopes, the mode,
// the scope queues and the pause. Pure.
import type { Static } from '@sinclair/typebox';
import type { PlannedBatch, QueueEntry } from '../../domain/merge-queue/model.ts';
import { batchSizeBounds, queueRule } from '../../domain/merge-queue/queue-rule.ts';
import type { BatchRun } from '../../services/merge-queue/batch-run.ts';
import type { QueueView } from '../../services/merge-queue/merge-queue-service.ts';
import { estimateBatches, type BatchTimes } from './estimates.ts';
import { DEFAULT_HOSTING_WEB_URL, priorityRuleNameOf, pullRequestPage } from './public-pull-fields.ts';
import type { MergeQueueStatus, MergeQueueStatusPullRequest } from './status-shapes.ts';

type StatusAnswer = Static<typeof MergeQueueStatus>;
type BatchAnswer = StatusAnswer['batches'][number];
type PullAnswer = Static<typeof MergeQueueStatusPullRequest>;

export const iso = (time: number | null | undefined): string | null => (time == null ? null : new Date(time).toISOString());

export function runOf(view: Pick<QueueView, 'batches'>, batchId: string): BatchRun | null {
  return (view.batches.get(batchId)?.run as BatchRun | null | undefined) ?? null;
}

export function statusPullRequest(view: QueueView, entry: QueueEntry, times: BatchTimes | null, webUrl: string): PullAnswer {
  const facts = view.pulls.get(entry.number);
  const author = facts?.authorLogin != null && facts.authorId != null ? { id: facts.authorId, login: facts.authorLogin } : null;
  return {
    number: entry.number,
    title: facts?.title ?? null,
    url: pullRequestPage(webUrl, view.repository, entry.number, facts),
    author,
    queued_at: iso(entry.enteredAt)!,
    priority_alias: entry.priority,
    priority_rule_name: priorityRuleNameOf(entry),
    labels: facts?.labels ?? [],
    scopes: entry.scopes ? [...entry.scopes.scopes] : [],
    all_scopes: entry.scopes ? entry.scopes.allScopes : null,
    github_labels: null,
    estimated_merge_at: iso(times?.mergeAt),
    estimated_ci_finish_at: iso(times?.ciFinishAt),
  };
}

function batchStatus(view: QueueView, batch: PlannedBatch) {
  const rule = queueRule(view.config, batch.queueRule);
  const filling = batch.status === 'waiting_for_batch';
  return {
    code: batch.status,
    batch_filled_slots: filling ? batch.entryIds.length : null,
    max_batch_slots: filling ? batchSizeBounds(rule).max : null,
    batch_max_start_at: filling ? iso(batch.startsAt) : null,
    retries: view.batches.get(batch.id)?.retries ?? 0,
    max_retries: rule.max_checks_retries,
  };
}

function renderBatch(view: QueueView, batch: PlannedBatch, planned: ReadonlyMap<string, PlannedBatch>, times: ReadonlyMap<string, BatchTimes>, webUrl: string): BatchAnswer {
  const stored = view.batches.get(batch.id);
  const run = runOf(view, batch.id);
  const entries = new Map(view.state.entries.map((entry) => [entry.id, entry]));
  const batchTimes = times.get(batch.id) ?? null;
  const subBatches = batch.subBatchIds.flatMap((id) => planned.get(id) ?? []);
  return {
    id: batch.id,
    name: batch.name,
    parent_ids: [...batch.parentIds],
    status: batchStatus(view, batch),
    started_at: iso(stored?.startedAt),
    estimated_merge_at: iso(batchTimes?.mergeAt),
    estimated_ci_finish_at: iso(batchTimes?.ciFinishAt),
    ci_finished_at: iso(batchTimes?.ciFinishedAt),
    scopes: [...batch.scopes],
    all_scopes: batch.allScopes,
    queue_rule_name: batch.queueRule,
    checks_summary: run ? { passed: run.checks.passed, total: run.checks.total } : { passed: 0, total: 0 },
    pull_requests: batch.entryIds.flatMap((id) => entries.get(id) ?? []).map((entry) => statusPullRequest(view, entry, batchTimes, webUrl)),
    checks_timeout_at: iso(batchTimes?.checksTimeoutAt),
    intermediate_results_skipped: stored?.intermediateSkipped === true,
    queue_pull_request_number: run?.checkPull ? BigInt(run.checkPull.number) : null,
    sub_batches: subBatches.length > 0 ? subBatches.map((sub) => renderBatch(view, sub, planned, times, webUrl)) : null,
  };
}

/** `webUrl`: the hosting platform's web host (SWITCHYARD_HOSTING_WEB_URL), for pull requests' pages no webhook told. */
export function renderStatus(view: QueueView, webUrl: string = DEFAULT_HOSTING_WEB_URL): StatusAnswer {
  const planned = new Map(view.plan.batches.map((batch) => [batch.id, batch]));
  const times = estimateBatches(view);
  const entries = new Map(view.state.entries.map((entry) => [entry.id, entry]));
  // A sub-batch is shown inside the batch it splits; on its own only if that batch is gone.
  const topLevel = view.plan.batches.filter((batch) => batch.subBatchOf === null || !planned.has(batch.subBatchOf));
  const pause = view.holds.pause;
  return {
    batches: topLevel.map((batch) => renderBatch(view, batch, planned, times, webUrl)),
    waiting_pull_requests: view.plan.waiting.flatMap((waiting) => entries.get(waiting.entryId) ?? []).map((entry) => statusPullRequest(view, entry, null, webUrl)),
    mode: view.config.merge_queue.mode,
    scope_queues: Object.fromEntries(Object.entries(view.plan.scopeQueues).map(([scope, ids]) => [scope, [...ids]])),
    pause: view.holds.paused ? { paused: true, reason: pause?.reason ?? null, paused_at: iso(pause?.pausedAt.getTime()) } : null,
  };
}
