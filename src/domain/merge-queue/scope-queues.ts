// The public `scope_queues`: for each scope, the batches holding it in plan order. A barrier
// holds every scope, so it is listed in every scope's queue. Empty for a serial queue, whose
// batches have no scopes.
import type { PlanGraph } from './plan-graph.ts';

export function scopeQueues(graph: PlanGraph): Record<string, string[]> {
  const queues = new Map<string, string[]>();
  for (let batch = 0; batch < graph.size; batch++) for (const scope of graph.scopes[batch] as readonly string[]) if (!queues.has(scope)) queues.set(scope, []);
  const everyQueue = [...queues.values()];
  for (let batch = 0; batch < graph.size; batch++) {
    const id = graph.ids[batch] as string;
    if (graph.allScopes[batch]) for (const queue of everyQueue) queue.push(id);
    else for (const scope of graph.scopes[batch] as readonly string[]) queues.get(scope)?.push(id);
  }
  return Object.fromEntries(queues);
}
