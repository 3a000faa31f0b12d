// skip_intermediate_results (the public configuration's meaning): a batch whose checks passed
// held the changes of every unmerged batch it depends on, so those need not wait for their own
// result, or even pass it: once a later batch holding them passes, they merge on its result.
// Each such batch ends INTERMEDIATE_RESULTS_SKIPPED (its running checks stop) and its pull
// requests leave PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED when they merge (merge-batch.ts); one
// that failed while a batch ahead of it was undecided (parked) merges too.
//
// A batch whose own checks fail is not held back for later batches that might still pass with
// it: with real culprits far more common than flaky runs, waiting for every later batch to fail
// too cost more than it saved (bench/merge-queue-simulation.ts --skip-intermediate both, issue 26).
import type { Batch } from './model.ts';
import { viewStoredBatches } from './stored-batches.ts';
import type { TransitionDraft } from './transition-draft.ts';

/** Phases of the batches a passed batch may vouch for. */
const SKIPPABLE = new Set(['running', 'parked']);

/** Marks the unfinished batches `passedId` depends on as passed on its result (none when the option is off). */
export function skipIntermediateResults(draft: TransitionDraft, passedId: string): void {
  if (!draft.state.config.merge_queue.skip_intermediate_results) return;
  const ancestors = unfinishedAncestors(draft, passedId).filter((batch) => batch.phase !== 'passed');
  // Only batches whose own commit was built and checked (running, or failed and parked): a
  // bisecting one's changes are checked through its halves, and one waiting for a slot or being
  // built again (a retry) has no commit of its own that its merge could use.
  if (ancestors.some((batch) => !SKIPPABLE.has(batch.phase))) return;
  for (const batch of ancestors) {
    draft.record({ kind: 'intermediate_skipped', batchId: batch.id, phaseBefore: batch.phase, byBatchId: passedId });
    draft.setPhase(batch.id, 'passed', { intermediateSkipped: true, checksEndedAt: batch.checksEndedAt ?? draft.now });
  }
}

/** The unfinished batches a batch depends on, through parent links, parents first. */
function unfinishedAncestors(draft: TransitionDraft, batchId: string): Batch[] {
  const unfinished = draft.unfinishedBatches();
  const byId = new Map(unfinished.map((batch) => [batch.id, batch]));
  const found = new Set<string>();
  const stack = [...(byId.get(batchId)?.parentIds ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const batch = byId.get(id);
    if (!batch || found.has(id)) continue;
    found.add(id);
    stack.push(...batch.parentIds);
  }
  return viewStoredBatches(unfinished).ordered.filter((batch) => found.has(batch.id));
}
