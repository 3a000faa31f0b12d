// Summaries of a set of values: mean, percentiles (linear between the closest ranks, as
// PostgreSQL's percentile_cont), minimum, maximum, sum.

export interface Distribution {
  count: number;
  sum: number;
  mean: number;
  min: number;
  max: number;
  /** The p-th percentile, 0 ≤ p ≤ 1. */
  percentile(p: number): number;
}

/** Undefined for no values: a summary of nothing has no mean. */
export function distributionOf(values: readonly number[]): Distribution | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return { count: sorted.length, sum, mean: sum / sorted.length, min: sorted[0]!, max: sorted.at(-1)!, percentile: (p) => percentileOfSorted(sorted, p) };
}

export function percentileOfSorted(sorted: readonly number[], p: number): number {
  const rank = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const below = Math.floor(rank);
  const above = Math.ceil(rank);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
}
