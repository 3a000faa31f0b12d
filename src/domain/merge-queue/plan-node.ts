// A batch while the plan is being computed: stored or proposed, with links to its parents.
import type { Batch, BatchStatusCode, QueueEntry } from './model.ts';

export interface PlanNode {
  /** Known at once for stored batches; set for proposed ones once their entries are final. */
  id: string;
  name: string;
  queueRule: string;
  entryIds: readonly string[];
  /** Proposed batches only: their entries, in queue order. */
  entries: QueueEntry[];
  parentIds: readonly string[];
  /** The parents that are themselves in the plan (a merged parent is not). */
  parents: PlanNode[];
  scopes: readonly string[];
  allScopes: boolean;
  /** How the dependency graph treats it: a parallel barrier, or any batch of a serial queue. */
  barrier: boolean;
  stored: Batch | null;
  /** Position in plan order. */
  index: number;
  /** Proposed batches: queue position of the last entry, and the earliest entry time. */
  lastPosition: number;
  firstEnteredAt: number;
  /** A failure ahead (parked, bisecting) holds it back. */
  held: boolean;
  /** Stored, or listed in this plan's toStart. */
  startedOrStarting: boolean;
  status: BatchStatusCode;
  startsAt: number | null;
}

export function storedPlanNode(batch: Batch, index: number, barrier: boolean): PlanNode {
  return {
    id: batch.id,
    name: batch.name,
    queueRule: batch.queueRule,
    entryIds: batch.entryIds,
    entries: [],
    parentIds: batch.parentIds,
    parents: [],
    scopes: batch.scopes,
    allScopes: batch.allScopes,
    barrier,
    stored: batch,
    index,
    lastPosition: -1,
    firstEnteredAt: batch.startedAt,
    held: false,
    startedOrStarting: true,
    status: 'preparing',
    startsAt: null,
  };
}
