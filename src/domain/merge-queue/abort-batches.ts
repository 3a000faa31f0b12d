// Stopping batches before their result: a batch ahead failed, an entry left, a reset. An aborted
// batch's entries go back to the queue (REEMBARKED); a bisecting batch ends its bisection first,
// and its entries go back through its sub-batches, which are aborted with it.
import type { Batch } from './model.ts';
import { endBisection } from './bisection.ts';
import { viewStoredBatches } from './stored-batches.ts';
import type { TransitionDraft } from './transition-draft.ts';

/**
 * The unfinished batches whose checks include a root's changes (children through parent links,
 * transitively) or that are part of a root's bisection (its sub-batches); the roots excluded.
 */
export function dependentBatchIds(batches: readonly Batch[], rootIds: Iterable<string>): Set<string> {
  const children = new Map<string, string[]>();
  const link = (from: string, to: string): void => {
    const list = children.get(from);
    if (list) list.push(to);
    else children.set(from, [to]);
  };
  for (const batch of batches) {
    for (const parentId of batch.parentIds) link(parentId, batch.id);
    if (batch.bisection) link(batch.bisection.of, batch.id);
  }
  const roots = new Set(rootIds);
  const found = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const child of children.get(id) ?? []) {
      if (found.has(child) || roots.has(child)) continue;
      found.add(child);
      stack.push(child);
    }
  }
  return found;
}

/** Aborts the given unfinished batches in plan order, each with its code. */
export function abortBatches(draft: TransitionDraft, ids: ReadonlySet<string>, codeOf: (batchId: string) => string): void {
  const ordered = viewStoredBatches(draft.unfinishedBatches()).ordered.filter((batch) => ids.has(batch.id));
  for (const batch of ordered) {
    if (batch.phase === 'bisecting') endBisection(draft, batch.id);
    draft.updateBatch(batch.id, { phase: 'aborted' });
    draft.record({ kind: 'batch_aborted', batchId: batch.id, code: codeOf(batch.id), status: 'REEMBARKED', phaseBefore: batch.phase });
    if (batch.phase === 'bisecting') continue;
    for (const entryId of batch.entryIds) {
      if (draft.entry(entryId)) draft.record({ kind: 'entry_requeued', entryId });
    }
  }
}

/** Aborts every batch depending on the roots (see dependentBatchIds) with one code. */
export function abortDependents(draft: TransitionDraft, rootIds: Iterable<string>, code: string): void {
  const ids = dependentBatchIds(draft.unfinishedBatches(), rootIds);
  if (ids.size > 0) abortBatches(draft, ids, () => code);
}
