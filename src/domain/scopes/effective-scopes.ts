// The effective scopes of a pull request (DESIGN.md §5): the latest to arrive of its report by
// number and the report of the commit that is its current head. Arrival is measured by values
// of one shared sequence, taken by every report and by every head move.

export interface StoredScopeReport {
  scopes: string[];
  allScopes: boolean;
  /** Arrival number of the report. */
  seq: bigint;
  reportedAt: Date;
}

export interface PullScopeInputs {
  /** The latest report by number, if any. */
  byNumber: StoredScopeReport | undefined;
  /** The report of the commit that is the pull request's head, if both are known. */
  headCommit: StoredScopeReport | undefined;
  /** Arrival number of the move onto the current head; null when no head is known. */
  headSeq: bigint | null;
}

export type ScopeSource = 'commit' | 'pull_request';

export interface EffectiveScopes {
  scopes: string[];
  allScopes: boolean;
  source: ScopeSource | null;
  reportedAt: Date | null;
}

const NOTHING_REPORTED: EffectiveScopes = { scopes: [], allScopes: false, source: null, reportedAt: null };

/**
 * A commit report that arrived before the pull request moved onto that commit counts from the
 * move, so it beats a report by number sent in between, computed for the old head.
 */
export function commitReportArrival(report: StoredScopeReport, headSeq: bigint | null): bigint {
  return headSeq !== null && headSeq > report.seq ? headSeq : report.seq;
}

export function effectiveScopes({ byNumber, headCommit, headSeq }: PullScopeInputs): EffectiveScopes {
  const commitWins = headCommit !== undefined && (byNumber === undefined || commitReportArrival(headCommit, headSeq) > byNumber.seq);
  if (commitWins) return describe(headCommit, 'commit');
  return byNumber ? describe(byNumber, 'pull_request') : NOTHING_REPORTED;
}

function describe(report: StoredScopeReport, source: ScopeSource): EffectiveScopes {
  return { scopes: report.scopes, allScopes: report.allScopes, source, reportedAt: report.reportedAt };
}
