// Bisection of a failed batch of several entries (DESIGN §10). The first half L is checked on
// the failed batch's parents; the rest R on those parents plus L, so R re-checks the whole set:
// - L fails: a culprit is in L (L resolves it in turn); R depends on L and is aborted, its
//   entries go back to the queue;
// - L passes, R fails: a culprit is in R's own entries (R resolves it in turn);
// - both pass: no culprit (the first failure was flaky); both merge.
// A half of one entry that fails is a culprit. The bisection ends when no half is unresolved.
import { batchName, subBatchId } from './batch-identity.ts';
import { UNRESOLVED_PHASES } from './batch-phases.ts';
import type { Batch } from './model.ts';
import type { TransitionDraft } from './transition-draft.ts';

/** Splits a failed batch (its dependents already aborted) into two pending sub-batches. */
export function splitBatch(draft: TransitionDraft, batchId: string): void {
  const batch = draft.setPhase(batchId, 'bisecting');
  const depth = (batch.bisection?.depth ?? 0) + 1;
  const half = Math.ceil(batch.entryIds.length / 2);
  const first = subBatch(draft, batch, 'first', batch.entryIds.slice(0, half), batch.parentIds, depth);
  const rest = subBatch(draft, batch, 'rest', batch.entryIds.slice(half), [...batch.parentIds, first.id], depth);
  draft.putBatch(first);
  draft.putBatch(rest);
  draft.record({ kind: 'bisection_started', batchId, subBatches: [first, rest], depth });
}

function subBatch(draft: TransitionDraft, of: Batch, side: 'first' | 'rest', entryIds: string[], parentIds: readonly string[], depth: number): Batch {
  const numbers = entryIds.flatMap((id) => draft.entry(id)?.number ?? []);
  return {
    id: subBatchId(of.id, side),
    name: batchName(numbers),
    queueRule: of.queueRule,
    entryIds,
    parentIds,
    scopes: of.scopes,
    allScopes: of.allScopes,
    phase: 'pending',
    startedAt: draft.now,
    checksStartedAt: null,
    checksEndedAt: null,
    retries: 0,
    bisection: { of: of.id, depth },
    culpritEntryIds: [],
  };
}

/** A culprit found in a sub-batch counts for every bisection it is part of. */
export function recordCulprit(draft: TransitionDraft, leafBatchId: string, entryId: string): void {
  let splitId = draft.batch(leafBatchId)?.bisection?.of;
  while (splitId) {
    const split = draft.batch(splitId);
    if (!split || split.phase !== 'bisecting') break;
    const culpritEntryIds = [...split.culpritEntryIds, entryId];
    draft.updateBatch(split.id, { culpritEntryIds });
    draft.record({ kind: 'batch_culprits', batchId: split.id, culpritEntryIds });
    splitId = split.bisection?.of;
  }
}

/** Records the end of a bisection: culprits found, and every other entry of the batch. */
export function endBisection(draft: TransitionDraft, batchId: string): void {
  const batch = draft.requireBatch(batchId);
  const culprits = new Set(batch.culpritEntryIds);
  const remainingEntryIds = batch.entryIds.filter((id) => !culprits.has(id));
  draft.record({ kind: 'bisection_ended', batchId, culpritEntryIds: batch.culpritEntryIds, remainingEntryIds });
}

/** Ends one bisection whose sub-batches are all resolved; false when there is none. */
export function endOneResolvedBisection(draft: TransitionDraft): boolean {
  const unfinished = draft.unfinishedBatches();
  const open = new Set<string>();
  for (const batch of unfinished) if (batch.bisection && UNRESOLVED_PHASES.has(batch.phase)) open.add(batch.bisection.of);
  const done = unfinished.find((batch) => batch.phase === 'bisecting' && !open.has(batch.id));
  if (!done) return false;
  endBisection(draft, done.id);
  draft.setPhase(done.id, 'failed');
  return true;
}
