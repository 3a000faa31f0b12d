// The merge queue's pure rules (DESIGN §9–10): the plan and the transitions the executor, the
// storage and the simulation share. No I/O, no clock, no randomness.
export * from './model.ts';
export { planQueue, type PlanOptions } from './plan-queue.ts';
export { startBatches } from './start-batches.ts';
export { markChecksStarted } from './checks-started.ts';
export { applyBatchResult } from './batch-result.ts';
export { mergeBatch } from './merge-batch.ts';
export { removeEntry } from './remove-entry.ts';
export { resetQueue, baseMovedOutside } from './reset-queue.ts';
export { dequeueImpact, type DequeueImpact } from './dequeue-impact.ts';
export { compareQueueOrder } from './queue-order.ts';
