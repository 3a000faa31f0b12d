// The batch's branch and check pull request are ready and its checks run: preparing → running.
// Anything else (aborted meanwhile, reported twice) changes nothing.
import type { QueueState, QueueTransition } from './model.ts';
import { TransitionDraft } from './transition-draft.ts';

export function markChecksStarted(state: QueueState, batchId: string, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  if (draft.batch(batchId)?.phase === 'preparing') draft.setPhase(batchId, 'running', { checksStartedAt: now });
  return draft.finish();
}
