// A passed batch merged (DESIGN §10): each of its entries leaves PR_MERGED (or, passed on a later
// batch's result, PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED). Refused (an Error,
// a caller's bug) unless the plan would list it in toMerge: passed, every parent merged, no
// pause or freeze (unless its merge began before them). This is the one gate that keeps a batch from merging unchecked or too early.
import { UNFINISHED_PHASES } from './batch-phases.ts';
import type { QueueState, QueueTransition } from './model.ts';
import { TransitionDraft } from './transition-draft.ts';

export function mergeBatch(state: QueueState, batchId: string, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  const batch = draft.requireBatch(batchId);
  if (batch.phase !== 'passed') throw new Error(`merge queue: batch ${batchId} is ${batch.phase}, not passed`);
  const waitingParent = batch.parentIds.find((id) => {
    const parent = draft.batch(id);
    return parent !== undefined && UNFINISHED_PHASES.has(parent.phase);
  });
  if (waitingParent) throw new Error(`merge queue: batch ${batchId} cannot merge before its parent ${waitingParent}`);
  if (!batch.mergeStarted && (state.holds.paused || state.holds.frozen)) throw new Error(`merge queue: batch ${batchId} is held by a pause or freeze`);
  draft.setPhase(batchId, 'merged');
  const code = batch.intermediateSkipped ? 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED' : 'PR_MERGED';
  for (const entryId of batch.entryIds) draft.leave(entryId, code, batchId);
  return draft.finish();
}
