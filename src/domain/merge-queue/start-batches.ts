// Starts what the plan says to start now: each proposed batch in `toStart` is stored as preparing
// (its entries' embarkCount goes up by one, so the same entries embarked again later get a new
// batch id), and each pending sub-batch in it moves to preparing. `plan` must be planQueue(state,
// now): an entry already embarked, or an id the plan does not hold, is a caller's error.
import { UNFINISHED_PHASES } from './batch-phases.ts';
import type { Batch, PlannedBatch, QueuePlan, QueueState, QueueTransition } from './model.ts';
import { TransitionDraft } from './transition-draft.ts';

export function startBatches(state: QueueState, plan: QueuePlan, now: number): QueueTransition {
  const draft = new TransitionDraft(state, now);
  const planned = new Map(plan.batches.map((batch) => [batch.id, batch]));
  const embarked = new Set<string>();
  for (const batch of state.batches) {
    if (UNFINISHED_PHASES.has(batch.phase) && batch.phase !== 'bisecting') for (const id of batch.entryIds) embarked.add(id);
  }
  for (const id of plan.toStart) {
    const batch = planned.get(id);
    if (!batch) throw new Error(`merge queue: batch ${id} to start is not in the plan`);
    if (batch.stored) {
      if (draft.batch(id)?.phase !== 'pending') throw new Error(`merge queue: stored batch ${id} is not pending`);
      draft.setPhase(id, 'preparing');
    } else {
      storeProposed(draft, batch, embarked);
    }
  }
  return draft.finish();
}

function storeProposed(draft: TransitionDraft, planned: PlannedBatch, embarked: Set<string>): void {
  for (const entryId of planned.entryIds) {
    const entry = draft.entry(entryId);
    if (!entry || embarked.has(entryId)) throw new Error(`merge queue: entry ${entryId} of batch ${planned.id} is not waiting in the queue`);
    embarked.add(entryId);
    draft.putEntry({ ...entry, embarkCount: entry.embarkCount + 1 });
  }
  const batch: Batch = {
    id: planned.id,
    name: planned.name,
    queueRule: planned.queueRule,
    entryIds: planned.entryIds,
    parentIds: planned.parentIds,
    scopes: planned.scopes,
    allScopes: planned.allScopes,
    phase: 'preparing',
    startedAt: draft.now,
    checksStartedAt: null,
    checksEndedAt: null,
    retries: 0,
    bisection: null,
    culpritEntryIds: [],
  };
  draft.putBatch(batch);
  draft.record({ kind: 'batch_started', batch });
}
