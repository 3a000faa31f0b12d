// One change to one merge queue: the queue row locked, its state loaded as the planner sees it,
// transitions applied and written back with their events in the same transaction (DESIGN §9).
// Everything that changes a queue (the API, webhooks, the executor) goes through here.
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { IngestEventInput } from '../../domain/events/index.ts';
import { planQueue } from '../../domain/merge-queue/plan-queue.ts';
import { queueChangeEvents, type CheckPullFacts } from '../../domain/merge-queue/queue-events.ts';
import type { Batch, MergeQueueConfig, QueuePlan, QueueState, QueueTransition } from '../../domain/merge-queue/model.ts';
import type { Database } from '../../storage/database.ts';
import type { QueuedPullFacts, QueueRow, StoredBatch } from '../../storage/queries/merge-queues.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';
import { recordEvents } from '../record-events.ts';
import { queueHolds, readMergeQueueConfig, type QueueHolds } from './controls.ts';
import type { BatchRun } from './batch-run.ts';

export interface QueueSessionOptions {
  trigger: string;
  now: number;
}

/** Extra facts the executor hands to a transition's events. */
export interface TransitionFacts {
  /** Entry id → the base head after its merge. */
  mergeShas?: ReadonlyMap<string, string>;
}

export class QueueSession {
  /** Batches stored for this queue, unfinished or touched during the session, with their runs. */
  readonly batches = new Map<string, StoredBatch>();
  /** What the read endpoints show of each queued pull request, read with the entries. */
  readonly pulls = new Map<bigint, QueuedPullFacts>();
  private plannedAt: QueuePlan | null = null;

  private constructor(
    readonly store: Store,
    readonly trx: Transaction<Database>,
    readonly repository: RepositoryIdentity,
    readonly queue: QueueRow,
    readonly config: MergeQueueConfig,
    readonly holds: QueueHolds,
    public state: QueueState,
    readonly now: number,
    readonly trigger: string,
  ) {}

  /** Locks (creating when missing) the queue of `baseRef` and loads it. */
  static async open(store: Store, trx: Transaction<Database>, repository: RepositoryIdentity, baseRef: string, options: QueueSessionOptions): Promise<QueueSession> {
    const queue = await store.mergeQueues.lockOrCreate(trx, repository.id, baseRef, randomUUID());
    return QueueSession.load(store, trx, repository, queue, options);
  }

  static async load(store: Store, trx: Transaction<Database>, repository: RepositoryIdentity, queue: QueueRow, options: QueueSessionOptions): Promise<QueueSession> {
    const pulls = new Map<bigint, QueuedPullFacts>();
    const [config, holds, entries, batches] = await Promise.all([
      readMergeQueueConfig(store, repository.id, trx),
      queueHolds(store, repository.id, queue.baseRef, new Date(options.now), trx),
      store.mergeQueues.activeEntries(queue.id, trx, pulls),
      store.mergeQueues.batches(queue.id, trx),
    ]);
    for (const batch of batches) batch.mergeStarted = (batch.run as BatchRun | null)?.mergingSince !== undefined;
    const state: QueueState = { queueId: queue.id, baseRef: queue.baseRef, config, entries, batches, holds: { paused: holds.paused, frozen: holds.frozen } };
    const session = new QueueSession(store, trx, repository, queue, config, holds, state, options.now, options.trigger);
    for (const batch of batches) session.batches.set(batch.id, batch);
    for (const [number, facts] of pulls) session.pulls.set(number, facts);
    return session;
  }

  plan(): QueuePlan {
    this.plannedAt ??= planQueue(this.state, this.now);
    return this.plannedAt;
  }

  runOf(batchId: string): BatchRun | null {
    return (this.batches.get(batchId)?.run as BatchRun | null | undefined) ?? null;
  }

  /** Stores the executor's progress on a batch (in this transaction). */
  async setRun(batchId: string, run: BatchRun): Promise<void> {
    await this.store.mergeQueues.setRun(this.trx, batchId, run);
    const batch = this.batches.get(batchId);
    if (batch) this.batches.set(batchId, { ...batch, run });
  }

  /** The entry's head becomes the one the queue's own update made (checks in place, head-update.ts). */
  async takeUpdatedHead(entryId: string, headSha: string): Promise<void> {
    await this.store.mergeQueues.takeUpdatedHead(this.trx, entryId, headSha);
    this.state = { ...this.state, entries: this.state.entries.map((entry) => (entry.id === entryId ? { ...entry, headSha } : entry)) };
    this.plannedAt = null;
  }

  /** Records how long a passed batch has been held by a freeze (seconds_waiting_for_freeze). */
  async setFrozen(batchId: string, frozenSince: number | null, frozenMs: number): Promise<void> {
    await this.store.mergeQueues.setFrozen(this.trx, batchId, frozenSince, frozenMs);
    const batch = this.batches.get(batchId);
    if (batch) this.batches.set(batchId, { ...batch, frozenSince, frozenMs });
  }

  /** Writes a transition and its events; the session's state becomes the transition's. */
  async apply(transition: QueueTransition, facts: TransitionFacts = {}): Promise<void> {
    if (transition.changes.length === 0 && transition.state === this.state) return;
    const before = this.state;
    await this.store.mergeQueues.applyTransition(this.trx, this.queue.id, before, transition, this.now);
    this.remember(transition);
    const events = queueChangeEvents(
      {
        baseRef: this.queue.baseRef,
        config: this.config,
        before,
        after: transition.state,
        now: this.now,
        trigger: this.trigger,
        batchOf: (id) => this.batches.get(id),
        checkPullOf: (id) => checkPullFacts(this.runOf(id)),
        freezeSecondsOf: (id) => Math.round((this.batches.get(id)?.frozenMs ?? 0) / 1000),
        mergeCommitShaOf: (entryId) => facts.mergeShas?.get(entryId) ?? null,
      },
      transition.changes,
    );
    this.state = transition.state;
    this.plannedAt = null;
    await this.record(events);
  }

  async record(events: IngestEventInput[]): Promise<void> {
    await recordEvents(this.store, this.trx, this.repository.id, events, new Date(this.now));
  }

  /** Marks the queue changed (and, when this session planned, when the clock next matters); call once at the end. */
  async finish(): Promise<void> {
    await this.store.mergeQueues.touch(this.trx, this.queue.id, this.plannedAt ? this.plannedAt.wakeAt : undefined);
  }

  private remember(transition: QueueTransition): void {
    const keep = (batch: Batch, finished: boolean) => {
      const known = this.batches.get(batch.id);
      // The state's batches are the rows as loaded: their run and freeze are what setRun and
      // setFrozen may have replaced since, in this session. Those come from what is known.
      const executor = known ? { run: known.run, frozenSince: known.frozenSince, frozenMs: known.frozenMs, cleaned: known.cleaned } : {};
      this.batches.set(batch.id, { frozenSince: null, frozenMs: 0, run: null, cleaned: false, ...known, ...batch, ...executor, finishedAt: finished ? this.now : null });
    };
    for (const change of transition.changes) {
      if (change.kind === 'batch_started') keep(change.batch, false);
      if (change.kind === 'bisection_started') for (const sub of change.subBatches) keep(sub, false);
    }
    const unfinished = new Set(transition.state.batches.map((b) => b.id));
    for (const batch of transition.state.batches) keep(batch, false);
    for (const change of transition.changes) {
      const id = 'batchId' in change ? change.batchId : null;
      if (id === null || unfinished.has(id)) continue;
      const known = this.batches.get(id);
      if (!known) continue;
      const phase = change.kind === 'batch_phase' ? change.phase : change.kind === 'batch_aborted' ? 'aborted' : known.phase;
      const checksEndedAt = change.kind === 'checks_ended' ? change.at : known.checksEndedAt;
      this.batches.set(id, { ...known, phase, checksEndedAt, finishedAt: this.now });
    }
  }
}

function checkPullFacts(run: BatchRun | null): CheckPullFacts | null {
  if (!run || run.checkPull === null) return null;
  return { number: BigInt(run.checkPull.number), inPlace: run.checkPull.inPlace, unsuccessfulChecks: run.unsuccessfulChecks };
}
