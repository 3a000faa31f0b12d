// Scope reports by commit and by pull request number. Each write takes a fresh arrival number
// under the lock of the row it replaces (or of its pull request), so for any one row arrival
// order is commit order. Effective scopes are computed when read, never written out.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.ts';
import type { ScopeReport } from '../../domain/scopes/scope-report.ts';
import type { PullScopeInputs, StoredScopeReport } from '../../domain/scopes/effective-scopes.ts';
import type { PullRequestState } from './pull-requests.ts';
import { WriteBatcher } from '../write-batcher.ts';
import { compareDecimal } from '../../domain/int64.ts';

interface ReportColumns {
  scopes: string[];
  all_scopes: boolean;
  seq: string;
  reported_at: Date;
}

export interface PullScopeRow extends PullScopeInputs {
  /** Null when the pull request is known only from reports by number. */
  state: PullRequestState | null;
  headSha: string | null;
}

function stored(row: ReportColumns): StoredScopeReport {
  return { scopes: row.scopes, allScopes: row.all_scopes, seq: BigInt(row.seq), reportedAt: row.reported_at };
}

interface CommitReport {
  repositoryId: string;
  sha: string;
  report: ScopeReport;
}

/** Two statements in flight; 10,000 reports waiting at most; about 4 MB of scopes a statement. */
const BATCHING = {
  maxInFlight: 2,
  maxQueued: 10_000,
  maxWeight: 4 * 1024 * 1024,
  weigh: ({ report }: { report: ScopeReport }) => 64 + report.scopes.reduce((sum, scope) => sum + scope.length, 0),
};

interface PullReport {
  repositoryId: string;
  number: bigint;
  report: ScopeReport;
}


export class ScopeReportQueries {
  // Reports by commit come from every CI job: under load, those arriving together share one
  // statement (bench/RESULTS.md, scope reports).
  private readonly commitReports = new WriteBatcher<CommitReport>(async (reports) => (await this.putCommits(reports), reports.map(() => undefined)), {
    ...BATCHING,
    maxBatch: 500,
    keyOf: (r) => `${r.repositoryId}:${r.sha}`,
  });

  // At most 100 pull requests' locks held by one call.
  private readonly pullReports = new WriteBatcher<PullReport, boolean | null>((reports) => this.callPutPulls(reports, false), {
    ...BATCHING,
    maxBatch: 100,
    keyOf: (r) => `${r.repositoryId}:${r.number}`,
  });

  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces the report of a commit; resolves once it is committed. */
  putCommit(repositoryId: string, sha: string, report: ScopeReport): Promise<void> {
    return this.commitReports.write({ repositoryId, sha, report });
  }

  /**
   * Replaces the reports of distinct commits in one statement. Rows go in key order, so two
   * statements replacing the same rows lock them in the same order. The arrival number of a
   * replacement is taken in DO UPDATE, that is after the row lock, so for any one commit
   * arrival order is commit order.
   */
  private async putCommits(reports: CommitReport[]): Promise<void> {
    const rows = [...reports].sort((a, b) => compareDecimal(a.repositoryId, b.repositoryId) || (a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0));
    await this.db
      .insertInto('commit_scope_reports')
      .values(rows.map(({ repositoryId, sha, report }) => ({ repository_id: repositoryId, sha, scopes: report.scopes, all_scopes: report.allScopes, seq: sql`nextval('arrival_seq')`, reported_at: sql`clock_timestamp()` })))
      .onConflict((oc) =>
        oc.columns(['repository_id', 'sha']).doUpdateSet((eb) => ({
          scopes: eb.ref('excluded.scopes'),
          all_scopes: eb.ref('excluded.all_scopes'),
          seq: sql`nextval('arrival_seq')`,
          reported_at: sql`clock_timestamp()`,
        })),
      )
      .execute();
  }

  /**
   * Replaces the report by number of a pull request, under its lock; false (nothing written)
   * once it is closed or merged. Reports arriving together share one call of a function of
   * migration 0004, which does not wait for a lock another transaction holds: such a report is
   * then written alone, waiting for its own lock only, outside the batch, so one busy pull
   * request holds up no other report.
   */
  async putPull(repositoryId: string, number: bigint, report: ScopeReport): Promise<boolean> {
    const written = await this.pullReports.write({ repositoryId, number, report });
    return written ?? (await this.callPutPulls([{ repositoryId, number, report }], true))[0]!;
  }

  /**
   * One call of put_pull_scope_reports (migration 0004), for distinct pull requests: true
   * written, false refused, null busy (only when not waiting for locks).
   */
  private async callPutPulls(reports: PullReport[], wait: boolean): Promise<(boolean | null)[]> {
    const { rows } = await sql<{ written: (boolean | null)[] }>`
      SELECT put_pull_scope_reports(${reports.map((r) => r.repositoryId)}::bigint[], ${reports.map((r) => r.number.toString())}::bigint[],
        ${reports.map((r) => JSON.stringify(r.report.scopes))}::text[], ${reports.map((r) => r.report.allScopes)}::boolean[], ${wait}) AS written`.execute(this.db);
    return rows[0]!.written;
  }

  async findCommit(repositoryId: string, sha: string): Promise<StoredScopeReport | undefined> {
    const row = await this.db
      .selectFrom('commit_scope_reports')
      .select(['scopes', 'all_scopes', 'seq', 'reported_at'])
      .where('repository_id', '=', repositoryId)
      .where('sha', '=', sha)
      .executeTakeFirst();
    return row && stored(row);
  }

  /**
   * Everything the effective scopes of a pull request depend on, read in one statement so the
   * three rows come from one snapshot. Undefined when neither the pull request nor a report by
   * number is known.
   */
  async findPullInputs(repositoryId: string, number: bigint): Promise<PullScopeRow | undefined> {
    const result = await sql<PullInputsRow>`
      SELECT pr.state, pr.head_sha, pr.head_seq,
             p.scopes AS p_scopes, p.all_scopes AS p_all_scopes, p.seq AS p_seq, p.reported_at AS p_reported_at,
             c.scopes AS c_scopes, c.all_scopes AS c_all_scopes, c.seq AS c_seq, c.reported_at AS c_reported_at
      FROM (SELECT ${repositoryId}::bigint AS repository_id, ${number}::bigint AS number) AS target
      LEFT JOIN pull_requests pr ON pr.repository_id = target.repository_id AND pr.number = target.number
      LEFT JOIN pull_scope_reports p ON p.repository_id = target.repository_id AND p.number = target.number
      LEFT JOIN commit_scope_reports c ON c.repository_id = target.repository_id AND c.sha = pr.head_sha`.execute(this.db);
    const row = result.rows[0];
    if (!row || (row.state === null && row.p_seq === null)) return undefined;
    return {
      state: row.state,
      headSha: row.head_sha,
      headSeq: row.head_seq === null ? null : BigInt(row.head_seq),
      byNumber: row.p_seq === null ? undefined : stored({ scopes: row.p_scopes!, all_scopes: row.p_all_scopes!, seq: row.p_seq, reported_at: row.p_reported_at! }),
      headCommit: row.c_seq === null ? undefined : stored({ scopes: row.c_scopes!, all_scopes: row.c_all_scopes!, seq: row.c_seq, reported_at: row.c_reported_at! }),
    };
  }
}

interface PullInputsRow {
  state: PullRequestState | null;
  head_sha: string | null;
  head_seq: string | null;
  p_scopes: string[] | null;
  p_all_scopes: boolean | null;
  p_seq: string | null;
  p_reported_at: Date | null;
  c_scopes: string[] | null;
  c_all_scopes: boolean | null;
  c_seq: string | null;
  c_reported_at: Date | null;
}
