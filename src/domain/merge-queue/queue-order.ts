// The queue's order (DESIGN §9): priority (high, medium, low), then entry time, then entry id.
import type { Priority, QueueEntry } from './model.ts';

const PRIORITY_RANK: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

export function compareQueueOrder(a: QueueEntry, b: QueueEntry): number {
  return (
    PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
    a.enteredAt - b.enteredAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** A sorted copy; the input is left alone. */
export function sortInQueueOrder(entries: readonly QueueEntry[]): QueueEntry[] {
  return [...entries].sort(compareQueueOrder);
}
