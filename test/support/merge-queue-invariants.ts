// Invariants of merge-queue plans and transition histories, checked by the property tests.
import type { QueueChange, QueuePlan, QueueState } from '../../src/domain/merge-queue/model.ts';
import { compareQueueOrder } from '../../src/domain/merge-queue/queue-order.ts';

/** Batch id → ids reachable from it (its ancestors; a bisecting batch reaches its sub-batches). */
function reachability(plan: QueuePlan): Map<string, Set<string>> {
  const edges = new Map<string, string[]>();
  const ids = new Set(plan.batches.map((batch) => batch.id));
  for (const batch of plan.batches) {
    edges.set(batch.id, [...(edges.get(batch.id) ?? []), ...batch.parentIds.filter((id) => ids.has(id))]);
    if (batch.subBatchOf) edges.set(batch.subBatchOf, [...(edges.get(batch.subBatchOf) ?? []), batch.id]);
  }
  const reach = new Map<string, Set<string>>();
  for (const start of ids) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(edges.get(id) ?? []));
    }
    reach.set(start, seen);
  }
  return reach;
}

/** Two batches that conflict (a common scope, a barrier, or any two in a serial queue) are ordered by a path. */
export function unorderedConflicts(plan: QueuePlan, state: QueueState): string[] {
  const mode = state.config.merge_queue.mode;
  if (mode === 'isolated') return [];
  const reach = reachability(plan);
  const problems: string[] = [];
  const batches = plan.batches;
  for (let i = 0; i < batches.length; i++) {
    for (let j = i + 1; j < batches.length; j++) {
      const a = batches[i]!;
      const b = batches[j]!;
      const conflict = mode === 'serial' || a.allScopes || b.allScopes || a.scopes.some((scope) => b.scopes.includes(scope));
      if (conflict && !reach.get(a.id)?.has(b.id) && !reach.get(b.id)?.has(a.id)) problems.push(`${a.name} and ${b.name} conflict with no path between them`);
    }
  }
  return problems;
}

/** Entries being planned keep their queue order within a scope: an earlier one is in the same batch or an ancestor. */
export function queueOrderBreaks(plan: QueuePlan, state: QueueState): string[] {
  const mode = state.config.merge_queue.mode;
  if (mode === 'isolated') return [];
  const reach = reachability(plan);
  const batchOf = new Map<string, (typeof plan.batches)[number]>();
  for (const batch of plan.batches) if (!batch.stored) for (const id of batch.entryIds) batchOf.set(id, batch);
  const planned = state.entries.filter((entry) => batchOf.has(entry.id)).sort(compareQueueOrder);
  const problems: string[] = [];
  for (let i = 0; i < planned.length; i++) {
    for (let j = i + 1; j < planned.length; j++) {
      const early = batchOf.get(planned[i]!.id)!;
      const late = batchOf.get(planned[j]!.id)!;
      if (early === late) continue;
      const conflict = mode === 'serial' || early.allScopes || late.allScopes || early.scopes.some((scope) => late.scopes.includes(scope));
      if (conflict && !reach.get(late.id)?.has(early.id)) problems.push(`#${planned[j]!.number} may merge before #${planned[i]!.number}`);
    }
  }
  return problems;
}

/** Watches every change of a run: merges only of passed batches whose parents merged before. */
export class HistoryMonitor {
  readonly problems: string[] = [];
  readonly leaves = new Map<string, string[]>();
  private readonly lastConclusion = new Map<string, string>();
  private readonly parents = new Map<string, readonly string[]>();
  private readonly merged = new Set<string>();

  observe(changes: readonly QueueChange[]): void {
    for (const change of changes) {
      if (change.kind === 'batch_started') this.parents.set(change.batch.id, change.batch.parentIds);
      else if (change.kind === 'bisection_started') for (const sub of change.subBatches) this.parents.set(sub.id, sub.parentIds);
      else if (change.kind === 'checks_ended') this.lastConclusion.set(change.batchId, change.conclusion);
      else if (change.kind === 'batch_retried') this.lastConclusion.delete(change.batchId);
      else if (change.kind === 'entry_left') this.leaves.set(change.entryId, [...(this.leaves.get(change.entryId) ?? []), change.code]);
      else if (change.kind === 'batch_phase' && change.phase === 'merged') this.sawMerge(change.batchId);
    }
  }

  private sawMerge(batchId: string): void {
    if (this.lastConclusion.get(batchId) !== 'success') this.problems.push(`batch ${batchId} merged without passing`);
    for (const parentId of this.parents.get(batchId) ?? []) {
      if (!this.merged.has(parentId)) this.problems.push(`batch ${batchId} merged before its parent ${parentId}`);
    }
    if (this.merged.has(batchId)) this.problems.push(`batch ${batchId} merged twice`);
    this.merged.add(batchId);
  }
}

/** Each entry sits in at most one batch that is checking it. */
export function entriesInTwoBatches(state: QueueState): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const batch of state.batches) {
    if (batch.phase === 'bisecting') continue;
    for (const id of batch.entryIds) {
      if (seen.has(id)) problems.push(`${id} is in two batches`);
      seen.add(id);
    }
  }
  return problems;
}
