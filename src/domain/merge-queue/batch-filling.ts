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
import type { PlanNode } from './plan-node.ts';
import type { PlannableEntry } from './planning-scopes.ts';

export type FillingRule = 'literal' | 'when-last';

export function markFillingBatches(
  proposed: readonly PlanNode[],
  plannable: readonly PlannableEntry[],
  sizeOf: (queueRule: string) => number,
  waitMsOf: (queueRule: string) => number,
  now: number,
  rule: FillingRule = 'literal',
): void {
  const lastPositionOfScope = new Map<string, number>();
  let lastBarrierPosition = -1;
  for (const item of plannable) {
    if (item.allScopes) lastBarrierPosition = item.position;
    for (const scope of item.scopes) lastPositionOfScope.set(scope, item.position);
  }
  const lastPosition = plannable.length - 1;
  const queuedBehind = (node: PlanNode): boolean => {
    if (node.barrier) return lastPosition > node.lastPosition;
    if (lastBarrierPosition > node.lastPosition) return true;
    return node.scopes.some((scope) => (lastPositionOfScope.get(scope) ?? -1) > node.lastPosition);
  };
  for (const node of proposed) {
    if (node.entries.length >= sizeOf(node.queueRule) || queuedBehind(node) !== (rule === 'literal')) continue;
    const startsAt = node.firstEnteredAt + waitMsOf(node.queueRule);
    if (now < startsAt) {
      node.status = 'waiting_for_batch';
      node.startsAt = startsAt;
    }
  }
}
