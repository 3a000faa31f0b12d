// Moves a merge-queue state forward the way an executor would, without a platform: plan, merge
// what may merge, start what may start, and report the checks of started batches as running at
// once (retried ones too). Repeats until the plan asks for nothing more at this instant.
import { applyBatchResult, markChecksStarted, mergeBatch, planQueue, startBatches } from '../../src/domain/merge-queue/index.ts';
import type { BatchResult, QueueChange, QueuePlan, QueueState } from '../../src/domain/merge-queue/model.ts';

export interface Step {
  state: QueueState;
  changes: QueueChange[];
  plan: QueuePlan;
}

export function advance(state: QueueState, now: number): Step {
  const changes: QueueChange[] = [];
  for (;;) {
    // Batches started or retried: their checks run at once.
    for (const batch of state.batches) {
      if (batch.phase !== 'preparing') continue;
      const running = markChecksStarted(state, batch.id, now);
      state = running.state;
      changes.push(...running.changes);
    }
    const plan = planQueue(state, now);
    if (plan.toMerge.length === 0 && plan.toStart.length === 0) return { state, changes, plan };
    for (const id of plan.toMerge) {
      const merged = mergeBatch(state, id, now);
      state = merged.state;
      changes.push(...merged.changes);
    }
    if (plan.toMerge.length > 0) continue;
    const started = startBatches(state, plan, now);
    state = started.state;
    changes.push(...started.changes);
  }
}

/** Reports a result for the running batch holding pull request `number`, then advances. */
export function report(state: QueueState, number: number, result: BatchResult['kind'], now: number): Step {
  const batch = runningBatchOf(state, number);
  const applied = applyBatchResult(state, batch.id, { kind: result }, now);
  const next = advance(applied.state, now);
  return { ...next, changes: [...applied.changes, ...next.changes] };
}

export function runningBatchOf(state: QueueState, number: number) {
  const entry = state.entries.find((candidate) => candidate.number === BigInt(number));
  const batch = state.batches.find((candidate) => candidate.phase === 'running' && entry && candidate.entryIds.includes(entry.id));
  if (!batch) throw new Error(`no running batch holds #${number}`);
  return batch;
}

/** Names of the batches of a plan with their statuses, for compact assertions. */
export function planSummary(plan: QueuePlan): string[] {
  return plan.batches.map((batch) => `${batch.name}: ${batch.status}`);
}

/** A batch of the plan by name, its parents by name. */
export function parentsByName(plan: QueuePlan, name: string): string[] {
  const byId = new Map(plan.batches.map((batch) => [batch.id, batch.name]));
  const batch = plan.batches.find((candidate) => candidate.name === name);
  if (!batch) throw new Error(`no batch ${name} in ${planSummary(plan).join(', ')}`);
  return batch.parentIds.map((id) => byId.get(id) ?? `(gone ${id.slice(0, 8)})`);
}
