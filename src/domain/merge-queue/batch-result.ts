// A running batch's checks concluded (the executor read it from the platform; the simulation
// drew it). A report for a batch that is not running (aborted meanwhile, or reported twice)
// changes nothing, so the executor may deliver results at least once.
import { handleFailure, handleTimeout } from './batch-failure.ts';
import type { BatchResult, QueueState, QueueTransition } from './model.ts';
import { settleQueue } from './settle-queue.ts';
import { skipIntermediateResults } from './skip-intermediate.ts';
import { TransitionDraft } from './transition-draft.ts';

const CONCLUSION = { passed: 'success', failed: 'failure', timed_out: 'timed_out' } as const;

export function applyBatchResult(state: QueueState, batchId: string, result: BatchResult, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  const batch = draft.batch(batchId);
  if (!batch || batch.phase !== 'running') return draft.finish();
  draft.record({ kind: 'checks_ended', batchId, conclusion: CONCLUSION[result.kind], retries: batch.retries, at: now });
  draft.updateBatch(batchId, { checksEndedAt: now });
  if (result.kind === 'passed') {
    draft.setPhase(batchId, 'passed');
    skipIntermediateResults(draft, batchId);
  }
  else if (result.kind === 'failed') handleFailure(draft, batchId);
  else handleTimeout(draft, batchId);
  settleQueue(draft);
  return draft.finish();
}
