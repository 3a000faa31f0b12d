// The plan (DESIGN §9): a pure function of the queue's state and the clock. Stored batches keep
// their place and parents; the entries not embarked in one are formed into proposed batches
// after them; then statuses, what starts, what merges, and when the clock alone changes things.
import { assignStatuses, checksTimeoutAt } from './assign-statuses.ts';
import { markFillingBatches, type FillingRule } from './batch-filling.ts';
import { CHECKING_PHASES } from './batch-phases.ts';
import { DependencyLanes } from './dependency-lanes.ts';
import type { PlannedBatch, QueuePlan, QueueState } from './model.ts';
import { storedPlanNode, type PlanNode } from './plan-node.ts';
import { planningScopes, type PlannableEntry } from './planning-scopes.ts';
import { proposeBatches } from './propose-batches.ts';
import { sortInQueueOrder } from './queue-order.ts';
import { queueRule } from './queue-rule.ts';
import { scopeQueues } from './scope-queues.ts';
import { viewStoredBatches } from './stored-batches.ts';
import { targetBatchSize } from './target-batch-size.ts';

/** Knobs for experiments (the simulation); the service plans with the defaults. */
export interface PlanOptions {
  fillingRule?: FillingRule;
}

export function planQueue(state: QueueState, now: number, options: PlanOptions = {}): QueuePlan {
  const { config } = state;
  const mode = config.merge_queue.mode;
  const stored = viewStoredBatches(state.batches);
  // A bisecting batch's entries are checked by its halves, or went back to the queue.
  const embarked = new Set<string>();
  for (const batch of stored.ordered) if (batch.phase !== 'bisecting') for (const id of batch.entryIds) embarked.add(id);
  const free = sortInQueueOrder(state.entries.filter((entry) => !embarked.has(entry.id)));
  const { plannable, waiting } = planningScopes(free, config, now);

  const lanes = new DependencyLanes();
  const nodes: PlanNode[] = [];
  const nodeById = new Map<string, PlanNode>();
  for (const batch of stored.ordered) {
    const node = storedPlanNode(batch, nodes.length, mode === 'serial' || batch.allScopes);
    for (const parentId of batch.parentIds) {
      const parent = nodeById.get(parentId);
      if (parent) node.parents.push(parent);
    }
    nodes.push(node);
    nodeById.set(node.id, node);
    if (mode !== 'isolated' && !stored.hidden.has(batch.id)) lanes.add(node);
  }

  const sizeOf = batchSizes(state, plannable, nodes);
  const waitMsOf = (name: string): number => queueRule(config, name).batch_max_wait_time * 1000;
  const proposed = proposeBatches(plannable, { queueId: state.queueId, mode, lanes, firstIndex: nodes.length, sizeOf });
  markFillingBatches(proposed, plannable, sizeOf, waitMsOf, now, options.fillingRule);
  for (const node of proposed) nodes.push(node); // not push(...proposed): no argument-count limit

  const actions = assignStatuses(nodes, state, now);
  const subBatchIds = new Map<string, string[]>();
  for (const batch of stored.ordered) {
    if (batch.bisection) subBatchIds.set(batch.bisection.of, [...(subBatchIds.get(batch.bisection.of) ?? []), batch.id]);
  }
  return {
    batches: nodes.map((node) => plannedBatch(node, (node.stored && subBatchIds.get(node.id)) || NO_SUB_BATCHES)),
    waiting,
    ...actions,
    scopeQueues: scopeQueues(nodes),
    wakeAt: wakeAt(nodes, waiting, state, now),
  };
}

/** Target size per queue rule for this plan (see target-batch-size.ts), memoised. */
function batchSizes(state: QueueState, plannable: readonly PlannableEntry[], storedNodes: readonly PlanNode[]): (name: string) => number {
  let freeSlots = state.config.merge_queue.max_parallel_checks;
  for (const node of storedNodes) {
    const phase = node.stored?.phase;
    if (phase && (CHECKING_PHASES.has(phase) || phase === 'pending')) freeSlots--;
  }
  const countByRule = new Map<string, number>();
  for (const item of plannable) countByRule.set(item.entry.queueRule, (countByRule.get(item.entry.queueRule) ?? 0) + 1);
  const sizes = new Map<string, number>();
  return (name) => {
    let size = sizes.get(name);
    if (size === undefined) {
      size = targetBatchSize(queueRule(state.config, name), countByRule.get(name) ?? 0, freeSlots);
      sizes.set(name, size);
    }
    return size;
  };
}

const NO_SUB_BATCHES: readonly string[] = [];

function plannedBatch(node: PlanNode, subBatchIds: readonly string[]): PlannedBatch {
  const bisection = node.stored?.bisection ?? null;
  return {
    id: node.id,
    name: node.name,
    queueRule: node.queueRule,
    entryIds: node.entryIds,
    parentIds: node.parentIds,
    scopes: node.scopes,
    allScopes: node.allScopes,
    stored: node.stored !== null,
    status: node.status,
    startsAt: node.startsAt,
    subBatchIds,
    subBatchOf: bisection?.of ?? null,
  };
}

function wakeAt(nodes: readonly PlanNode[], waiting: QueuePlan['waiting'], state: QueueState, now: number): number | null {
  let earliest = Infinity;
  for (const node of nodes) {
    if (node.startsAt !== null) earliest = Math.min(earliest, node.startsAt);
    const timeoutAt = node.stored?.phase === 'running' ? checksTimeoutAt(node, state) : null;
    if (timeoutAt !== null && timeoutAt > now) earliest = Math.min(earliest, timeoutAt);
  }
  for (const entry of waiting) earliest = Math.min(earliest, entry.until);
  return earliest === Infinity ? null : earliest;
}
