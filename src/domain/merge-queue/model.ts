// The merge queue's state as the pure planner and transitions see it (DESIGN.md §9–10). No I/O
// here: storage loads these values, the plan and the transitions compute from them, storage
// writes back what changed. Times are milliseconds since the epoch; pull request numbers bigint.

export type QueueMode = 'serial' | 'parallel' | 'isolated';
export type Priority = 'high' | 'medium' | 'low';
export type MergeMethod = 'merge' | 'squash' | 'rebase' | 'fast-forward';

/** The configuration in its wire form (snake_case, as the API takes it), every default filled in. */
export interface MergeQueueConfig {
  merge_queue: {
    mode: QueueMode;
    max_parallel_checks: number;
    skip_intermediate_results: boolean;
    reset_on_external_merge: 'always' | 'never';
  };
  queue_rules: QueueRuleConfig[];
  priority_rules: PriorityRuleConfig[];
  scopes: { missing: 'wait' | 'barrier'; wait_seconds: number; barrier_files?: unknown };
}

export interface QueueRuleConfig {
  name: string;
  batch_size: number | { min: number; max: number };
  batch_max_wait_time: number;
  checks_timeout: number;
  max_checks_retries: number;
  merge_method: MergeMethod;
  required_checks: string[];
  /** Base branches the rule covers; empty covers every branch. */
  branches: string[];
}

export interface PriorityRuleConfig {
  name: string;
  priority: Priority;
  labels: string[];
}

/** A scope report as the plan reads it; scopes sorted and unique. */
export interface ScopeSet {
  scopes: readonly string[];
  allScopes: boolean;
}

/** A pull request's current stay in one queue (repository × base branch). */
export interface QueueEntry {
  /** One uuid per stay: also the `session_id` of every event of the stay. */
  id: string;
  number: bigint;
  headSha: string;
  queueRule: string;
  priority: Priority;
  priorityRuleName: string | null;
  /** `queued_at`. */
  enteredAt: number;
  /** Effective scopes (DESIGN §5) when planned; null while nothing is reported. */
  scopes: ScopeSet | null;
  /** Since when the entry has waited for a report: entry time, or its last head move. */
  scopesAwaitedSince: number;
  /** Times the entry was embarked in a batch before (0 the first time): keeps batch ids unique. */
  embarkCount: number;
}

/**
 * A batch's life once it has started (is stored). Planned batches not yet started are not
 * stored: the plan proposes them afresh each time.
 * - pending: stored but waiting for a check slot: a bisection's sub-batch, or a parked batch
 *   being retried (the plan lists it in `toStart` when a slot is free; it then becomes preparing)
 * - preparing: its branch and check pull request are being built
 * - running: checks run on its head
 * - passed: its checks succeeded; it merges once its parents merged and nothing holds it
 * - parked: its checks failed while a parent's result was unknown; it waits for its parents (a
 *   parent that fails aborts it, parents that all pass make the failure its own)
 * - bisecting: it failed with several entries; its sub-batches are being checked
 * - failed: it failed; its culprits left (bisection done, or a single entry)
 * - merged: every entry merged
 * - aborted: stopped before a result (a batch ahead failed, an entry left, a reset); its entries
 *   not leaving went back to the queue to be planned again
 */
export type BatchPhase = 'pending' | 'preparing' | 'running' | 'passed' | 'parked' | 'bisecting' | 'failed' | 'merged' | 'aborted';

export interface Batch {
  id: string;
  /** Display name, recorded in events as `batch_name`. */
  name: string;
  queueRule: string;
  /** Entry ids in queue order. */
  entryIds: readonly string[];
  /** Batches whose entries this one's checks include (their closure), DESIGN §9. */
  parentIds: readonly string[];
  scopes: readonly string[];
  allScopes: boolean;
  phase: BatchPhase;
  startedAt: number;
  checksStartedAt: number | null;
  checksEndedAt: number | null;
  /** Check attempts that failed and were retried (max_checks_retries). */
  retries: number;
  /** Set on a sub-batch made by bisection: the batch it splits and how deep (1 for the halves of
   * a batch that is not itself a sub-batch). */
  bisection: { of: string; depth: number } | null;
  /** On a bisecting batch: the entries its bisection found guilty so far (they have left);
   * empty otherwise. Kept on the batch so the end of a bisection can name every culprit. */
  culpritEntryIds: readonly string[];
  /** The executor has begun merging this passed batch on the platform: it finishes, whatever
   * pause or freeze comes after, and its pull requests can no longer be dequeued by hand. */
  mergeStarted?: boolean;
  /** Passed on a later batch's result, not its own (skip_intermediate_results): its entries
   * leave PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED. */
  intermediateSkipped?: boolean;
}

/** Whatever holds merges: a pause (nothing starts or merges) or a freeze matching the base. */
export interface QueueHolds {
  paused: boolean;
  frozen: boolean;
}

/** Everything the plan reads. */
export interface QueueState {
  /** Identifies the queue; part of the derived ids of proposed batches. */
  queueId: string;
  baseRef: string;
  config: MergeQueueConfig;
  /** Active entries (still in the queue), in any order. */
  entries: readonly QueueEntry[];
  /** Stored batches not yet finished (phases pending, preparing, running, passed, parked,
   * bisecting). Finished ones (merged, failed, aborted) are not needed: the transitions drop them
   * from the state they return, and a parent id missing from this list counts as merged. */
  batches: readonly Batch[];
  holds: QueueHolds;
}

/** The public `BatchStatus.code` values (reference MergeQueueStatus). */
export type BatchStatusCode =
  | 'running'
  | 'bisecting'
  | 'preparing'
  | 'failed'
  | 'merged'
  | 'waiting_for_merge'
  | 'waiting_for_previous_batches'
  | 'waiting_for_requeue'
  | 'waiting_schedule'
  | 'waiting_for_batch'
  | 'waiting_for_checks_slot'
  | 'frozen';

/** A batch of the plan: a stored one (`stored: true`) or one proposed from waiting entries. */
export interface PlannedBatch {
  id: string;
  name: string;
  queueRule: string;
  entryIds: readonly string[];
  parentIds: readonly string[];
  scopes: readonly string[];
  allScopes: boolean;
  stored: boolean;
  status: BatchStatusCode;
  /** For a filling batch (`waiting_for_batch`): when it starts at the latest. */
  startsAt: number | null;
  /** Sub-batches of a bisecting batch. */
  subBatchIds: readonly string[];
  /** On a sub-batch: the bisecting batch it is part of (the public status nests it there). */
  subBatchOf: string | null;
}

/** Why an entry is not in any batch of the plan. */
export interface WaitingEntry {
  entryId: string;
  reason: 'waiting_for_scopes';
  /** When it is planned anyway (as a barrier). */
  until: number;
}

/** The plan: a pure function of QueueState and the clock (DESIGN §9). */
export interface QueuePlan {
  /** Stored batches, then proposed ones, in plan order. */
  batches: readonly PlannedBatch[];
  waiting: readonly WaitingEntry[];
  /** Batches to start now: proposed ones ready, and stored pending sub-batches, within
   * max_parallel_checks, queue not paused; in plan order (parents first). */
  toStart: readonly string[];
  /** Passed batches to merge now: every parent merged, no pause or freeze holds them. */
  toMerge: readonly string[];
  /** Running batches whose `checks_timeout` has passed: the executor reports them timed out. */
  toTimeOut: readonly string[];
  /** Scope → ids of the batches holding it, in plan order (public `scope_queues`). */
  scopeQueues: Readonly<Record<string, readonly string[]>>;
  /** The next instant at which the plan changes by the clock alone; null when none. */
  wakeAt: number | null;
}

/** What a batch's checks concluded (the executor reads it from the platform; the simulation draws it). */
export type BatchResult = { kind: 'passed' } | { kind: 'failed' } | { kind: 'timed_out' };

/**
 * One change the transitions made, in order. Storage applies them in one transaction and writes
 * the events they imply; the executor acts on them (build a branch, close a draft, merge).
 */
export type QueueChange =
  /** A proposed batch was stored (phase preparing); its entries' embarkCount went up by one. */
  | { kind: 'batch_started'; batch: Batch }
  | { kind: 'batch_phase'; batchId: string; phase: BatchPhase; at: number }
  /** A check attempt ended (first change of every result): `checks_end` with its conclusion;
   * `retries` is the batch's count of retried attempts before this one. */
  | { kind: 'checks_ended'; batchId: string; conclusion: 'success' | 'failure' | 'timed_out'; retries: number; at: number }
  /** Its checks failed and are run again (a fresh check pull request): `phase` preparing (it
   * keeps its check slot) or pending (it was parked, so holds no slot and waits for one);
   * checksStartedAt null, `retries` its new count. */
  | { kind: 'batch_retried'; batchId: string; retries: number; phase: 'preparing' | 'pending' }
  /** Stopped before a result; `REEMBARKED` entries went back to the queue. `phaseBefore` tells
   * whether checks were interrupted (preparing, running) or had ended (passed, parked...). */
  | { kind: 'batch_aborted'; batchId: string; code: string; status: 'REEMBARKED' | 'DEFINITIVE'; phaseBefore: BatchPhase }
  /** Passed on the result of `byBatchId`, a later batch holding its changes (skip_intermediate_results);
   * checks still running end INTERMEDIATE_RESULTS_SKIPPED. A `batch_phase` (passed) follows. */
  | { kind: 'intermediate_skipped'; batchId: string; phaseBefore: BatchPhase; byBatchId: string }
  /** A bisecting batch's `culpritEntryIds` grew (a culprit found in one of its sub-batches). */
  | { kind: 'batch_culprits'; batchId: string; culpritEntryIds: readonly string[] }
  /** The batch now bisects; its sub-batches are stored pending. `depth` is theirs (1 at the top). */
  | { kind: 'bisection_started'; batchId: string; subBatches: readonly Batch[]; depth: number }
  /** Every sub-batch resolved (or the bisection was aborted): culprits found, and the batch's
   * other entries (merging through passed sub-batches, or back in the queue). */
  | { kind: 'bisection_ended'; batchId: string; culpritEntryIds: readonly string[]; remainingEntryIds: readonly string[] }
  /** The entry's stay ended: a spec §6.4 dequeue code, or PR_MERGED. */
  | { kind: 'entry_left'; entryId: string; code: string; batchId: string | null }
  /** Back among the waiting entries, to be planned again. */
  | { kind: 'entry_requeued'; entryId: string };

export interface QueueTransition {
  state: QueueState;
  changes: readonly QueueChange[];
}
