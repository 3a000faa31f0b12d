// Ids and names of batches the plan proposes. An id depends only on the queue, the entries and
// how often each was embarked before, so re-planning the same state proposes the same ids, and a
// set of entries that goes back to the queue and is embarked again gets a new one.
import { hashNumber, hashStart, hashText, hashUuid, hashUuidEnd } from './hash-uuid.ts';
import type { QueueEntry } from './model.ts';

export function proposedBatchId(queueId: string, entries: readonly QueueEntry[]): string {
  hashStart();
  hashText(queueId);
  for (const entry of entries) {
    hashText(entry.id);
    hashNumber(entry.embarkCount);
  }
  return hashUuidEnd();
}

/** A bisection's half: the split batch's id says which bisection, the side which half. */
export function subBatchId(splitBatchId: string, side: 'first' | 'rest'): string {
  return hashUuid('sub-batch', splitBatchId, side);
}

const NAMED_NUMBERS = 3;

/** `#12`, `#12 #15 #18`, `#12 #15 #18 +4`: the first pull requests, then how many more. */
export function batchName(numbers: readonly bigint[]): string {
  let name = `#${numbers[0]}`;
  for (let i = 1; i < Math.min(numbers.length, NAMED_NUMBERS); i++) name += ` #${numbers[i]}`;
  return numbers.length > NAMED_NUMBERS ? `${name} +${numbers.length - NAMED_NUMBERS}` : name;
}

export function batchNameOf(entries: readonly QueueEntry[]): string {
  return entries.length === 1 ? `#${(entries[0] as QueueEntry).number}` : batchName(entries.map((entry) => entry.number));
}
