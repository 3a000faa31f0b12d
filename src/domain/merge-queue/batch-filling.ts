// A proposed batch short of its size waits for new entries up to batch_max_wait_time from its
// first entry's arrival, but only while a new entry could still join it: when nothing is queued
// behind it in its scopes ("behind it in its scopes": a later plannable entry sharing one of its
// scopes, or a later barrier; for a barrier and every batch of a serial queue, any later entry).
// Something queued behind it can never join (it would pass the entries between them), and a new
// arrival would queue behind that, so then it starts at once. This is the meaning the public
// `batch_max_wait_time` documents. DESIGN §9 words the condition the other way round ("at once
// when nothing else is queued behind it"); taken literally a batch waits exactly when waiting
// cannot fill it and a serial queue never waits, so the option would do nothing. `literal` keeps
// that reading for the simulation to compare (bench/RESULTS.md).
import type { QueueEntry } from './model.ts';
import type { PlanGraph } from './plan-graph.ts';
import type { PlannableEntries } from './planning-scopes.ts';

export type FillingRule = 'literal' | 'when-last';

/** Marks the proposed batches (from `first` on) that wait to be filled: status and startsAt. */
export function markFillingBatches(
  graph: PlanGraph,
  first: number,
  plannable: PlannableEntries,
  sizeOf: (queueRule: string) => number,
  waitMsOf: (queueRule: string) => number,
  now: number,
  rule: FillingRule = 'when-last',
): void {
  const lastPositionOfScope = new Map<string, number>();
  let lastBarrierPosition = -1;
  plannable.scopeSets.forEach((scopeSet, position) => {
    if (scopeSet.allScopes) lastBarrierPosition = position;
    for (const scope of scopeSet.scopes) lastPositionOfScope.set(scope, position);
  });
  const lastPosition = plannable.entries.length - 1;
  const queuedBehind = (batch: number): boolean => {
    const after = graph.lastPosition[batch] as number;
    if (graph.barrier[batch]) return lastPosition > after;
    if (lastBarrierPosition > after) return true;
    return (graph.scopes[batch] as readonly string[]).some((scope) => (lastPositionOfScope.get(scope) ?? -1) > after);
  };
  for (let batch = first; batch < graph.size; batch++) {
    const queueRule = graph.queueRules[batch] as string;
    if ((graph.entryCount[batch] as number) >= sizeOf(queueRule) || queuedBehind(batch) !== (rule === 'literal')) continue;
    let firstEnteredAt = Infinity;
    graph.forEachPosition(batch, (position) => {
      firstEnteredAt = Math.min(firstEnteredAt, (plannable.entries[position] as QueueEntry).enteredAt);
    });
    const startsAt = firstEnteredAt + waitMsOf(queueRule);
    if (now < startsAt) {
      graph.status[batch] = 'waiting_for_batch';
      graph.startsAt[batch] = startsAt;
    }
  }
}
