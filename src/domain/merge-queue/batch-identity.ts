// Ids and names of batches the plan proposes. An id depends only on the queue, the entries and
// how often each was embarked before, so re-planning the same state proposes the same ids, and a
// set of entries that goes back to the queue and is embarked again gets a new one.
import { hashUuid } from './hash-uuid.ts';
import type { QueueEntry } from './model.ts';

export function proposedBatchId(queueId: string, entries: readonly QueueEntry[]): string {
  let text = queueId;
  for (const entry of entries) text += `|${entry.id}:${entry.embarkCount}`;
  return hashUuid(text);
}

/** A bisection's half: the split batch's id says which bisection, the side which half. */
export function subBatchId(splitBatchId: string, side: 'first' | 'rest'): string {
  return hashUuid(`${splitBatchId}|${side}`);
}

const NAMED_NUMBERS = 3;

/** `#12`, `#12 #15 #18`, `#12 #15 #18 +4`: the first pull requests, then how many more. */
export function batchName(numbers: readonly bigint[]): string {
  const shown = numbers.slice(0, NAMED_NUMBERS).map((n) => `#${n}`).join(' ');
  const more = numbers.length - NAMED_NUMBERS;
  return more > 0 ? `${shown} +${more}` : shown;
}
