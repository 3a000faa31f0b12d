// A working copy of the queue's state that a transition edits while it records each change in
// order. The input state is never modified; `finish` returns the new state without the batches
// that finished (merged, failed, aborted), as QueueState asks.
import { UNFINISHED_PHASES } from './batch-phases.ts';
import type { Batch, BatchPhase, QueueChange, QueueEntry, QueueState, QueueTransition } from './model.ts';

export class TransitionDraft {
  readonly changes: QueueChange[] = [];
  private readonly batchById: Map<string, Batch>;
  /** Entries changed by this transition; null once left. */
  private readonly entryEdits = new Map<string, QueueEntry | null>();
  private baseEntryById: Map<string, QueueEntry> | null = null;

  constructor(
    readonly state: QueueState,
    readonly now: number,
  ) {
    this.batchById = new Map(state.batches.map((batch) => [batch.id, batch]));
  }

  batch(id: string): Batch | undefined {
    return this.batchById.get(id);
  }

  /** Batches still unfinished, in the order they were stored. */
  unfinishedBatches(): Batch[] {
    return [...this.batchById.values()].filter((batch) => UNFINISHED_PHASES.has(batch.phase));
  }

  entry(id: string): QueueEntry | undefined {
    const edited = this.entryEdits.get(id);
    if (edited !== undefined) return edited ?? undefined;
    this.baseEntryById ??= new Map(this.state.entries.map((entry) => [entry.id, entry]));
    return this.baseEntryById.get(id);
  }

  record(change: QueueChange): void {
    this.changes.push(change);
  }

  putBatch(batch: Batch): void {
    this.batchById.set(batch.id, batch);
  }

  /** Edits a batch without recording anything (the caller records the change that says it). */
  updateBatch(id: string, fields: Partial<Batch>): Batch {
    const next = { ...this.requireBatch(id), ...fields };
    this.batchById.set(id, next);
    return next;
  }

  /** Moves a batch to a phase and records it. */
  setPhase(id: string, phase: BatchPhase, fields: Partial<Batch> = {}): Batch {
    const next = this.updateBatch(id, { ...fields, phase });
    this.record({ kind: 'batch_phase', batchId: id, phase, at: this.now });
    return next;
  }

  putEntry(entry: QueueEntry): void {
    this.entryEdits.set(entry.id, entry);
  }

  /** The entry's stay ends with this code. */
  leave(entryId: string, code: string, batchId: string | null): void {
    if (!this.entry(entryId)) return;
    this.entryEdits.set(entryId, null);
    this.record({ kind: 'entry_left', entryId, code, batchId });
  }

  requireBatch(id: string): Batch {
    const batch = this.batchById.get(id);
    if (!batch) throw new Error(`merge queue: no batch ${id} in the state`);
    return batch;
  }

  finish(): QueueTransition {
    const batches = this.unfinishedBatches();
    const entries =
      this.entryEdits.size === 0
        ? this.state.entries
        : this.state.entries.flatMap((entry) => {
            const edited = this.entryEdits.get(entry.id);
            return edited === undefined ? [entry] : edited === null ? [] : [edited];
          });
    return { state: { ...this.state, batches, entries }, changes: this.changes };
  }
}
