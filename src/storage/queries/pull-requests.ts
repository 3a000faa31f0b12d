// Pull request state as the hosting platform reports it (webhooks or the admin API).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.ts';

export type PullRequestState = 'open' | 'closed' | 'merged';

export interface PullRequest {
  number: bigint;
  state: PullRequestState;
  headSha: string | null;
  baseRef: string | null;
  /** Draft, title, author, labels and page, when the platform told them (webhooks). */
  details?: { draft: boolean; title: string; author: { login: string; id: bigint }; labels: string[]; url?: string };
}

type Db = Kysely<Database> | Transaction<Database>;

/**
 * How a recorded state is ordered against the one stored. A webhook's by the platform's own
 * time (pull_request.updated_at; null when its payload had none): never before a state the
 * platform reported later, and, once a time is known, never by one that cannot be placed
 * against it. The operator's (the admin API, for platforms without webhooks) is applied as it
 * comes.
 */
export type StateOrder = { platformUpdatedAt: Date | null } | 'operator';

export class PullRequestQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async find(repositoryId: string, number: bigint, db: Db = this.db): Promise<PullRequest | undefined> {
    const row = await db
      .selectFrom('pull_requests')
      .select(['number', 'state', 'head_sha', 'base_ref'])
      .where('repository_id', '=', repositoryId)
      .where('number', '=', number.toString())
      .executeTakeFirst();
    return row && { number: BigInt(row.number), state: row.state, headSha: row.head_sha, baseRef: row.base_ref };
  }

  /** Open pull requests whose head is `sha` (a check or status on it changed). */
  async openWithHead(repositoryId: string, sha: string, db: Db = this.db): Promise<bigint[]> {
    const rows = await db.selectFrom('pull_requests').select('number').where('repository_id', '=', repositoryId).where('state', '=', 'open').where('head_sha', '=', sha).execute();
    return rows.map((row) => BigInt(row.number));
  }

  /** Open pull requests, all or those on one base branch, by number; at most `limit`. */
  async open(repositoryId: string, options: { baseRef?: string; limit?: number } = {}, db: Db = this.db): Promise<bigint[]> {
    let query = db.selectFrom('pull_requests').select('number').where('repository_id', '=', repositoryId).where('state', '=', 'open');
    if (options.baseRef !== undefined) query = query.where('base_ref', '=', options.baseRef);
    const rows = await query.orderBy('number').limit(options.limit ?? 10_000).execute();
    return rows.map((row) => BigInt(row.number));
  }

  /**
   * Serialises, until the transaction ends, everything that orders itself against this pull
   * request (head moves, reports by number), whether or not its row exists yet. An arrival
   * number taken after this lock is therefore in commit order for the pull request. The lock is
   * the SQL function lock_pull_request (migration 0004), which reports by number take too.
   */
  async lock(trx: Transaction<Database>, repositoryId: string, number: bigint): Promise<void> {
    await sql`SELECT lock_pull_request(${repositoryId}, ${number.toString()})`.execute(trx);
  }

  /**
   * Records a pull request's state. A new head takes a fresh arrival number, which is what
   * orders head moves against scope reports; an unchanged head keeps its number. Runs under the
   * pull request's lock, in `db`'s transaction or in one of its own. A webhook's state older
   * than the one stored (the platform already reported a later one), or without a time when the
   * stored one has one, changes nothing: the call answers false.
   */
  async upsert(db: Db, repositoryId: string, pull: PullRequest, order: StateOrder = 'operator'): Promise<boolean> {
    if (!db.isTransaction) return db.transaction().execute((trx) => this.upsert(trx, repositoryId, pull, order));
    const platformUpdatedAt = order === 'operator' ? null : order.platformUpdatedAt;
    await this.lock(db as Transaction<Database>, repositoryId, pull.number);
    const result = await db
      .insertInto('pull_requests')
      .values({
        repository_id: repositoryId,
        number: pull.number.toString(),
        state: pull.state,
        head_sha: pull.headSha,
        base_ref: pull.baseRef,
        platform_updated_at: platformUpdatedAt,
        ...(pull.details
          ? { draft: pull.details.draft, title: pull.details.title, author_login: pull.details.author.login, author_id: pull.details.author.id.toString(), labels: pull.details.labels, html_url: pull.details.url ?? null }
          : {}),
      })
      .onConflict((oc) => {
        const update = oc
          .columns(['repository_id', 'number'])
          .doUpdateSet((eb) => ({
            state: eb.ref('excluded.state'),
            head_sha: sql<string | null>`coalesce(excluded.head_sha, pull_requests.head_sha)`,
            base_ref: sql<string | null>`coalesce(excluded.base_ref, pull_requests.base_ref)`,
            head_seq: sql<string>`CASE WHEN excluded.head_sha IS DISTINCT FROM pull_requests.head_sha AND excluded.head_sha IS NOT NULL
              THEN excluded.head_seq ELSE pull_requests.head_seq END`,
            updated_at: sql<Date>`now()`,
            platform_updated_at: sql<Date | null>`greatest(excluded.platform_updated_at, pull_requests.platform_updated_at)`,
            ...(pull.details
              ? {
                  draft: eb.ref('excluded.draft'),
                  title: eb.ref('excluded.title'),
                  author_login: eb.ref('excluded.author_login'),
                  author_id: eb.ref('excluded.author_id'),
                  labels: eb.ref('excluded.labels'),
                  html_url: sql<string | null>`coalesce(excluded.html_url, pull_requests.html_url)`,
                }
              : {}),
          }));
        // No time stored (recorded by the operator, or from payloads without one): arrival order
        // is all there is. A time stored: only a state at least as recent replaces it.
        return order === 'operator' ? update : update.where(sql<boolean>`(pull_requests.platform_updated_at IS NULL OR excluded.platform_updated_at >= pull_requests.platform_updated_at)`);
      })
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
}
