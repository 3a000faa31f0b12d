// Who a new batch depends on (DESIGN §9, parallel and serial modes), in O(its scopes): for each
// scope the latest batch holding it; the latest barrier; and the frontier (batches nothing
// depends on yet), which a barrier takes as parents. Every earlier batch is an ancestor of some
// frontier batch, so the frontier stands for "every earlier batch" with far fewer edges.
// Batches are indexes of a PlanGraph, added in plan order.
import type { PlanGraph } from './plan-graph.ts';

export class DependencyLanes {
  private readonly latestHolder = new Map<string, number>();
  private lastBarrier = -1;
  private lastBatch = -1;
  private readonly frontier = new Set<number>();

  constructor(private readonly graph: PlanGraph) {}

  /** Records a batch (its parents already in the graph) placed after every batch added before it. */
  add(batch: number): void {
    const graph = this.graph;
    for (let i = 0; i < graph.parentCount(batch); i++) this.frontier.delete(graph.parentAt(batch, i));
    this.frontier.add(batch);
    this.lastBatch = batch;
    if (graph.barrier[batch]) this.lastBarrier = batch;
    else for (const scope of graph.scopes[batch] as readonly string[]) this.latestHolder.set(scope, batch);
  }

  /** Adds to the graph, as the parents of the batch being added, those a batch with these scopes gets. */
  addParents(scopes: readonly string[], barrier: boolean): void {
    const graph = this.graph;
    if (barrier) {
      for (const batch of this.frontier) graph.addParent(batch);
      return;
    }
    for (const scope of scopes) {
      const holder = this.latestHolder.get(scope);
      // A holder before the last barrier is already an ancestor of that barrier.
      if (holder !== undefined && holder > this.lastBarrier) graph.addParent(holder);
    }
    if (this.lastBarrier >= 0) graph.addParent(this.lastBarrier);
  }

  /**
   * Whether an entry with these scopes may join `open` (a batch of the same scope set) without
   * moving ahead of an earlier entry it shares a scope with: no batch after `open` holds one of
   * its scopes, and no barrier came after it (a barrier entry: no batch at all came after it).
   */
  canJoin(open: number, scopes: readonly string[], barrier: boolean): boolean {
    if (barrier) return this.lastBatch === open;
    if (this.lastBarrier > open) return false;
    for (const scope of scopes) if (this.latestHolder.get(scope) !== open) return false;
    return true;
  }
}
