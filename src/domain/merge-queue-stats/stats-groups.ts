// Rows told apart by their group, groups in a stable order: base_ref, queue_name, then
// priority_rule_name (none first). Some statistics (running checks) have no priority rule.
import type { StatsGroup } from './stats-rows.ts';

export interface Grouped<R> {
  group: StatsGroup;
  rows: R[];
}

export function groupKey(group: StatsGroup, withPriority = true): string {
  return JSON.stringify([group.base_ref, group.queue_name, withPriority ? group.priority_rule_name : null]);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const comparePriority = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : compareText(a, b));

export function compareGroups(a: StatsGroup, b: StatsGroup): number {
  return compareText(a.base_ref, b.base_ref) || compareText(a.queue_name, b.queue_name) || comparePriority(a.priority_rule_name, b.priority_rule_name);
}

export function byGroup<R extends StatsGroup>(rows: readonly R[], withPriority = true): Grouped<R>[] {
  const groups = new Map<string, Grouped<R>>();
  for (const row of rows) {
    const key = groupKey(row, withPriority);
    let found = groups.get(key);
    if (!found) {
      const group = { base_ref: row.base_ref, queue_name: row.queue_name, priority_rule_name: withPriority ? row.priority_rule_name : null };
      groups.set(key, (found = { group, rows: [] }));
    }
    found.rows.push(row);
  }
  return [...groups.values()].sort((a, b) => compareGroups(a.group, b.group));
}

/** Each row once per key (a batch's events are written once per pull request of the batch). */
export function distinctBy<R>(rows: readonly R[], key: (row: R) => string): R[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const k = key(row);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
