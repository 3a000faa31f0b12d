// The deprecated summary of how stays ended over the whole window (public QueueChecksOutcome):
// every outcome named, with 0 where none ended so. Codes are the spec's (§6.4): its neutral word
// where the public document has a brand name.
import { ABORT_CODES } from '../events/shapes/queue-codes.ts';
import { byGroup } from './stats-groups.ts';
import { checksOutcome, type LeaveRow } from './leave-stats.ts';
import type { StatsGroup } from './stats-rows.ts';

export const CHECKS_OUTCOMES = ['SUCCESS', ...ABORT_CODES] as const;

export type ChecksOutcomeCounts = Record<(typeof CHECKS_OUTCOMES)[number], number>;

export function checksOutcomeTotals(rows: readonly LeaveRow[]): (StatsGroup & { stats: ChecksOutcomeCounts })[] {
  return byGroup(rows).map(({ group, rows: own }) => {
    const stats = Object.fromEntries(CHECKS_OUTCOMES.map((outcome) => [outcome, 0])) as ChecksOutcomeCounts;
    for (const row of own) {
      const outcome = checksOutcome(row);
      if (outcome !== undefined && Object.hasOwn(stats, outcome)) stats[outcome as keyof ChecksOutcomeCounts] += 1;
    }
    return { ...group, stats };
  });
}
