// How many entries a proposed batch takes in one plan. A fixed `batch_size` n: n. A dynamic
// `{min, max}`: the rule's plannable entries spread evenly over the free check slots,
// ceil(entries / free slots), never under min, never over max. So an idle queue checks small
// batches (fast feedback, cheap bisections) and a backlog grows them toward max until every
// waiting entry fits in the slots there are. With no free slot it counts one: nothing starts
// now anyway, and the plan made when a slot frees decides again.
import { batchSizeBounds } from './queue-rule.ts';
import type { QueueRuleConfig } from './model.ts';

export function targetBatchSize(rule: QueueRuleConfig, plannableOfRule: number, freeSlots: number): number {
  const { min, max } = batchSizeBounds(rule);
  if (min === max) return min;
  const spread = Math.ceil(plannableOfRule / Math.max(1, freeSlots));
  return Math.min(max, Math.max(min, spread));
}
