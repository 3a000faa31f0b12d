// Forms the proposed batches from the plannable entries, in queue order (DESIGN §9): entries of
// one queue rule; serial: consecutive entries; parallel: equal scope sets, joining a batch only
// when that moves the entry ahead of no earlier entry it shares a scope with; isolated: equal
// scope sets, no parents. Ids and names are set once the batches are complete. Ten thousand
// entries go through here on every re-plan: no string is built to find an entry's group.
import { batchNameOf, proposedBatchId } from './batch-identity.ts';
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

const NO_PARENTS: PlanNode[] = [];

export function proposeBatches(plannable: readonly PlannableEntry[], input: ProposeInput): PlanNode[] {
  const { mode, lanes } = input;
  const proposed: PlanNode[] = [];
  const openBatches = new OpenBatches();
  for (const item of plannable) {
    const barrier = mode === 'serial' || item.allScopes;
    const open = openBatches.get(item, mode);
    if (open && open.entries.length < input.sizeOf(open.queueRule) && (mode === 'isolated' || lanes.canJoin(open, item.scopes, barrier))) {
      join(open, item);
      continue;
    }
    const parents = mode === 'isolated' ? NO_PARENTS : lanes.parentsFor(item.scopes, barrier);
    const node = newProposedNode(item, barrier, parents, input.firstIndex + proposed.length);
    if (mode !== 'isolated') lanes.add(node);
    proposed.push(node);
    openBatches.set(item, mode, node);
  }
  for (const node of proposed) {
    node.id = proposedBatchId(input.queueId, node.entries);
    node.name = batchNameOf(node.entries);
    node.entryIds = node.entries.map((entry) => entry.id);
    node.parentIds = node.parents.map((parent) => parent.id);
  }
  return proposed;
}

/**
 * The latest batch of each group, where entries share a batch only with the same rule and the
 * same scope set (scopes and all_scopes); serial: one group per rule. Keyed by rule, then by the
 * one scope itself or the joined scopes, barriers apart.
 */
class OpenBatches {
  private readonly byRule = new Map<string, { scoped: Map<string, PlanNode>; barriers: Map<string, PlanNode>; serial: PlanNode | null }>();

  get(item: PlannableEntry, mode: QueueMode): PlanNode | undefined {
    const groups = this.byRule.get(item.entry.queueRule);
    if (!groups) return undefined;
    if (mode === 'serial') return groups.serial ?? undefined;
    return (item.allScopes ? groups.barriers : groups.scoped).get(scopeKey(item.scopes));
  }

  set(item: PlannableEntry, mode: QueueMode, node: PlanNode): void {
    let groups = this.byRule.get(item.entry.queueRule);
    if (!groups) {
      groups = { scoped: new Map(), barriers: new Map(), serial: null };
      this.byRule.set(item.entry.queueRule, groups);
    }
    if (mode === 'serial') groups.serial = node;
    else (item.allScopes ? groups.barriers : groups.scoped).set(scopeKey(item.scopes), node);
  }
}

/** Scope names are non-empty, so '' stands for no scope, and \u001f never starts a name's key. */
function scopeKey(scopes: readonly string[]): string {
  return scopes.length === 1 ? (scopes[0] as string) : scopes.length === 0 ? '' : `\u001f${scopes.join('\u001f')}`;
}

function join(node: PlanNode, item: PlannableEntry): void {
  node.entries.push(item.entry);
  node.lastPosition = item.position;
  node.firstEnteredAt = Math.min(node.firstEnteredAt, item.entry.enteredAt);
}

function newProposedNode(item: PlannableEntry, barrier: boolean, parents: PlanNode[], index: number): PlanNode {
  return {
    id: '',
    name: '',
    queueRule: item.entry.queueRule,
    entryIds: NO_IDS,
    entries: [item.entry],
    parentIds: NO_IDS,
    parents,
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

const NO_IDS: string[] = [];
