// A reset (MERGE_QUEUE_RESET): every unfinished batch is aborted and its entries requeued, to be
// planned again on the new base. The base moving outside the queue resets it when the
// configuration says `reset_on_external_merge: always`; with `never` nothing changes.
import { abortBatches } from './abort-batches.ts';
import type { QueueState, QueueTransition } from './model.ts';
import { TransitionDraft } from './transition-draft.ts';

export function resetQueue(state: QueueState, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  const all = new Set(draft.unfinishedBatches().map((batch) => batch.id));
  abortBatches(draft, all, () => 'MERGE_QUEUE_RESET');
  return draft.finish();
}

export function baseMovedOutside(state: QueueState, now: number): QueueTransition {
  if (state.config.merge_queue.reset_on_external_merge === 'never') return new TransitionDraft(state, now).finish();
  return resetQueue(state, now);
}
