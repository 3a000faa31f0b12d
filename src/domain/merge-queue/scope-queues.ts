// The public `scope_queues`: for each scope, the batches holding it in plan order. A barrier
// holds every scope, so it is listed in every scope's queue. Empty for a serial queue, whose
// batches have no scopes.
import type { PlanNode } from './plan-node.ts';

export function scopeQueues(nodes: readonly PlanNode[]): Record<string, string[]> {
  const queues = new Map<string, string[]>();
  for (const node of nodes) for (const scope of node.scopes) if (!queues.has(scope)) queues.set(scope, []);
  const everyQueue = [...queues.values()];
  for (const node of nodes) {
    if (node.allScopes) for (const queue of everyQueue) queue.push(node.id);
    else for (const scope of node.scopes) queues.get(scope)?.push(node.id);
  }
  return Object.fromEntries(queues);
}
