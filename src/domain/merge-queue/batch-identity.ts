// Ids and names of batches the plan proposes. An id depends only on the queue, the entries and
// how often each was embarked before, so re-planning the same state proposes the same ids, and a
// set of entries that goes back to the queue and is embarked again gets a new one.
import { hashNumber, hashStart, hashText, hashUuid, hashUuidEnd } from './hash-uuid.ts';
import type { QueueEntry } from './model.ts';
import type { PlanGraph } from './plan-graph.ts';

export function proposedBatchId(queueId: string, graph: PlanGraph, batch: number, entries: readonly QueueEntry[]): string {
  hashStart();
  hashText(queueId);
  graph.forEachPosition(batch, (position) => {
    const entry = entries[position] as QueueEntry;
    hashText(entry.id);
    hashNumber(entry.embarkCount);
  });
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

/** The name of a proposed batch (see batchName), from its entries' positions. */
export function proposedBatchName(graph: PlanGraph, batch: number, entries: readonly QueueEntry[]): string {
  const count = graph.entryCount[batch] as number;
  let name = '';
  let shown = 0;
  graph.forEachPosition(batch, (position) => {
    if (shown++ < NAMED_NUMBERS) name += `${shown > 1 ? ' ' : ''}#${(entries[position] as QueueEntry).number}`;
  });
  return count > NAMED_NUMBERS ? `${name} +${count - NAMED_NUMBERS}` : name;
}
