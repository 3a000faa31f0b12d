// The aggregate's facets (spec §2.6, §4.4; DESIGN.md §8). by_event_type and by_outcome apply
// every filter; by_trigger, by_pull_request and by_batch_pull_request each ignore their own
// include/exclude pair, list at most 200 values, and skip null values. Rows run by count
// descending, then by value ascending (numerically for pull request numbers); none has count 0.
import type { PairKey } from './activity-log-filters.ts';

export const FACET_LIMIT = 200;

export type FacetName = 'by_event_type' | 'by_outcome' | 'by_trigger' | 'by_pull_request' | 'by_batch_pull_request';

/** The filter pair a facet ignores (null: it applies every filter), and whether it is capped. */
export const FACETS: Record<FacetName, { ignores: PairKey | null; numeric: boolean; limited: boolean }> = {
  by_event_type: { ignores: null, numeric: false, limited: false },
  by_outcome: { ignores: null, numeric: false, limited: false },
  by_trigger: { ignores: 'trigger', numeric: false, limited: true },
  by_pull_request: { ignores: 'pullRequest', numeric: true, limited: true },
  by_batch_pull_request: { ignores: 'batchPull', numeric: true, limited: true },
};

export interface FacetCount {
  value: string;
  count: number;
}

function compareValues(a: string, b: string, numeric: boolean): number {
  if (numeric) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders a facet's counts and keeps the top of it; zero counts and null values are dropped. */
export function rankFacet(name: FacetName, counts: Iterable<{ value: string | null; count: number }>): FacetCount[] {
  const { numeric, limited } = FACETS[name];
  const rows = [...counts].filter((row): row is FacetCount => row.value !== null && row.count > 0);
  rows.sort((a, b) => b.count - a.count || compareValues(a.value, b.value, numeric));
  return limited ? rows.slice(0, FACET_LIMIT) : rows;
}
