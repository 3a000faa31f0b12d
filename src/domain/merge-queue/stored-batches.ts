// The stored batches as the plan walks them: unfinished ones only, parents before children (and
// a bisecting batch before its sub-batches), and which sub-batches are hidden behind the
// bisection they belong to (later batches depend on the bisecting batch, not on its halves).
import { UNFINISHED_PHASES } from './batch-phases.ts';
import type { Batch } from './model.ts';

export interface StoredBatches {
  ordered: readonly Batch[];
  byId: ReadonlyMap<string, Batch>;
  /** Sub-batches whose bisecting batch is still in the state. */
  hidden: ReadonlySet<string>;
}

export function viewStoredBatches(batches: readonly Batch[]): StoredBatches {
  const byId = new Map<string, Batch>();
  for (const batch of batches) if (UNFINISHED_PHASES.has(batch.phase)) byId.set(batch.id, batch);
  const seeds = [...byId.values()].sort((a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ordered: Batch[] = [];
  const visited = new Set<string>();
  const visit = (batch: Batch): void => {
    if (visited.has(batch.id)) return;
    visited.add(batch.id);
    for (const parentId of batch.parentIds) {
      const parent = byId.get(parentId);
      if (parent) visit(parent);
    }
    const split = batch.bisection ? byId.get(batch.bisection.of) : undefined;
    if (split) visit(split);
    ordered.push(batch);
  };
  for (const batch of seeds) visit(batch);
  const hidden = new Set<string>();
  for (const batch of ordered) if (batch.bisection && byId.has(batch.bisection.of)) hidden.add(batch.id);
  return { ordered, byId, hidden };
}
