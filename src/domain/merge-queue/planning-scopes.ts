// The scopes the plan uses for each entry not yet embarked (DESIGN §9). Only a parallel queue
// reads scopes to decide anything, so only it waits for a report: up to `wait_seconds` after the
// entry began waiting, then the entry is planned as a barrier (at once with missing: barrier).
// A serial queue ignores scopes; an isolated one groups unreported entries as the empty set.
import type { MergeQueueConfig, QueueEntry, WaitingEntry } from './model.ts';

export interface PlannableEntry {
  entry: QueueEntry;
  scopes: readonly string[];
  allScopes: boolean;
  /** Position among the plannable entries, in queue order. */
  position: number;
}

const NO_SCOPES: readonly string[] = [];

export function planningScopes(
  sortedEntries: readonly QueueEntry[],
  config: MergeQueueConfig,
  now: number,
): { plannable: PlannableEntry[]; waiting: WaitingEntry[] } {
  const plannable: PlannableEntry[] = [];
  const waiting: WaitingEntry[] = [];
  const mode = config.merge_queue.mode;
  const waitMs = config.scopes.wait_seconds * 1000;
  for (const entry of sortedEntries) {
    const position = plannable.length;
    if (mode === 'serial') {
      plannable.push({ entry, scopes: NO_SCOPES, allScopes: false, position });
    } else if (entry.scopes) {
      plannable.push({ entry, scopes: entry.scopes.scopes, allScopes: entry.scopes.allScopes, position });
    } else if (mode === 'isolated') {
      plannable.push({ entry, scopes: NO_SCOPES, allScopes: false, position });
    } else if (config.scopes.missing === 'wait' && now < entry.scopesAwaitedSince + waitMs) {
      waiting.push({ entryId: entry.id, reason: 'waiting_for_scopes', until: entry.scopesAwaitedSince + waitMs });
    } else {
      plannable.push({ entry, scopes: NO_SCOPES, allScopes: true, position });
    }
  }
  return { plannable, waiting };
}
