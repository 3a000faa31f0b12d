// The public MergeQueueDequeueImpact of removing one entry now: the batches whose checks would
// be stopped and restarted (the one checking it and those depending on it; a bisecting batch
// counts as its halves), and the other pull requests that would be re-embarked. Computed by
// running the removal, so it can never disagree with what a dequeue does. No stacked pull
// requests exist here, so nothing cascades.
import type { QueueState } from './model.ts';
import { removeEntry } from './remove-entry.ts';

export interface DequeueImpact {
  interrupted_batches: number;
  rechecked_pull_requests: number;
  cascaded_pull_requests: number;
}

export function dequeueImpact(state: QueueState, entryId: string, now: number): DequeueImpact {
  const { changes } = removeEntry(state, entryId, 'PR_MANUALLY_DEQUEUED', now);
  let interrupted = 0;
  let rechecked = 0;
  for (const change of changes) {
    if (change.kind === 'batch_aborted' && change.phaseBefore !== 'bisecting') interrupted++;
    if (change.kind === 'entry_requeued') rechecked++;
  }
  return { interrupted_batches: interrupted, rechecked_pull_requests: rechecked, cascaded_pull_requests: 0 };
}
