// Assembles the aggregation result (spec §2.6) from per-grouping counts: each facet takes the
// count that ignores its own pair, the histogram and total take the count that applies them all.
import { FACETS, rankFacet, type FacetCount, type FacetName } from './facets.ts';
import { zeroFilledHistogram, type HistogramBucket } from './histogram.ts';
import type { TimeWindow } from './time-window.ts';

export type Grouping = 'histogram' | 'type' | 'outcome' | 'trigger' | 'pull_request' | 'batch_pull_request';

export interface GroupCount {
  grouping: Grouping;
  value: string | null;
  all: number;
  notTrigger: number;
  notPull: number;
  notBatch: number;
}

export interface AggregateResult {
  total: number;
  interval_size_seconds: number;
  histogram: HistogramBucket[];
  by_event_type: FacetCount[];
  by_outcome: FacetCount[];
  by_trigger: FacetCount[];
  by_pull_request: FacetCount[];
  by_batch_pull_request: FacetCount[];
}

function facet(name: FacetName, rows: readonly GroupCount[]): FacetCount[] {
  const source = FACETS[name];
  return rankFacet(name, rows.filter((row) => row.grouping === source.grouping).map((row) => ({ value: row.value, count: source.count(row) })));
}

export function aggregateResult(rows: readonly GroupCount[], window: TimeWindow, stepSeconds: number): AggregateResult {
  const buckets = new Map<number, number>();
  let total = 0;
  for (const row of rows) {
    if (row.grouping !== 'histogram' || row.all === 0) continue;
    buckets.set(Number(row.value), row.all);
    total += row.all;
  }
  const facets = Object.fromEntries((Object.keys(FACETS) as FacetName[]).map((name) => [name, facet(name, rows)])) as Record<FacetName, FacetCount[]>;
  return { total, interval_size_seconds: stepSeconds, histogram: zeroFilledHistogram(window, stepSeconds, buckets), ...facets };
}
