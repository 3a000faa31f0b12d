// Gives every batch of the plan its public status and picks what happens now: which batches take
// the free check slots (toStart), which passed batches merge (toMerge), which running batches
// are past their checks timeout (toTimeOut). Walks the plan in order, parents first.
import { CHECKING_PHASES, HOLDING_PHASES } from './batch-phases.ts';
import { queueRule } from './queue-rule.ts';
import type { Batch, QueueState } from './model.ts';
import type { PlanGraph } from './plan-graph.ts';

export interface PlanActions {
  toStart: string[];
  toMerge: string[];
  toTimeOut: string[];
}

export function assignStatuses(graph: PlanGraph, state: QueueState, now: number): PlanActions {
  const actions: PlanActions = { toStart: [], toMerge: [], toTimeOut: [] };
  const { paused, frozen } = state.holds;
  let freeSlots = state.config.merge_queue.max_parallel_checks;
  for (let batch = 0; batch < graph.size; batch++) if (CHECKING_PHASES.has(graph.stored[batch]?.phase ?? 'pending')) freeSlots--;
  const startIfFree = (batch: number): void => {
    if (!paused && freeSlots > 0 && parentsStarted(graph, batch)) {
      freeSlots--;
      graph.status[batch] = 'preparing';
      graph.startedOrStarting[batch] = 1;
      actions.toStart.push(graph.ids[batch] as string);
    } else {
      graph.status[batch] = 'waiting_for_checks_slot';
    }
  };
  for (let batch = 0; batch < graph.size; batch++) {
    const stored = graph.stored[batch] ?? null;
    const held = (stored !== null && HOLDING_PHASES.has(stored.phase)) || parentHeld(graph, batch);
    graph.held[batch] = held ? 1 : 0;
    if (!stored) {
      if (held) graph.status[batch] = 'waiting_for_previous_batches';
      else if (graph.status[batch] !== 'waiting_for_batch') startIfFree(batch);
      continue;
    }
    switch (stored.phase) {
      case 'pending':
        if (held) graph.status[batch] = 'waiting_for_previous_batches';
        else startIfFree(batch);
        break;
      case 'preparing':
        graph.status[batch] = 'preparing';
        break;
      case 'running': {
        graph.status[batch] = 'running';
        const timeoutAt = checksTimeoutAt(stored, state);
        if (timeoutAt !== null && timeoutAt <= now) actions.toTimeOut.push(stored.id);
        break;
      }
      case 'passed':
        graph.status[batch] = frozen && !stored.mergeStarted ? 'frozen' : 'waiting_for_merge';
        // Parents in the plan are unmerged ones: none left means every parent merged. A merge
        // begun on the platform is finished whatever holds came after it.
        if (graph.parentCount(batch) === 0 && (stored.mergeStarted || (!paused && !frozen))) actions.toMerge.push(stored.id);
        break;
      case 'parked':
        graph.status[batch] = 'waiting_for_previous_batches';
        break;
      default:
        graph.status[batch] = 'bisecting';
    }
  }
  return actions;
}

function parentHeld(graph: PlanGraph, batch: number): boolean {
  for (let i = 0; i < graph.parentCount(batch); i++) if (graph.held[graph.parentAt(batch, i)]) return true;
  return false;
}

function parentsStarted(graph: PlanGraph, batch: number): boolean {
  for (let i = 0; i < graph.parentCount(batch); i++) if (!graph.startedOrStarting[graph.parentAt(batch, i)]) return false;
  return true;
}

/** When a running batch's checks time out; null before its checks started. */
export function checksTimeoutAt(batch: Batch, state: QueueState): number | null {
  if (batch.checksStartedAt === null) return null;
  return batch.checksStartedAt + queueRule(state.config, batch.queueRule).checks_timeout * 1000;
}
