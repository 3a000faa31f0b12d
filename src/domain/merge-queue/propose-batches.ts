// Forms the proposed batches from the plannable entries, in queue order (DESIGN §9): entries of
// one queue rule; serial: consecutive entries; parallel: equal scope sets, joining a batch only
// when that moves the entry ahead of no earlier entry it shares a scope with; isolated: equal
// scope sets, no parents. Ids are set once the batches are complete. Ten thousand entries go
// through here on every re-plan: no string is built to find an entry's group.
import { proposedBatchId } from './batch-identity.ts';
import type { DependencyLanes } from './dependency-lanes.ts';
import type { QueueEntry, QueueMode, ScopeSet } from './model.ts';
import type { PlanGraph } from './plan-graph.ts';
import type { PlannableEntries } from './planning-scopes.ts';

export interface ProposeInput {
  queueId: string;
  mode: QueueMode;
  graph: PlanGraph;
  /** Already holding the stored batches the proposed ones may depend on (unused when isolated). */
  lanes: DependencyLanes;
  sizeOf: (queueRule: string) => number;
}

/** Adds the proposed batches to the graph; returns the index of the first. */
export function proposeBatches(plannable: PlannableEntries, input: ProposeInput): number {
  const { mode, lanes, graph } = input;
  const first = graph.size;
  const openBatches = new OpenBatches();
  for (let position = 0; position < plannable.entries.length; position++) {
    const entry = plannable.entries[position] as QueueEntry;
    const scopeSet = plannable.scopeSets[position] as ScopeSet;
    const barrier = mode === 'serial' || scopeSet.allScopes;
    const open = openBatches.get(entry.queueRule, scopeSet, mode);
    if (open !== undefined && (graph.entryCount[open] as number) < input.sizeOf(entry.queueRule) && (mode === 'isolated' || lanes.canJoin(open, scopeSet.scopes, barrier))) {
      graph.join(open, position);
      continue;
    }
    const batch = graph.addProposed(entry, scopeSet, barrier, position);
    graph.beginParents();
    if (mode !== 'isolated') lanes.addParents(scopeSet.scopes, barrier);
    graph.endParents();
    if (mode !== 'isolated') lanes.add(batch);
    openBatches.set(entry.queueRule, scopeSet, mode, batch);
  }
  for (let batch = first; batch < graph.size; batch++) graph.ids[batch] = proposedBatchId(input.queueId, graph, batch, plannable.entries);
  return first;
}

/**
 * The latest batch of each group, where entries share a batch only with the same rule and the
 * same scope set (scopes and all_scopes); serial: one group per rule. Keyed by rule, then by the
 * one scope itself or the joined scopes, barriers apart.
 */
class OpenBatches {
  private readonly byRule = new Map<string, { scoped: Map<string, number>; barriers: Map<string, number>; serial: number | undefined }>();

  get(queueRule: string, scopeSet: ScopeSet, mode: QueueMode): number | undefined {
    const groups = this.byRule.get(queueRule);
    if (!groups) return undefined;
    if (mode === 'serial') return groups.serial;
    return (scopeSet.allScopes ? groups.barriers : groups.scoped).get(scopeKey(scopeSet.scopes));
  }

  set(queueRule: string, scopeSet: ScopeSet, mode: QueueMode, batch: number): void {
    let groups = this.byRule.get(queueRule);
    if (!groups) {
      groups = { scoped: new Map(), barriers: new Map(), serial: undefined };
      this.byRule.set(queueRule, groups);
    }
    if (mode === 'serial') groups.serial = batch;
    else (scopeSet.allScopes ? groups.barriers : groups.scoped).set(scopeKey(scopeSet.scopes), batch);
  }
}

/** Scope names are non-empty, so '' stands for no scope, and \u001f never starts a name's key. */
function scopeKey(scopes: readonly string[]): string {
  return scopes.length === 1 ? (scopes[0] as string) : scopes.length === 0 ? '' : `\u001f${scopes.join('\u001f')}`;
}
