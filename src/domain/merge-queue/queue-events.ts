// The activity-log events of the merge queue's own steps (spec §6.3, DESIGN §9–10), built from
// the changes a transition made. One event per pull request concerned: batch events carry the
// stay (`session_id`) of each entry of the batch. Pure: the caller writes them in the transaction
// that stores the change.
import type { IngestEventInput } from '../events/ingest-event.ts';
import type { Batch, MergeQueueConfig, QueueChange, QueueEntry, QueueState } from './model.ts';
import { queueRule } from './queue-rule.ts';

export interface QueueCheckRecord {
  name: string;
  description: string;
  url: string | null;
  state: string;
  avatar_url: string | null;
}

/** What the executor knows of a batch's check pull request. */
export interface CheckPullFacts {
  number: bigint;
  inPlace: boolean;
  unsuccessfulChecks: QueueCheckRecord[];
}

export interface QueueEventContext {
  baseRef: string;
  config: MergeQueueConfig;
  /** The state before the changes: entries that leave are read here. */
  before: QueueState;
  after: QueueState;
  now: number;
  trigger: string;
  /** Any batch the changes name, in its latest form. */
  batchOf(id: string): Batch | undefined;
  checkPullOf(batchId: string): CheckPullFacts | null;
  /** Seconds a batch's passed checks waited for a freeze to end. */
  freezeSecondsOf(batchId: string): number;
  /** The base head after a pull request's queue merge. */
  mergeCommitShaOf(entryId: string): string | null;
  /** The batch checked just before for an entry (a restart), by name. */
  previousBatchOf?(entryId: string, batchId: string): { id: string; name: string } | null;
}

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

export function queueChangeEvents(ctx: QueueEventContext, changes: readonly QueueChange[]): IngestEventInput[] {
  const events: IngestEventInput[] = [];
  // A stay's last events: a transition that ends a stay and a bisection at once (a culprit
  // found) records the bisection first, so nothing of a stay is logged after its leave.
  const leaves: IngestEventInput[] = [];
  const entries = new Map<string, QueueEntry>();
  for (const entry of ctx.before.entries) entries.set(entry.id, entry);
  for (const entry of ctx.after.entries) entries.set(entry.id, entry);
  const checksStarted = new Set(ctx.before.batches.filter((b) => b.checksStartedAt !== null).map((b) => b.id));
  for (const change of changes) {
    switch (change.kind) {
      case 'batch_phase':
        if (change.phase === 'running') {
          events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => checksStart(ctx, batch, entry)));
          checksStarted.add(change.batchId);
        }
        break;
      case 'checks_ended':
        events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => checksEnd(ctx, batch, entry, { conclusion: change.conclusion, aborted: null, retries: change.retries })));
        checksStarted.delete(change.batchId);
        break;
      case 'batch_retried':
        checksStarted.delete(change.batchId);
        break;
      case 'batch_aborted':
        // Checks that were running end as aborted; a batch whose checks had ended already said so.
        if (checksStarted.has(change.batchId) && (change.phaseBefore === 'running' || change.phaseBefore === 'preparing')) {
          events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => checksEnd(ctx, batch, entry, { conclusion: 'cancelled', aborted: { code: change.code, status: change.status }, retries: batch.retries })));
        }
        checksStarted.delete(change.batchId);
        break;
      case 'intermediate_skipped':
        // Checks still running stop: a later batch holding these changes passed.
        if (checksStarted.has(change.batchId) && (change.phaseBefore === 'running' || change.phaseBefore === 'preparing')) {
          events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => checksEnd(ctx, batch, entry, { conclusion: 'cancelled', aborted: { code: 'INTERMEDIATE_RESULTS_SKIPPED', status: 'DEFINITIVE' }, retries: batch.retries })));
        }
        checksStarted.delete(change.batchId);
        break;
      case 'bisection_started':
        events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => bisectionStart(ctx, batch, entry, change.depth, change.subBatches.length)));
        break;
      case 'bisection_ended':
        events.push(...batchEvents(ctx, entries, change.batchId, (batch, entry) => bisectionEnd(ctx, batch, entry, entries, change.culpritEntryIds, change.remainingEntryIds)));
        break;
      case 'entry_left':
        leaves.push(...leaveEvents(ctx, entries.get(change.entryId), change.code, change.batchId));
        break;
      default:
        break;
    }
  }
  events.push(...leaves, ...sizeEvents(ctx));
  return events;
}

/** action.queue.enter and the size of the entry's queue rule once it entered. */
export function enterEvents(ctx: Pick<QueueEventContext, 'baseRef' | 'trigger' | 'now'>, entry: QueueEntry, size: number): IngestEventInput[] {
  const metadata = { ...queued(ctx, entry), session_id: entry.id };
  return [envelope(ctx, entry.number, 'action.queue.enter', metadata), envelope(ctx, null, 'action.queue.change', { queue_name: entry.queueRule, priority_rule_name: null, size })];
}

function sizeEvents(ctx: Pick<QueueEventContext, 'baseRef' | 'trigger' | 'now' | 'after' | 'before' | 'config'>): IngestEventInput[] {
  const events: IngestEventInput[] = [];
  const sizeOf = (state: QueueState, rule: string) => state.entries.filter((e) => e.queueRule === rule).length;
  const rules = new Set([...ctx.before.entries, ...ctx.after.entries].map((entry) => entry.queueRule));
  for (const rule of [...rules].sort()) {
    const size = sizeOf(ctx.after, rule);
    if (size !== sizeOf(ctx.before, rule)) events.push(envelope(ctx, null, 'action.queue.change', { queue_name: rule, priority_rule_name: null, size }));
  }
  const running = (state: QueueState) => state.batches.filter((b) => b.phase === 'running').length;
  if (running(ctx.after) !== running(ctx.before)) {
    const rule = ctx.config.queue_rules[0]?.name ?? 'default';
    events.push(envelope(ctx, null, 'action.queue.checks.change', { queue_name: rule, running_checks: running(ctx.after) }));
  }
  return events;
}

function envelope(ctx: Pick<QueueEventContext, 'baseRef' | 'trigger' | 'now'>, number: bigint | null, type: IngestEventInput['type'], metadata: Record<string, unknown>): IngestEventInput {
  return { type, metadata, trigger: ctx.trigger, pull_request: number, base_ref: ctx.baseRef, received_at: new Date(ctx.now).toISOString() };
}

function queued(ctx: Pick<QueueEventContext, 'baseRef'>, entry: QueueEntry) {
  return { branch: ctx.baseRef, priority_rule_name: entry.priorityRuleName, queue_name: entry.queueRule, queued_at: new Date(entry.enteredAt).toISOString() };
}

function batchEvents(ctx: QueueEventContext, entries: Map<string, QueueEntry>, batchId: string, build: (batch: Batch, entry: QueueEntry) => Record<string, unknown> & { type: IngestEventInput['type'] }): IngestEventInput[] {
  const batch = ctx.batchOf(batchId);
  if (!batch) return [];
  return batch.entryIds.flatMap((entryId) => {
    const entry = entries.get(entryId);
    if (!entry) return [];
    const { type, ...metadata } = build(batch, entry);
    return [envelope(ctx, entry.number, type, metadata)];
  });
}

function batchIdentity(batch: Batch, entry: QueueEntry) {
  return { session_id: entry.id, batch_id: batch.id, train_car_id: batch.id, batch_name: batch.name };
}

function batchScopes(batch: Batch) {
  return { scopes: [...batch.scopes], parent_batch_ids: [...batch.parentIds], all_scopes: batch.allScopes };
}

function numbersOf(batch: Batch, entries: Map<string, QueueEntry>, ids: readonly string[] = batch.entryIds): bigint[] {
  return ids.flatMap((id) => entries.get(id)?.number ?? []);
}

function speculative(ctx: QueueEventContext, batch: Batch, conclusion: string, timedOut: boolean, ended: boolean) {
  const pull = ctx.checkPullOf(batch.id);
  return {
    number: pull?.number ?? 0n,
    in_place: pull?.inPlace ?? false,
    checks_timed_out: timedOut,
    checks_conclusion: conclusion,
    checks_started_at: iso(batch.checksStartedAt),
    checks_ended_at: ended ? iso(batch.checksEndedAt ?? ctx.now) : null,
    unsuccessful_checks: ended ? (pull?.unsuccessfulChecks ?? []) : [],
  };
}

function checksStart(ctx: QueueEventContext, batch: Batch, entry: QueueEntry) {
  const previous = ctx.previousBatchOf?.(entry.id, batch.id) ?? null;
  const entries = new Map(ctx.after.entries.map((e) => [e.id, e]));
  return {
    type: 'action.queue.checks_start' as const,
    ...queued(ctx, entry),
    start_reason: batch.retries > 0 ? `Checks retried (attempt ${batch.retries + 1})` : batch.bisection ? `Bisection of a failed batch (depth ${batch.bisection.depth})` : 'First time checking',
    speculative_check_pull_request: speculative(ctx, batch, 'pending', false, false),
    pull_request_numbers: numbersOf(batch, entries),
    ...batchScopes(batch),
    previous_batch_id: previous?.id ?? null,
    previous_batch_name: previous?.name ?? null,
    ...batchIdentity(batch, entry),
  };
}

function checksEnd(ctx: QueueEventContext, batch: Batch, entry: QueueEntry, end: { conclusion: string; aborted: { code: string; status: 'DEFINITIVE' | 'REEMBARKED' } | null; retries: number }) {
  const rule = queueRule(ctx.config, batch.queueRule);
  const entries = new Map([...ctx.before.entries, ...ctx.after.entries].map((e) => [e.id, e]));
  return {
    type: 'action.queue.checks_end' as const,
    aborted: end.aborted !== null,
    abort_code: end.aborted?.code ?? null,
    abort_reason: end.aborted ? ABORT_REASONS[end.aborted.code] ?? `Checks stopped: ${end.aborted.code}` : null,
    abort_status: end.aborted?.status ?? 'DEFINITIVE',
    ...queued(ctx, entry),
    retry_attempt: end.retries,
    max_retries: rule.max_checks_retries,
    speculative_check_pull_request: speculative(ctx, batch, end.conclusion, end.conclusion === 'timed_out', true),
    pull_request_numbers: numbersOf(batch, entries),
    ...batchScopes(batch),
    ...batchIdentity(batch, entry),
  };
}

function bisectionStart(ctx: QueueEventContext, batch: Batch, entry: QueueEntry, depth: number, parts: number) {
  const entries = new Map([...ctx.before.entries, ...ctx.after.entries].map((e) => [e.id, e]));
  return {
    type: 'action.queue.batch_bisection_start' as const,
    queue_name: entry.queueRule,
    priority_rule_name: entry.priorityRuleName,
    original_batch_pr_numbers: numbersOf(batch, entries),
    batch_size_before_split: batch.entryIds.length,
    number_of_sub_batches: parts,
    bisection_depth: depth,
    is_top_level: depth === 1,
    ...batchIdentity(batch, entry),
  };
}

function bisectionEnd(ctx: QueueEventContext, batch: Batch, entry: QueueEntry, entries: Map<string, QueueEntry>, culprits: readonly string[], remaining: readonly string[]) {
  const culpritNumbers = numbersOf(batch, entries, culprits);
  return {
    type: 'action.queue.batch_bisection_end' as const,
    queue_name: entry.queueRule,
    priority_rule_name: entry.priorityRuleName,
    original_batch_pr_numbers: numbersOf(batch, entries),
    culprit_found: culprits.length > 0,
    culprit_pr_numbers: culpritNumbers,
    confirmed_culprit_pr_numbers: culpritNumbers,
    dropped_unverified_pr_numbers: null,
    remaining_pr_numbers: numbersOf(batch, entries, remaining),
    max_failure_resolution_reached: false,
    ...batchIdentity(batch, entry),
  };
}

function leaveEvents(ctx: QueueEventContext, entry: QueueEntry | undefined, code: string, batchId: string | null): IngestEventInput[] {
  if (!entry) return [];
  const batch = batchId === null ? undefined : ctx.batchOf(batchId);
  const merged = code === 'PR_MERGED' || code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED';
  const events: IngestEventInput[] = [];
  if (merged) events.push(envelope(ctx, entry.number, 'action.queue.merged', { ...queued(ctx, entry), session_id: entry.id, merge_commit_sha: ctx.mergeCommitShaOf(entry.id) }));
  const unsuccessful = batch ? (ctx.checkPullOf(batch.id)?.unsuccessfulChecks ?? []) : [];
  events.push(
    envelope(ctx, entry.number, 'action.queue.leave', {
      reason: LEAVE_REASONS[code] ?? `Left the queue: ${code}`,
      merged,
      ...queued(ctx, entry),
      seconds_waiting_for_schedule: 0,
      seconds_waiting_for_freeze: batch ? ctx.freezeSecondsOf(batch.id) : 0,
      conditions_evaluation: null,
      checks: [],
      unsuccessful_checks: merged ? [] : unsuccessful,
      pull_request_head_sha: entry.headSha,
      session_id: entry.id,
      dequeue_code: code,
      batch_id: batch?.id ?? null,
      scopes: batch ? [...batch.scopes] : null,
      all_scopes: batch ? batch.allScopes : null,
    }),
  );
  return events;
}

/** A sentence per code, for `reason` and `abort_reason`. */
const LEAVE_REASONS: Record<string, string> = {
  PR_MERGED: 'The pull request was merged by the merge queue.',
  PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED: 'The pull request was merged by the merge queue on the passed checks of a later batch holding it, without waiting for its own (skip_intermediate_results).',
  PR_MANUALLY_DEQUEUED: 'The pull request was removed from the queue by a person.',
  PULL_REQUEST_UPDATED: 'The pull request was updated: new commits were pushed to its head.',
  PR_DEQUEUED: 'The pull request was closed.',
  PR_MANUALLY_MERGED: 'The pull request was merged outside the merge queue.',
  BASE_BRANCH_CHANGED: 'The base branch of the pull request changed.',
  CHECKS_FAILED: 'The checks of the pull request failed.',
  CHECKS_TIMEOUT: 'The checks of the pull request did not conclude in time.',
  CONFLICT_WITH_BASE_BRANCH: 'The pull request conflicts with its base branch.',
  CONFLICT_WITH_PULL_AHEAD: 'The pull request conflicts with a pull request ahead of it in the queue.',
  DRAFT_PULL_REQUEST_CREATION_FAILED: 'The draft pull request checking the batch could not be created.',
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: 'The hosting platform refused to merge the pull request.',
  BRANCH_UPDATE_FAILED: 'The hosting platform refused to update the pull request with its base branch.',
  QUEUE_RULE_MISSING: 'The queue rule of the pull request no longer exists.',
};

const ABORT_REASONS: Record<string, string> = {
  ...LEAVE_REASONS,
  PR_AHEAD_DEQUEUED: 'A pull request ahead in the queue left it.',
  BATCH_AHEAD_FAILED: 'A batch ahead in the queue failed.',
  MERGE_QUEUE_RESET: 'The base branch moved outside the queue: the queue was reset.',
  INTERMEDIATE_RESULTS_SKIPPED: 'A later batch holding these pull requests passed its checks: they merge on its result (skip_intermediate_results).',
};
