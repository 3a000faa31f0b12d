// What a failed or timed-out check attempt leads to (DESIGN §10). A failure under a parent whose
// result is unknown parks (the parent may be the cause); otherwise the attempt is retried while
// retries remain, then a batch of one entry names its culprit and a larger one bisects. A
// timeout is not a verdict on the changes: after its retries, the entries leave CHECKS_TIMEOUT.
// Either way the batches depending on the failed one are aborted and their entries requeued.
import { abortDependents } from './abort-batches.ts';
import { UNRESOLVED_PHASES } from './batch-phases.ts';
import { recordCulprit, splitBatch } from './bisection.ts';
import type { Batch } from './model.ts';
import { queueRule } from './queue-rule.ts';
import type { TransitionDraft } from './transition-draft.ts';

export function handleFailure(draft: TransitionDraft, batchId: string): void {
  const batch = draft.requireBatch(batchId);
  if (hasUnresolvedParent(draft, batch)) {
    if (batch.phase !== 'parked') draft.setPhase(batchId, 'parked');
    return;
  }
  if (retryIfAllowed(draft, batch)) return;
  if (batch.entryIds.length === 1) {
    const culprit = batch.entryIds[0] as string;
    draft.setPhase(batchId, 'failed');
    draft.leave(culprit, 'CHECKS_FAILED', batchId);
    recordCulprit(draft, batchId, culprit);
    abortDependents(draft, [batchId], 'BATCH_AHEAD_FAILED');
    return;
  }
  abortDependents(draft, [batchId], 'BATCH_AHEAD_FAILED');
  splitBatch(draft, batchId);
}

export function handleTimeout(draft: TransitionDraft, batchId: string): void {
  const batch = draft.requireBatch(batchId);
  if (retryIfAllowed(draft, batch)) return;
  draft.setPhase(batchId, 'failed');
  for (const entryId of batch.entryIds) draft.leave(entryId, 'CHECKS_TIMEOUT', batchId);
  abortDependents(draft, [batchId], 'BATCH_AHEAD_FAILED');
}

/** A parent still checking, waiting for a slot, parked or bisecting: its verdict is not known. */
export function hasUnresolvedParent(draft: TransitionDraft, batch: Batch): boolean {
  return batch.parentIds.some((id) => {
    const parent = draft.batch(id);
    return parent !== undefined && UNRESOLVED_PHASES.has(parent.phase);
  });
}

function retryIfAllowed(draft: TransitionDraft, batch: Batch): boolean {
  if (batch.retries >= queueRule(draft.state.config, batch.queueRule).max_checks_retries) return false;
  const retries = batch.retries + 1;
  // A running batch keeps its check slot; a parked one holds none and waits for one.
  const phase = batch.phase === 'parked' ? 'pending' : 'preparing';
  draft.updateBatch(batch.id, { phase, retries, checksStartedAt: null, checksEndedAt: null });
  draft.record({ kind: 'batch_retried', batchId: batch.id, retries, phase });
  return true;
}
