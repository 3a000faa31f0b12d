// Merge-queue events as the queue writes them (spec §6.3), built by hand at chosen instants, for
// tests that compute statistics from them: a stay of a pull request, its batches' checks, its
// leave, the queue's size and running checks. Each batch event is written once per pull request
// of the batch, as the queue does.
import { randomUUID } from 'node:crypto';
import type { IngestEventInput } from '../fixtures/event-fixtures.ts';

export interface Stay {
  pull: number;
  base: string;
  queue: string;
  priority: string | null;
  queuedAt: number;
  session: string;
}

export interface StoryBatch {
  id: string;
  stays: Stay[];
  draft: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function envelope(type: IngestEventInput['type'], at: number, base: string, pull: number | null, metadata: Record<string, unknown>): IngestEventInput {
  return { type, metadata, trigger: 'merge queue', pull_request: pull, base_ref: base, received_at: iso(at) };
}

const queued = (s: Stay) => ({ branch: s.base, priority_rule_name: s.priority, queue_name: s.queue, queued_at: iso(s.queuedAt) });

export function stay(pull: number, queuedAt: number, options: Partial<Pick<Stay, 'base' | 'queue' | 'priority'>> = {}): Stay {
  return { pull, base: options.base ?? 'main', queue: options.queue ?? 'default', priority: options.priority ?? null, queuedAt, session: randomUUID() };
}

export function batch(stays: Stay[], draft: number): StoryBatch {
  return { id: randomUUID(), stays, draft };
}

export const enter = (s: Stay) => envelope('action.queue.enter', s.queuedAt, s.base, s.pull, { ...queued(s), session_id: s.session });

export const merged = (s: Stay, at: number) => envelope('action.queue.merged', at, s.base, s.pull, { ...queued(s), session_id: s.session, merge_commit_sha: 'a'.repeat(40) });

export function leave(s: Stay, at: number, code: string, options: { batch?: StoryBatch; freezeSeconds?: number; scheduleSeconds?: number } = {}): IngestEventInput {
  const merging = code === 'PR_MERGED' || code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED';
  return envelope('action.queue.leave', at, s.base, s.pull, {
    reason: `Left: ${code}`,
    merged: merging,
    ...queued(s),
    seconds_waiting_for_schedule: options.scheduleSeconds ?? 0,
    seconds_waiting_for_freeze: options.freezeSeconds ?? 0,
    conditions_evaluation: null,
    checks: [],
    unsuccessful_checks: [],
    pull_request_head_sha: 'b'.repeat(40),
    session_id: s.session,
    dequeue_code: code,
    batch_id: options.batch?.id ?? null,
    scopes: options.batch ? [] : null,
    all_scopes: options.batch ? false : null,
  });
}

function speculative(b: StoryBatch, startedAt: number, end?: { at: number; conclusion: string }) {
  return {
    number: b.draft,
    in_place: false,
    checks_timed_out: end?.conclusion === 'timed_out',
    checks_conclusion: end?.conclusion ?? 'pending',
    checks_started_at: iso(startedAt),
    checks_ended_at: end ? iso(end.at) : null,
    unsuccessful_checks: [],
  };
}

const batchFields = (s: Stay, b: StoryBatch) => ({ session_id: s.session, batch_id: b.id, train_car_id: b.id, batch_name: `#${b.draft} (${b.stays.length} PR)` });
const scopeFields = { scopes: [], parent_batch_ids: [], all_scopes: false };

/** checks_start of a batch attempt, one event per pull request. */
export function checksStart(b: StoryBatch, at: number, retry = 0): IngestEventInput[] {
  return b.stays.map((s) =>
    envelope('action.queue.checks_start', at, s.base, s.pull, {
      ...queued(s),
      start_reason: retry > 0 ? `Checks retried (attempt ${retry + 1})` : 'First time checking',
      speculative_check_pull_request: speculative(b, at),
      pull_request_numbers: b.stays.map((x) => x.pull),
      ...scopeFields,
      previous_batch_id: null,
      previous_batch_name: null,
      ...batchFields(s, b),
    }),
  );
}

/** checks_end of the attempt started at `startedAt`, one event per pull request. */
export function checksEnd(b: StoryBatch, startedAt: number, at: number, conclusion: string, options: { retry?: number; abortCode?: string } = {}): IngestEventInput[] {
  return b.stays.map((s) =>
    envelope('action.queue.checks_end', at, s.base, s.pull, {
      aborted: options.abortCode !== undefined,
      abort_code: options.abortCode ?? null,
      abort_reason: options.abortCode ? `Stopped: ${options.abortCode}` : null,
      abort_status: options.abortCode ? 'REEMBARKED' : 'DEFINITIVE',
      ...queued(s),
      retry_attempt: options.retry ?? 0,
      max_retries: 1,
      speculative_check_pull_request: speculative(b, startedAt, { at, conclusion }),
      pull_request_numbers: b.stays.map((x) => x.pull),
      ...scopeFields,
      ...batchFields(s, b),
    }),
  );
}

export function bisectionStart(b: StoryBatch, at: number, depth: number): IngestEventInput[] {
  return b.stays.map((s) =>
    envelope('action.queue.batch_bisection_start', at, s.base, s.pull, {
      queue_name: s.queue,
      priority_rule_name: s.priority,
      original_batch_pr_numbers: b.stays.map((x) => x.pull),
      batch_size_before_split: b.stays.length,
      number_of_sub_batches: 2,
      bisection_depth: depth,
      is_top_level: depth === 1,
      ...batchFields(s, b),
    }),
  );
}

export function bisectionEnd(b: StoryBatch, at: number, culprits: number[]): IngestEventInput[] {
  return b.stays.map((s) =>
    envelope('action.queue.batch_bisection_end', at, s.base, s.pull, {
      queue_name: s.queue,
      priority_rule_name: s.priority,
      original_batch_pr_numbers: b.stays.map((x) => x.pull),
      culprit_found: culprits.length > 0,
      culprit_pr_numbers: culprits,
      confirmed_culprit_pr_numbers: culprits,
      dropped_unverified_pr_numbers: null,
      remaining_pr_numbers: b.stays.map((x) => x.pull).filter((n) => !culprits.includes(n)),
      max_failure_resolution_reached: false,
      ...batchFields(s, b),
    }),
  );
}

/** The size of a queue after a change, as action.queue.change records it. */
export const size = (at: number, value: number, options: { base?: string; queue?: string } = {}) =>
  envelope('action.queue.change', at, options.base ?? 'main', null, { queue_name: options.queue ?? 'default', priority_rule_name: null, size: value });

/** The batches running checks after a change, as action.queue.checks.change records it. */
export const running = (at: number, value: number, options: { base?: string; queue?: string } = {}) =>
  envelope('action.queue.checks.change', at, options.base ?? 'main', null, { queue_name: options.queue ?? 'default', running_checks: value });
