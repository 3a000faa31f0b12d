// The aggregate's facets (spec §2.6, §4.4; DESIGN.md §8). by_event_type and by_outcome apply
// every filter; by_trigger, by_pull_request and by_batch_pull_request each ignore their own
// include/exclude pair, list at most 200 values, and skip null values. Rows run by count
// descending, then by value ascending (numerically for pull request numbers); none has count 0.
import { compareDecimal } from '../int64.ts';
import type { GroupCount, Grouping } from './aggregate-result.ts';

export const FACET_LIMIT = 200;

export type FacetName = 'by_event_type' | 'by_outcome' | 'by_trigger' | 'by_pull_request' | 'by_batch_pull_request';

interface Facet {
  /** The rows of the aggregate's counts it is read from. */
  grouping: Grouping;
  /** Its count of a row: all filters applied, or all but its own pair. */
  count: (row: GroupCount) => number;
  /** Values are pull request numbers (ordered as numbers). */
  numeric: boolean;
  /** At most FACET_LIMIT values. */
  limited: boolean;
}

export const FACETS: Record<FacetName, Facet> = {
  by_event_type: { grouping: 'type', count: (row) => row.all, numeric: false, limited: false },
  by_outcome: { grouping: 'outcome', count: (row) => row.all, numeric: false, limited: false },
  by_trigger: { grouping: 'trigger', count: (row) => row.notTrigger, numeric: false, limited: true },
  by_pull_request: { grouping: 'pull_request', count: (row) => row.notPull, numeric: true, limited: true },
  by_batch_pull_request: { grouping: 'batch_pull_request', count: (row) => row.notBatch, numeric: true, limited: true },
};

export interface FacetCount {
  value: string;
  count: number;
}

function compareValues(a: string, b: string, numeric: boolean): number {
  if (numeric) return compareDecimal(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders a facet's counts and keeps the top of it; zero counts and null values are dropped. The
 * aggregate from counts already cuts the number facets to this order's first 200 in SQL (so as
 * not to read every number back); ranking them again here is cheap and keeps one definition.
 */
export function rankFacet(name: FacetName, counts: Iterable<{ value: string | null; count: number }>): FacetCount[] {
  const { numeric, limited } = FACETS[name];
  const rows = [...counts].filter((row): row is FacetCount => row.value !== null && row.count > 0);
  rows.sort((a, b) => b.count - a.count || compareValues(a.value, b.value, numeric));
  return limited ? rows.slice(0, FACET_LIMIT) : rows;
}
