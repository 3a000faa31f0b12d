// The scopes the plan uses for each entry not yet embarked (DESIGN §9). Only a parallel queue
// reads scopes to decide anything, so only it waits for a report: up to `wait_seconds` after the
// entry began waiting, then the entry is planned as a barrier (at once with missing: barrier).
// A serial queue ignores scopes; an isolated one groups unreported entries as the empty set.
// Two parallel arrays rather than an object per entry: a re-plan walks ten thousand of them.
import type { MergeQueueConfig, QueueEntry, ScopeSet, WaitingEntry } from './model.ts';

export interface PlannableEntries {
  /** In queue order; an entry's index is its position. */
  entries: QueueEntry[];
  /** The scope set each entry is planned with (the entry's own report, or a shared constant). */
  scopeSets: ScopeSet[];
}

const NO_SCOPES: ScopeSet = { scopes: [], allScopes: false };
const UNREPORTED_BARRIER: ScopeSet = { scopes: [], allScopes: true };

export function planningScopes(sortedEntries: readonly QueueEntry[], config: MergeQueueConfig, now: number): { plannable: PlannableEntries; waiting: WaitingEntry[] } {
  const plannable: PlannableEntries = { entries: [], scopeSets: [] };
  const waiting: WaitingEntry[] = [];
  const mode = config.merge_queue.mode;
  const waitMs = config.scopes.wait_seconds * 1000;
  for (const entry of sortedEntries) {
    let scopeSet: ScopeSet;
    if (mode === 'serial') scopeSet = NO_SCOPES;
    else if (entry.scopes) scopeSet = entry.scopes;
    else if (mode === 'isolated') scopeSet = NO_SCOPES;
    else if (config.scopes.missing === 'wait' && now < entry.scopesAwaitedSince + waitMs) {
      waiting.push({ entryId: entry.id, reason: 'waiting_for_scopes', until: entry.scopesAwaitedSince + waitMs });
      continue;
    } else scopeSet = UNREPORTED_BARRIER;
    plannable.entries.push(entry);
    plannable.scopeSets.push(scopeSet);
  }
  return { plannable, waiting };
}
