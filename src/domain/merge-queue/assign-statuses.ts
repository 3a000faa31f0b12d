// Gives every batch of the plan its public status and picks what happens now: which batches take
// the free check slots (toStart), which passed batches merge (toMerge), which running batches
// are past their checks timeout (toTimeOut). Walks the plan in order, parents first.
import { CHECKING_PHASES, HOLDING_PHASES } from './batch-phases.ts';
import { queueRule } from './queue-rule.ts';
import type { QueueState } from './model.ts';
import type { PlanNode } from './plan-node.ts';

export interface PlanActions {
  toStart: string[];
  toMerge: string[];
  toTimeOut: string[];
}

export function assignStatuses(nodes: readonly PlanNode[], state: QueueState, now: number): PlanActions {
  const actions: PlanActions = { toStart: [], toMerge: [], toTimeOut: [] };
  const { paused, frozen } = state.holds;
  let freeSlots = state.config.merge_queue.max_parallel_checks;
  for (const node of nodes) if (node.stored && CHECKING_PHASES.has(node.stored.phase)) freeSlots--;
  const startIfFree = (node: PlanNode): void => {
    if (!paused && freeSlots > 0 && node.parents.every((parent) => parent.startedOrStarting)) {
      freeSlots--;
      node.status = 'preparing';
      node.startedOrStarting = true;
      actions.toStart.push(node.id);
    } else {
      node.status = 'waiting_for_checks_slot';
    }
  };
  for (const node of nodes) {
    const stored = node.stored;
    node.held = (stored !== null && HOLDING_PHASES.has(stored.phase)) || node.parents.some((parent) => parent.held);
    if (!stored) {
      if (node.held) node.status = 'waiting_for_previous_batches';
      else if (node.status !== 'waiting_for_batch') startIfFree(node);
      continue;
    }
    switch (stored.phase) {
      case 'pending':
        if (node.held) node.status = 'waiting_for_previous_batches';
        else startIfFree(node);
        break;
      case 'preparing':
        node.status = 'preparing';
        break;
      case 'running': {
        node.status = 'running';
        const timeoutAt = checksTimeoutAt(node, state);
        if (timeoutAt !== null && timeoutAt <= now) actions.toTimeOut.push(node.id);
        break;
      }
      case 'passed':
        node.status = frozen ? 'frozen' : 'waiting_for_merge';
        // Parents in the plan are unmerged ones: none left means every parent merged.
        if (node.parents.length === 0 && !paused && !frozen) actions.toMerge.push(node.id);
        break;
      case 'parked':
        node.status = 'waiting_for_previous_batches';
        break;
      default:
        node.status = 'bisecting';
    }
  }
  return actions;
}

/** When a running batch's checks time out; null before its checks started. */
export function checksTimeoutAt(node: PlanNode, state: QueueState): number | null {
  const started = node.stored?.checksStartedAt ?? null;
  if (started === null) return null;
  return started + queueRule(state.config, node.queueRule).checks_timeout * 1000;
}
