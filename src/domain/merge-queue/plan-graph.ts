// The batches of one plan, stored and proposed, in columns indexed by plan order (a batch is its
// index). A re-plan of ten thousand entries makes thousands of batches that all live until the
// plan is returned, so what the planner keeps per batch for itself is what the young-generation
// GC copies: columns sized once (typed arrays for numbers and flags) keep that to nothing.
import type { Batch, BatchStatusCode, QueueEntry, ScopeSet } from './model.ts';

export class PlanGraph {
  size = 0;
  readonly ids: string[];
  readonly queueRules: string[];
  readonly scopes: (readonly string[])[];
  readonly allScopes: Uint8Array;
  /** How the dependency graph treats it: a parallel barrier, or any batch of a serial queue. */
  readonly barrier: Uint8Array;
  readonly stored: (Batch | null)[];
  // Proposed batches: their entries as a list of queue positions (first, next..., last), so a
  // batch's entries cost no array until the plan returns them.
  readonly firstPosition: Int32Array;
  readonly lastPosition: Int32Array;
  readonly entryCount: Int32Array;
  /** Queue position → the next position in the same batch, or -1. */
  readonly nextPosition: Int32Array;
  /** A failure ahead (parked, bisecting) holds it back. */
  readonly held: Uint8Array;
  /** Stored, or listed in this plan's toStart. */
  readonly startedOrStarting: Uint8Array;
  readonly status: BatchStatusCode[];
  /** For a filling batch: when it starts at the latest; NaN otherwise. */
  readonly startsAt: Float64Array;
  // Parents that are themselves in the plan (a merged parent is not), as ranges of one flat
  // column: a batch's parents are fixed when it is added.
  private readonly parentStart: Int32Array;
  private readonly parentEnd: Int32Array;
  private parentFlat = new Int32Array(1024);
  private parentLength = 0;

  /** At most `storedCount + plannableCount` batches: stored ones, then one per plannable entry. */
  constructor(storedCount: number, plannableCount: number) {
    const capacity = storedCount + plannableCount;
    this.ids = new Array<string>(capacity);
    this.queueRules = new Array<string>(capacity);
    this.scopes = new Array<readonly string[]>(capacity);
    this.allScopes = new Uint8Array(capacity);
    this.barrier = new Uint8Array(capacity);
    this.stored = new Array<Batch | null>(capacity);
    this.firstPosition = new Int32Array(capacity).fill(-1);
    this.lastPosition = new Int32Array(capacity).fill(-1);
    this.entryCount = new Int32Array(capacity);
    this.nextPosition = new Int32Array(plannableCount).fill(-1);
    this.held = new Uint8Array(capacity);
    this.startedOrStarting = new Uint8Array(capacity);
    this.status = new Array<BatchStatusCode>(capacity);
    this.startsAt = new Float64Array(capacity).fill(Number.NaN);
    this.parentStart = new Int32Array(capacity);
    this.parentEnd = new Int32Array(capacity);
  }

  /** Adds a stored batch; then its parents (beginParents, addParent, endParents). */
  addStored(batch: Batch, barrier: boolean): number {
    const index = this.addBatch(batch.id, batch.queueRule, batch.scopes, batch.allScopes, barrier);
    this.stored[index] = batch;
    this.startedOrStarting[index] = 1;
    return index;
  }

  /** Adds a proposed batch of one entry (more may join); then its parents. */
  addProposed(entry: QueueEntry, scopeSet: ScopeSet, barrier: boolean, position: number): number {
    const index = this.addBatch('', entry.queueRule, scopeSet.scopes, scopeSet.allScopes, barrier);
    this.stored[index] = null;
    this.firstPosition[index] = position;
    this.lastPosition[index] = position;
    this.entryCount[index] = 1;
    return index;
  }

  /** Adds the entry at `position` (later in queue order than its entries) to a proposed batch. */
  join(batch: number, position: number): void {
    this.nextPosition[this.lastPosition[batch] as number] = position;
    this.lastPosition[batch] = position;
    this.entryCount[batch] = (this.entryCount[batch] as number) + 1;
  }

  /** Calls `visit` with the queue position of each entry of a proposed batch, in order. */
  forEachPosition(batch: number, visit: (position: number) => void): void {
    for (let position = this.firstPosition[batch] as number; position !== -1; position = this.nextPosition[position] as number) visit(position);
  }

  /** Parents of the batch added last, once each. */
  beginParents(): void {
    this.parentStart[this.size - 1] = this.parentLength;
  }

  addParent(parent: number): void {
    for (let i = this.parentStart[this.size - 1] as number; i < this.parentLength; i++) if (this.parentFlat[i] === parent) return;
    if (this.parentLength === this.parentFlat.length) {
      const grown = new Int32Array(this.parentFlat.length * 2);
      grown.set(this.parentFlat);
      this.parentFlat = grown;
    }
    this.parentFlat[this.parentLength++] = parent;
  }

  endParents(): void {
    this.parentEnd[this.size - 1] = this.parentLength;
  }

  parentCount(batch: number): number {
    return (this.parentEnd[batch] as number) - (this.parentStart[batch] as number);
  }

  parentAt(batch: number, i: number): number {
    return this.parentFlat[(this.parentStart[batch] as number) + i] as number;
  }

  private addBatch(id: string, queueRule: string, scopes: readonly string[], allScopes: boolean, barrier: boolean): number {
    const index = this.size++;
    this.ids[index] = id;
    this.queueRules[index] = queueRule;
    this.scopes[index] = scopes;
    this.allScopes[index] = allScopes ? 1 : 0;
    this.barrier[index] = barrier ? 1 : 0;
    this.status[index] = 'waiting_for_checks_slot';
    return index;
  }
}
