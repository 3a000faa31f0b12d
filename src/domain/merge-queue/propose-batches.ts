// Forms the proposed batches from the plannable entries, in queue order (DESIGN §9): entries of
// one queue rule; serial: consecutive entries; parallel: equal scope sets, joining a batch only
// when that moves the entry ahead of no earlier entry it shares a scope with; isolated: equal
// scope sets, no parents. Ids and names are set once the batches are complete.
import { batchName, proposedBatchId } from './batch-identity.ts';
import type { DependencyLanes } from './dependency-lanes.ts';
import type { QueueMode } from './model.ts';
import type { PlanNode } from './plan-node.ts';
import type { PlannableEntry } from './planning-scopes.ts';

export interface ProposeInput {
  queueId: string;
  mode: QueueMode;
  /** Already holding the stored batches the proposed ones may depend on (unused when isolated). */
  lanes: DependencyLanes;
  firstIndex: number;
  sizeOf: (queueRule: string) => number;
}

export function proposeBatches(plannable: readonly PlannableEntry[], input: ProposeInput): PlanNode[] {
  const { mode, lanes } = input;
  const proposed: PlanNode[] = [];
  const openByGroup = new Map<string, PlanNode>();
  for (const item of plannable) {
    const barrier = mode === 'serial' || item.allScopes;
    const group = mode === 'serial' ? item.entry.queueRule : groupKey(item);
    const open = openByGroup.get(group);
    if (open && open.entries.length < input.sizeOf(open.queueRule) && (mode === 'isolated' || lanes.canJoin(open, item.scopes, barrier))) {
      join(open, item);
      continue;
    }
    const node = newProposedNode(item, barrier, input.firstIndex + proposed.length);
    if (mode !== 'isolated') {
      node.parents = lanes.parentsFor(item.scopes, barrier);
      lanes.add(node);
    }
    proposed.push(node);
    openByGroup.set(group, node);
  }
  for (const node of proposed) {
    node.id = proposedBatchId(input.queueId, node.entries);
    node.name = batchName(node.entries.map((entry) => entry.number));
    node.parentIds = node.parents.map((parent) => parent.id);
  }
  return proposed;
}

/** Entries share a batch only with the same rule and the same scope set (scopes and all_scopes). */
function groupKey(item: PlannableEntry): string {
  return `${item.entry.queueRule}\u001e${item.allScopes ? '*' : '-'}${item.scopes.join('\u001f')}`;
}

function join(node: PlanNode, item: PlannableEntry): void {
  node.entries.push(item.entry);
  node.entryIds.push(item.entry.id);
  node.lastPosition = item.position;
  node.firstEnteredAt = Math.min(node.firstEnteredAt, item.entry.enteredAt);
}

function newProposedNode(item: PlannableEntry, barrier: boolean, index: number): PlanNode {
  return {
    id: '',
    name: '',
    queueRule: item.entry.queueRule,
    entryIds: [item.entry.id],
    entries: [item.entry],
    parentIds: [],
    parents: [],
    scopes: item.scopes,
    allScopes: item.allScopes,
    barrier,
    stored: null,
    index,
    lastPosition: item.position,
    firstEnteredAt: item.entry.enteredAt,
    held: false,
    startedOrStarting: false,
    status: 'waiting_for_checks_slot',
    startsAt: null,
  };
}
