// DESIGN §9, taken literally: a proposed batch short of its size starts when batch_max_wait_time
// has passed since its first entry entered, or at once when nothing else is queued behind it in
// its scopes. "Behind it in its scopes": a later plannable entry sharing one of its scopes, or a
// later barrier; for a barrier (and every batch of a serial queue) any later entry.
// Note: an entry behind a batch in one of its scopes can never join it (it would pass the entries
// queued between them), so this rule makes a batch wait exactly when waiting cannot fill it, and
// a serial queue never waits (its short batch is always the last). `when-last` is the opposite
// rule (wait only when nothing is queued behind, i.e. when new arrivals could still join), the
// meaning the public `batch_max_wait_time` documents; it exists for the simulation to compare
// (bench/RESULTS.md) until the lead decides which rule the service follows.
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
  rule: FillingRule = 'literal',
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
