// Who a new batch depends on (DESIGN §9, parallel and serial modes), in O(its scopes): for each
// scope the latest batch holding it; the latest barrier; and the frontier (batches nothing
// depends on yet), which a barrier takes as parents. Every earlier batch is an ancestor of some
// frontier batch, so the frontier stands for "every earlier batch" with far fewer edges.
import type { PlanNode } from './plan-node.ts';

export class DependencyLanes {
  private readonly latestHolder = new Map<string, PlanNode>();
  private lastBarrier: PlanNode | null = null;
  private lastNode: PlanNode | null = null;
  private readonly frontier = new Set<PlanNode>();

  /** Records a batch placed after every batch added before it. */
  add(node: PlanNode): void {
    for (const parent of node.parents) this.frontier.delete(parent);
    this.frontier.add(node);
    this.lastNode = node;
    if (node.barrier) this.lastBarrier = node;
    else for (const scope of node.scopes) this.latestHolder.set(scope, node);
  }

  /** The parents a new batch with these scopes gets. */
  parentsFor(scopes: readonly string[], barrier: boolean): PlanNode[] {
    if (barrier) return [...this.frontier];
    const barrierIndex = this.lastBarrier?.index ?? -1;
    // One scope is the common case: answer it without growing an array (a re-plan makes
    // thousands of these, and every byte allocated here is copied by the young-generation GC).
    if (scopes.length === 1) {
      const holder = this.latestHolder.get(scopes[0] as string);
      const own = holder && holder.index > barrierIndex ? holder : null;
      if (own && this.lastBarrier) return [own, this.lastBarrier];
      if (own) return [own];
      return this.lastBarrier ? [this.lastBarrier] : [];
    }
    const parents: PlanNode[] = [];
    for (const scope of scopes) {
      const holder = this.latestHolder.get(scope);
      // A holder before the last barrier is already an ancestor of that barrier.
      if (holder && holder.index > barrierIndex && !parents.includes(holder)) parents.push(holder);
    }
    if (this.lastBarrier) parents.push(this.lastBarrier);
    return parents;
  }

  /**
   * Whether an entry with these scopes may join `open` (a batch of the same scope set) without
   * moving ahead of an earlier entry it shares a scope with: no batch after `open` holds one of
   * its scopes, and no barrier came after it (a barrier entry: no batch at all came after it).
   */
  canJoin(open: PlanNode, scopes: readonly string[], barrier: boolean): boolean {
    if (barrier) return this.lastNode === open;
    if (this.lastBarrier && this.lastBarrier.index > open.index) return false;
    for (const scope of scopes) if (this.latestHolder.get(scope) !== open) return false;
    return true;
  }
}
