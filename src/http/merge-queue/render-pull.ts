// One queued pull request in the public shapes (DESIGN.md §9): MergeQueuePullRequest for
// GET …/merge-queue/pull/{n} and the enter endpoint, PullRequestQueued for GET …/queues. Its
// position counts from 0 in queue order: the plan's batches in order, then the pull requests
// waiting for scopes. Pure.
import type { Static } from '@sinclair/typebox';
import type { PlannedBatch, Priority, QueueEntry } from '../../domain/merge-queue/model.ts';
import { compareQueueOrder } from '../../domain/merge-queue/queue-order.ts';
import { queueRule } from '../../domain/merge-queue/queue-rule.ts';
import type { QueueView } from '../../services/merge-queue/merge-queue-service.ts';
import type { QueueCheck } from '../../domain/events/shapes/queue-check.ts';
import { estimateBatches, type BatchTimes } from './estimates.ts';
import { priorityRuleNameOf } from './public-pull-fields.ts';
import type { MergeQueuePullRequest, PullRequestQueued, QueueConditionEvaluation, Queues } from './pull-shapes.ts';
import { iso, runOf } from './render-status.ts';

/** The numeric priorities of the public API for the three aliases. */
export const PRIORITY_VALUES: Record<Priority, number> = { low: 1000, medium: 2000, high: 3000 };

/** Active entry ids in queue order: batches in plan order (a bisecting batch counts through its parts), then waiting ones. */
export function queuePositions(view: Pick<QueueView, 'plan' | 'state'>): Map<string, number> {
  const order: string[] = [];
  const seen = new Set<string>();
  const add = (id: string) => {
    if (!seen.has(id)) order.push(id), seen.add(id);
  };
  const active = new Set(view.state.entries.map((entry) => entry.id));
  for (const batch of view.plan.batches) if (batch.status !== 'bisecting') for (const id of batch.entryIds) if (active.has(id)) add(id);
  for (const waiting of view.plan.waiting) add(waiting.entryId);
  // Entries of a bisecting batch not yet in one of its parts, if any: in queue order, at the end.
  for (const entry of [...view.state.entries].sort(compareQueueOrder)) add(entry.id);
  return new Map(order.map((id, position) => [id, position]));
}

/** The batch checking an entry: the innermost one holding it (a part rather than the batch it splits). */
export function batchOfEntry(view: Pick<QueueView, 'plan'>, entryId: string): PlannedBatch | null {
  return view.plan.batches.find((batch) => batch.status !== 'bisecting' && batch.entryIds.includes(entryId)) ?? null;
}

function ruleOf(view: QueueView, entry: QueueEntry) {
  const { name: _name, ...config } = queueRule(view.config, entry.queueRule);
  return { name: entry.queueRule, config };
}

function checkOutcome(view: QueueView, batch: PlannedBatch | null) {
  if (!batch) return null;
  const stored = view.batches.get(batch.id);
  const run = runOf(view, batch.id);
  if (!stored || !run?.checkPull) return null;
  const outcome = stored.phase === 'passed' ? 'success' : stored.phase === 'parked' ? 'failure' : 'pending';
  return { stored, run, checkPull: run.checkPull, outcome } as const;
}

function mergeabilityCheck(view: QueueView, batch: PlannedBatch | null, entry: QueueEntry) {
  const check = checkOutcome(view, batch);
  if (!check) return null;
  return {
    check_type: check.checkPull.inPlace ? ('in_place' as const) : ('draft_pr' as const),
    queue_pull_request_number: BigInt(check.checkPull.number),
    started_at: iso(check.stored.checksStartedAt),
    ci_ended_at: iso(check.stored.checksEndedAt),
    ci_state: check.outcome === 'failure' ? ('failed' as const) : check.outcome,
    state: check.outcome,
    // The executor records them in the events' QueueCheck shape, whose states are the public ones.
    checks: check.run.unsuccessfulChecks as Static<typeof QueueCheck>[],
    conditions_evaluation: (view.conditions.get(entry.number) ?? null) as Static<typeof QueueConditionEvaluation> | null,
  };
}

function briefCheck(view: QueueView, batch: PlannedBatch | null) {
  const check = checkOutcome(view, batch);
  if (!check) return null;
  return {
    check_type: check.checkPull.inPlace ? ('in_place' as const) : ('draft_pr' as const),
    pull_request_number: BigInt(check.checkPull.number),
    started_at: iso(check.stored.checksStartedAt),
    ended_at: iso(check.stored.checksEndedAt),
    state: check.outcome,
  };
}

export function renderQueuedPull(view: QueueView, entry: QueueEntry, times: ReadonlyMap<string, BatchTimes> = estimateBatches(view)): Static<typeof MergeQueuePullRequest> {
  const batch = batchOfEntry(view, entry.id);
  const batchTimes = batch ? times.get(batch.id) : undefined;
  return {
    number: entry.number,
    queued_at: iso(entry.enteredAt)!,
    estimated_time_of_merge: iso(batchTimes?.mergeAt),
    position: queuePositions(view).get(entry.id) ?? 0,
    priority_rule_name: priorityRuleNameOf(entry),
    queue_rule_name: entry.queueRule,
    checks_timeout_at: iso(batchTimes?.checksTimeoutAt),
    queue_rule: ruleOf(view, entry),
    mergeability_check: mergeabilityCheck(view, batch, entry),
  };
}

function queuedPullRequest(view: QueueView, entry: QueueEntry, position: number, times: ReadonlyMap<string, BatchTimes>): Static<typeof PullRequestQueued> {
  const batch = batchOfEntry(view, entry.id);
  return {
    number: entry.number,
    position,
    priority: PRIORITY_VALUES[entry.priority],
    effective_priority: PRIORITY_VALUES[entry.priority],
    priority_alias: entry.priority,
    queue_rule: ruleOf(view, entry),
    queued_at: iso(entry.enteredAt)!,
    speculative_check_pull_request: null,
    mergeability_check: briefCheck(view, batch),
    estimated_time_of_merge: iso(batch ? times.get(batch.id)?.mergeAt : null),
    partition_name: '__default__',
  };
}

/** GET …/queues: one queue per view given (branches with pull requests queued), each in queue order. */
export function renderQueues(views: readonly QueueView[]): Static<typeof Queues> {
  return {
    queues: views.map((view) => {
      const positions = queuePositions(view);
      const times = estimateBatches(view);
      const entries = [...view.state.entries].sort((a, b) => (positions.get(a.id) ?? 0) - (positions.get(b.id) ?? 0));
      return { branch: { name: view.baseRef }, pull_requests: entries.map((entry) => queuedPullRequest(view, entry, positions.get(entry.id) ?? 0, times)) };
    }),
  };
}
