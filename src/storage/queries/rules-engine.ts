// The rules engine's rows (migration 0040): what is due for evaluation and when, each pull
// request's last evaluation, and the lease that lets one process evaluate a repository at a time.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredRuleState {
  headSha: string;
  /** By rule key (`section/name`): 'true', 'false' or 'pending'. */
  rules: Record<string, string>;
  summary: unknown;
  evaluatedAt: Date;
}

export class RulesEngineQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Asks for an evaluation of each pull request at `dueAt`, or earlier if one is asked for already.
   * A row already due when asked (`askedAt`, now) may be under evaluation from a snapshot read
   * before this ask: it moves just past the instant the evaluation read, so the evaluation's
   * `done` keeps it and the pull request is evaluated again, at once (a later instant could be put
   * off forever by a stream of asks while the engine is busy).
   */
  async schedule(repositoryId: string, numbers: readonly bigint[], dueAt: Date, askedAt: Date = earliest(dueAt, new Date()), db: Db = this.db): Promise<void> {
    if (numbers.length === 0) return;
    await db
      .insertInto('rule_evaluations_due')
      .values(numbers.map((number) => ({ repository_id: repositoryId, number: number.toString(), due_at: dueAt })))
      .onConflict((oc) => oc.columns(['repository_id', 'number']).doUpdateSet({ due_at: askedAgain(sql.ref('rule_evaluations_due.due_at'), askedAt) }))
      .execute();
  }

  /** Repositories with an evaluation or a configuration read due at `now`. */
  async repositoriesDue(now: Date, limit = 200): Promise<string[]> {
    const rows = await this.db
      .selectFrom('rule_evaluations_due')
      .select('repository_id')
      .where('due_at', '<=', now)
      .union(this.db.selectFrom('configuration_reads_due').select('repository_id').where('due_at', '<=', now))
      .limit(limit)
      .execute();
    return [...new Set(rows.map((row) => row.repository_id))];
  }

  /** The pull requests of a repository due at `now`, earliest first, with the instant each was due. */
  async due(repositoryId: string, now: Date, limit: number): Promise<{ number: bigint; dueAt: Date }[]> {
    const rows = await this.db.selectFrom('rule_evaluations_due').select(['number', 'due_at']).where('repository_id', '=', repositoryId).where('due_at', '<=', now).orderBy('due_at').limit(limit).execute();
    return rows.map((row) => ({ number: BigInt(row.number), dueAt: row.due_at }));
  }

  /** Removes a due row unless it was asked for again (later) since it was read. */
  async done(repositoryId: string, number: bigint, dueAt: Date): Promise<void> {
    await this.db.deleteFrom('rule_evaluations_due').where('repository_id', '=', repositoryId).where('number', '=', number.toString()).where('due_at', '<=', dueAt).execute();
  }

  /** The earliest instant anything is due, for the loop's sleep. */
  async nextDue(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('rule_evaluations_due')
      .select(sql<Date | null>`min(due_at)`.as('at'))
      .executeTakeFirst();
    const reads = await this.db.selectFrom('configuration_reads_due').select(sql<Date | null>`min(due_at)`.as('at')).executeTakeFirst();
    const all = [row?.at, reads?.at].filter((at): at is Date => at instanceof Date);
    return all.length === 0 ? null : new Date(Math.min(...all.map((at) => at.getTime())));
  }

  /** A read of the configuration file at `dueAt` (or earlier); a read due already is kept as `schedule` keeps an evaluation. */
  async scheduleConfigurationRead(repositoryId: string, dueAt: Date, db: Db = this.db, askedAt: Date = earliest(dueAt, new Date())): Promise<void> {
    await db
      .insertInto('configuration_reads_due')
      .values({ repository_id: repositoryId, due_at: dueAt })
      .onConflict((oc) => oc.column('repository_id').doUpdateSet({ due_at: askedAgain(sql.ref('configuration_reads_due.due_at'), askedAt) }))
      .execute();
  }

  /** Repositories whose file was never read (registered before the rules engine existed): due now. */
  async scheduleUnreadConfigurations(now: Date): Promise<void> {
    await this.db
      .insertInto('configuration_reads_due')
      .columns(['repository_id', 'due_at'])
      .expression((eb) => eb.selectFrom('repositories as r').select(['r.id', sql<Date>`${now}::timestamptz`.as('due_at')]).where(({ not, exists, selectFrom }) => not(exists(selectFrom('repository_configurations as c').select('c.repository_id').whereRef('c.repository_id', '=', 'r.id')))))
      .onConflict((oc) => oc.column('repository_id').doNothing())
      .execute();
  }

  async configurationReadDue(repositoryId: string, now: Date): Promise<Date | null> {
    const row = await this.db.selectFrom('configuration_reads_due').select('due_at').where('repository_id', '=', repositoryId).where('due_at', '<=', now).executeTakeFirst();
    return row?.due_at ?? null;
  }

  async configurationReadDone(repositoryId: string, dueAt: Date): Promise<void> {
    await this.db.deleteFrom('configuration_reads_due').where('repository_id', '=', repositoryId).where('due_at', '<=', dueAt).execute();
  }

  async state(repositoryId: string, number: bigint, db: Db = this.db): Promise<StoredRuleState | null> {
    const row = await db.selectFrom('pull_rule_states').selectAll().where('repository_id', '=', repositoryId).where('number', '=', number.toString()).executeTakeFirst();
    if (!row) return null;
    return { headSha: row.head_sha, rules: JSON.parse(row.rules) as Record<string, string>, summary: JSON.parse(row.summary) as unknown, evaluatedAt: row.evaluated_at };
  }

  async saveState(repositoryId: string, number: bigint, state: StoredRuleState, db: Db = this.db): Promise<void> {
    const values = { head_sha: state.headSha, rules: JSON.stringify(state.rules), summary: JSON.stringify(state.summary), evaluated_at: state.evaluatedAt };
    await db
      .insertInto('pull_rule_states')
      .values({ repository_id: repositoryId, number: number.toString(), ...values })
      .onConflict((oc) => oc.columns(['repository_id', 'number']).doUpdateSet(values))
      .execute();
  }

  /**
   * For queued pull requests, their queue rule's conditions as last evaluated (the public JSON the
   * rules engine stored), when that evaluation was of the rule they are queued under.
   */
  async queueConditions(repositoryId: string, entries: readonly { number: bigint; rule: string }[], db: Db = this.db): Promise<Map<bigint, unknown>> {
    const found = new Map<bigint, unknown>();
    if (entries.length === 0) return found;
    const rules = new Map(entries.map((entry) => [entry.number, entry.rule]));
    const rows = await db.selectFrom('pull_rule_states').select(['number', 'summary']).where('repository_id', '=', repositoryId).where('number', 'in', entries.map((entry) => entry.number.toString())).execute();
    for (const row of rows) {
      const queue = (JSON.parse(row.summary) as { queue?: { rule?: unknown; conditions_evaluation?: unknown } | null }).queue;
      const number = BigInt(row.number);
      if (queue && queue.rule === rules.get(number) && queue.conditions_evaluation) found.set(number, queue.conditions_evaluation);
    }
    return found;
  }

  /** Takes or renews the repository's lease for `holder`; false when another process holds it. */
  async claimLease(repositoryId: string, holder: string, until: Date, now: Date): Promise<boolean> {
    const result = await this.db
      .insertInto('rules_engine_leases')
      .values({ repository_id: repositoryId, holder, lease_until: until })
      .onConflict((oc) =>
        oc
          .column('repository_id')
          .doUpdateSet({ holder, lease_until: until })
          .where((eb) => eb.or([eb('rules_engine_leases.holder', '=', holder), eb('rules_engine_leases.lease_until', '<', now)])),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async releaseLeases(holder: string): Promise<void> {
    await this.db.deleteFrom('rules_engine_leases').where('holder', '=', holder).execute();
  }
}

function earliest(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** The new instant of a row asked for again: the earlier of both, unless the row was due already (then just past it, due now). */
function askedAgain(existing: RawBuilder<unknown>, askedAt: Date) {
  return sql<Date>`case when ${existing} <= ${askedAt}::timestamptz then greatest(${existing} + interval '1 millisecond', ${askedAt}::timestamptz) else least(${existing}, excluded.due_at) end`;
}
