// An entry leaves the queue for a reason outside the checks (DESIGN §9–10): dequeued by a person
// (PR_MANUALLY_DEQUEUED), a push to its head (PULL_REQUEST_UPDATED), closed (PR_DEQUEUED),
// merged outside the queue (PR_MANUALLY_MERGED), its base changed (BASE_BRANCH_CHANGED), a
// conflict (CONFLICT_WITH_BASE_BRANCH, CONFLICT_WITH_PULL_AHEAD)... The batch checking it is
// aborted with that code and its other entries requeued; batches depending on that batch are
// aborted with PR_AHEAD_DEQUEUED. An entry that is not queued changes nothing.
import { abortBatches, dependentBatchIds } from './abort-batches.ts';
import { UNFINISHED_PHASES } from './batch-phases.ts';
import type { Batch, QueueState, QueueTransition } from './model.ts';
import { settleQueue } from './settle-queue.ts';
import { TransitionDraft } from './transition-draft.ts';

export function removeEntry(state: QueueState, entryId: string, code: string, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  if (!draft.entry(entryId)) return draft.finish();
  const batch = batchChecking(state.batches, entryId);
  draft.leave(entryId, code, batch?.id ?? null);
  if (batch) {
    const dependents = dependentBatchIds(draft.unfinishedBatches(), [batch.id]);
    abortBatches(draft, new Set([batch.id, ...dependents]), (id) => (id === batch.id ? code : 'PR_AHEAD_DEQUEUED'));
    settleQueue(draft);
  }
  return draft.finish();
}

/** The unfinished batch whose checks hold the entry now (a bisecting batch's are its halves'). */
export function batchChecking(batches: readonly Batch[], entryId: string): Batch | undefined {
  return batches.find((batch) => UNFINISHED_PHASES.has(batch.phase) && batch.phase !== 'bisecting' && batch.entryIds.includes(entryId));
}
