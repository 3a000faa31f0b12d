// The plan (DESIGN §9): a pure function of the queue's state and the clock. Stored batches keep
// their place and parents; the entries not embarked in one are formed into proposed batches
// after them; then statuses, what starts, what merges, and when the clock alone changes things.
import { assignStatuses, checksTimeoutAt } from './assign-statuses.ts';
import { proposedBatchName } from './batch-identity.ts';
import { markFillingBatches, type FillingRule } from './batch-filling.ts';
import { CHECKING_PHASES } from './batch-phases.ts';
import { DependencyLanes } from './dependency-lanes.ts';
import type { PlannedBatch, QueueEntry, QueuePlan, QueueState } from './model.ts';
import { PlanGraph } from './plan-graph.ts';
import { planningScopes, type PlannableEntries } from './planning-scopes.ts';
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

  const graph = new PlanGraph(stored.ordered.length, plannable.entries.length);
  const lanes = new DependencyLanes(graph);
  const indexById = new Map<string, number>();
  for (const batch of stored.ordered) {
    const index = graph.addStored(batch, mode === 'serial' || batch.allScopes);
    graph.beginParents();
    for (const parentId of batch.parentIds) {
      const parent = indexById.get(parentId);
      if (parent !== undefined) graph.addParent(parent);
    }
    graph.endParents();
    indexById.set(batch.id, index);
    if (mode !== 'isolated' && !stored.hidden.has(batch.id)) lanes.add(index);
  }

  const sizeOf = batchSizes(state, plannable);
  const waitMsOf = (name: string): number => queueRule(config, name).batch_max_wait_time * 1000;
  const firstProposed = proposeBatches(plannable, { queueId: state.queueId, mode, graph, lanes, sizeOf });
  markFillingBatches(graph, firstProposed, plannable, sizeOf, waitMsOf, now, options.fillingRule);

  const actions = assignStatuses(graph, state, now);
  return {
    batches: plannedBatches(graph, stored.ordered, plannable),
    waiting,
    ...actions,
    scopeQueues: scopeQueues(graph),
    wakeAt: wakeAt(graph, waiting, state, now),
  };
}

/** Target size per queue rule for this plan (see target-batch-size.ts), memoised. */
function batchSizes(state: QueueState, plannable: PlannableEntries): (name: string) => number {
  let freeSlots = state.config.merge_queue.max_parallel_checks;
  for (const batch of state.batches) if (CHECKING_PHASES.has(batch.phase) || batch.phase === 'pending') freeSlots--;
  const countByRule = new Map<string, number>();
  for (const entry of plannable.entries) countByRule.set(entry.queueRule, (countByRule.get(entry.queueRule) ?? 0) + 1);
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

const NONE: readonly string[] = [];

function plannedBatches(graph: PlanGraph, stored: readonly { id: string; bisection: { of: string } | null }[], plannable: PlannableEntries): PlannedBatch[] {
  const subBatchIds = new Map<string, string[]>();
  for (const batch of stored) if (batch.bisection) subBatchIds.set(batch.bisection.of, [...(subBatchIds.get(batch.bisection.of) ?? []), batch.id]);
  const batches: PlannedBatch[] = new Array<PlannedBatch>(graph.size);
  for (let batch = 0; batch < graph.size; batch++) {
    const storedBatch = graph.stored[batch] ?? null;
    const id = graph.ids[batch] as string;
    batches[batch] = {
      id,
      name: storedBatch ? storedBatch.name : proposedBatchName(graph, batch, plannable.entries),
      queueRule: graph.queueRules[batch] as string,
      entryIds: storedBatch ? storedBatch.entryIds : proposedEntryIds(graph, batch, plannable),
      parentIds: storedBatch ? storedBatch.parentIds : proposedParentIds(graph, batch),
      scopes: graph.scopes[batch] as readonly string[],
      allScopes: graph.allScopes[batch] === 1,
      stored: storedBatch !== null,
      status: graph.status[batch] as PlannedBatch['status'],
      startsAt: Number.isNaN(graph.startsAt[batch]) ? null : (graph.startsAt[batch] as number),
      subBatchIds: (storedBatch && subBatchIds.get(id)) || NONE,
      subBatchOf: storedBatch?.bisection?.of ?? null,
    };
  }
  return batches;
}

function proposedEntryIds(graph: PlanGraph, batch: number, plannable: PlannableEntries): string[] {
  const ids = new Array<string>(graph.entryCount[batch] as number);
  let i = 0;
  graph.forEachPosition(batch, (position) => {
    ids[i++] = (plannable.entries[position] as QueueEntry).id;
  });
  return ids;
}

function proposedParentIds(graph: PlanGraph, batch: number): readonly string[] {
  const count = graph.parentCount(batch);
  if (count === 0) return NONE;
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = graph.ids[graph.parentAt(batch, i)] as string;
  return ids;
}

function wakeAt(graph: PlanGraph, waiting: QueuePlan['waiting'], state: QueueState, now: number): number | null {
  let earliest = Infinity;
  for (let batch = 0; batch < graph.size; batch++) {
    const startsAt = graph.startsAt[batch] as number;
    if (!Number.isNaN(startsAt)) earliest = Math.min(earliest, startsAt);
    const stored = graph.stored[batch];
    const timeoutAt = stored?.phase === 'running' ? checksTimeoutAt(stored, state) : null;
    if (timeoutAt !== null && timeoutAt > now) earliest = Math.min(earliest, timeoutAt);
  }
  for (const entry of waiting) earliest = Math.min(earliest, entry.until);
  return earliest === Infinity ? null : earliest;
}

