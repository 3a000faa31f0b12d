// Rows of the merge queue (migration 0007): queues, the stays of pull requests in them, and
// batches. Loads a queue's state as the pure planner sees it (src/domain/merge-queue/model.ts)
// and writes back what a transition changed. Every write runs in the caller's transaction,
// after lockQueue, so one queue changes one transaction at a time.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, MergeQueueBatchesTable } from '../database.ts';
import type { Batch, BatchPhase, Priority, QueueEntry, QueueTransition, QueueState } from '../../domain/merge-queue/model.ts';
import { effectiveScopes } from '../../domain/scopes/effective-scopes.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface QueueRow {
  id: string;
  repositoryId: string;
  baseRef: string;
  leaseHolder: string | null;
  leaseUntil: Date | null;
  wakeAt: Date | null;
  baseSha: string | null;
  version: bigint;
}

/** What the public shapes show of a queued pull request, beside its entry. */
export interface QueuedPullFacts {
  title: string | null;
  authorLogin: string | null;
  authorId: bigint | null;
  labels: string[];
  draft: boolean;
  state: 'open' | 'closed' | 'merged' | null;
  /** The pull request's current head as last reported (may differ from the entry's). */
  headSha: string | null;
  /** Its page on the hosting platform, as its webhooks told it; null when none did. */
  url: string | null;
}

export interface StoredBatch extends Batch {
  finishedAt: number | null;
  frozenSince: number | null;
  frozenMs: number;
  /** The executor's progress (JSON), null until it starts. */
  run: unknown;
  cleaned: boolean;
}

const QUEUE_COLUMNS = ['id', 'repository_id', 'base_ref', 'lease_holder', 'lease_until', 'wake_at', 'base_sha', 'version'] as const;

function queueOf(row: { id: string; repository_id: string; base_ref: string; lease_holder: string | null; lease_until: Date | null; wake_at: Date | null; base_sha: string | null; version: string }): QueueRow {
  return { id: row.id, repositoryId: row.repository_id, baseRef: row.base_ref, leaseHolder: row.lease_holder, leaseUntil: row.lease_until, wakeAt: row.wake_at, baseSha: row.base_sha, version: BigInt(row.version) };
}

const ms = (date: Date | null): number | null => (date === null ? null : date.getTime());
const at = (time: number | null): Date | null => (time === null ? null : new Date(time));

export class MergeQueueQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** The queue of a base branch, created when missing, locked for the rest of the transaction. */
  async lockOrCreate(trx: Transaction<Database>, repositoryId: string, baseRef: string, newId: string): Promise<QueueRow> {
    await trx.insertInto('merge_queues').values({ id: newId, repository_id: repositoryId, base_ref: baseRef }).onConflict((oc) => oc.columns(['repository_id', 'base_ref']).doNothing()).execute();
    const row = await trx.selectFrom('merge_queues').select(QUEUE_COLUMNS).where('repository_id', '=', repositoryId).where('base_ref', '=', baseRef).forUpdate().executeTakeFirstOrThrow();
    return queueOf(row);
  }

  async lock(trx: Transaction<Database>, queueId: string): Promise<QueueRow | undefined> {
    const row = await trx.selectFrom('merge_queues').select(QUEUE_COLUMNS).where('id', '=', queueId).forUpdate().executeTakeFirst();
    return row && queueOf(row);
  }

  async find(repositoryId: string, baseRef: string, db: Db = this.db): Promise<QueueRow | undefined> {
    const row = await db.selectFrom('merge_queues').select(QUEUE_COLUMNS).where('repository_id', '=', repositoryId).where('base_ref', '=', baseRef).executeTakeFirst();
    return row && queueOf(row);
  }

  async findById(queueId: string, db: Db = this.db): Promise<QueueRow | undefined> {
    const row = await db.selectFrom('merge_queues').select(QUEUE_COLUMNS).where('id', '=', queueId).executeTakeFirst();
    return row && queueOf(row);
  }

  /** Base branches of the repository with at least one pull request queued, by name. */
  async activeBranches(repositoryId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('merge_queues as q')
      .select('q.base_ref')
      .where('q.repository_id', '=', repositoryId)
      .where(({ exists, selectFrom }) => exists(selectFrom('merge_queue_entries as e').select('e.id').whereRef('e.queue_id', '=', 'q.id').where('e.left_at', 'is', null)))
      .orderBy('q.base_ref')
      .execute();
    return rows.map((row) => row.base_ref);
  }

  /** Base branches whose queue held a pull request at some instant of [from, to), by name. */
  async branchesActiveBetween(repositoryId: string, from: Date, to: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('merge_queues as q')
      .select('q.base_ref')
      .where('q.repository_id', '=', repositoryId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('merge_queue_entries as e')
            .select('e.id')
            .whereRef('e.queue_id', '=', 'q.id')
            .where('e.entered_at', '<', to)
            .where((inner) => inner.or([inner('e.left_at', 'is', null), inner('e.left_at', '>', from)])),
        ),
      )
      .orderBy('q.base_ref')
      .execute();
    return rows.map((row) => row.base_ref);
  }

  /** The active entry of a pull request in any queue of the repository. */
  async activeEntryOf(repositoryId: string, number: bigint, db: Db = this.db): Promise<{ entryId: string; queueId: string } | undefined> {
    const row = await db
      .selectFrom('merge_queue_entries')
      .select(['id', 'queue_id'])
      .where('repository_id', '=', repositoryId)
      .where('number', '=', number.toString())
      .where('left_at', 'is', null)
      .executeTakeFirst();
    return row && { entryId: row.id, queueId: row.queue_id };
  }

  /**
   * Active entries with their effective scopes (DESIGN §5), read in one statement; `facts`, when
   * given, gets what the read endpoints show of each pull request from the same rows.
   */
  async activeEntries(queueId: string, db: Db = this.db, facts?: Map<bigint, QueuedPullFacts>): Promise<QueueEntry[]> {
    const { rows } = await sql<EntryRow & PullFactsRow>`
      SELECT e.id, e.number, e.head_sha, e.queue_rule, e.priority, e.priority_rule_name, e.entered_at,
             e.scopes_awaited_since, e.embark_count, pr.head_seq,
             pr.title, pr.author_login, pr.author_id, pr.labels, pr.draft, pr.state, pr.head_sha AS pr_head_sha, pr.html_url,
             p.scopes AS p_scopes, p.all_scopes AS p_all_scopes, p.seq AS p_seq, p.reported_at AS p_reported_at,
             c.scopes AS c_scopes, c.all_scopes AS c_all_scopes, c.seq AS c_seq, c.reported_at AS c_reported_at
      FROM merge_queue_entries e
      LEFT JOIN pull_requests pr ON pr.repository_id = e.repository_id AND pr.number = e.number
      LEFT JOIN pull_scope_reports p ON p.repository_id = e.repository_id AND p.number = e.number
      LEFT JOIN commit_scope_reports c ON c.repository_id = e.repository_id AND c.sha = e.head_sha
      WHERE e.queue_id = ${queueId} AND e.left_at IS NULL`.execute(db);
    if (facts) for (const row of rows) facts.set(BigInt(row.number), factsOf(row));
    return rows.map(entryOf);
  }

  async pullFacts(repositoryId: string, numbers: readonly bigint[], db: Db = this.db): Promise<Map<bigint, QueuedPullFacts>> {
    const facts = new Map<bigint, QueuedPullFacts>();
    if (numbers.length === 0) return facts;
    const rows = await db
      .selectFrom('pull_requests')
      .select(['number', 'title', 'author_login', 'author_id', 'labels', 'draft', 'state', 'head_sha', 'html_url'])
      .where('repository_id', '=', repositoryId)
      .where('number', 'in', numbers.map(String))
      .execute();
    for (const row of rows) facts.set(BigInt(row.number), factsOf({ ...row, pr_head_sha: row.head_sha }));
    return facts;
  }

  /** Unfinished batches (the state's) or, with `ids`, those batches whatever their phase. */
  async batches(queueId: string, db: Db = this.db, ids?: readonly string[]): Promise<StoredBatch[]> {
    let query = db.selectFrom('merge_queue_batches').selectAll().where('queue_id', '=', queueId);
    query = ids ? (ids.length === 0 ? query.where(sql<boolean>`false`) : query.where('id', 'in', ids)) : query.where('finished_at', 'is', null);
    const rows = await query.orderBy('started_at').orderBy('id').execute();
    return rows.map(batchOf);
  }

  /** Finished batches whose branch and check pull request may still exist on the platform. */
  async uncleanedBatches(queueId: string, db: Db = this.db): Promise<StoredBatch[]> {
    const rows = await db.selectFrom('merge_queue_batches').selectAll().where('queue_id', '=', queueId).where('finished_at', 'is not', null).where('cleaned', '=', false).orderBy('finished_at').limit(50).execute();
    return rows.map(batchOf);
  }

  /** Check durations (ms) of the queue's most recent attempts that concluded, newest first. */
  async recentCheckDurations(queueId: string, limit = 20, db: Db = this.db): Promise<number[]> {
    const rows = await db
      .selectFrom('merge_queue_batches')
      .select(['checks_started_at', 'checks_ended_at'])
      .where('queue_id', '=', queueId)
      .where('checks_ended_at', 'is not', null)
      .where('checks_started_at', 'is not', null)
      .orderBy('checks_ended_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => (row.checks_ended_at as Date).getTime() - (row.checks_started_at as Date).getTime()).filter((d) => d >= 0);
  }

  async insertEntry(trx: Transaction<Database>, queueId: string, repositoryId: string, entry: QueueEntry): Promise<void> {
    await trx
      .insertInto('merge_queue_entries')
      .values({
        id: entry.id,
        queue_id: queueId,
        repository_id: repositoryId,
        number: entry.number.toString(),
        head_sha: entry.headSha,
        queue_rule: entry.queueRule,
        priority: entry.priority,
        priority_rule_name: entry.priorityRuleName,
        entered_at: new Date(entry.enteredAt),
        scopes_awaited_since: new Date(entry.scopesAwaitedSince),
        embark_count: entry.embarkCount,
      })
      .execute();
  }

  /** Marks the queue as changed (executors wake on a new version) and sets when the clock next matters. */
  async touch(trx: Transaction<Database>, queueId: string, wakeAt: number | null | undefined): Promise<void> {
    await trx
      .updateTable('merge_queues')
      .set({ version: sql`version + 1`, ...(wakeAt === undefined ? {} : { wake_at: at(wakeAt) }) })
      .where('id', '=', queueId)
      .execute();
  }

  /** How many pull requests each queue rule holds in the queue. */
  async sizesByRule(queueId: string, db: Db = this.db): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('merge_queue_entries')
      .select(['queue_rule', (eb) => eb.fn.countAll<string>().as('size')])
      .where('queue_id', '=', queueId)
      .where('left_at', 'is', null)
      .groupBy('queue_rule')
      .execute();
    return new Map(rows.map((row) => [row.queue_rule, Number(row.size)]));
  }

  /** The executor's own head updates in progress (checks in place) of a queue's active entries: entry id → JSON. */
  async headUpdates(queueId: string, db: Db = this.db): Promise<Map<string, unknown>> {
    const rows = await db.selectFrom('merge_queue_entries').select(['id', 'head_update']).where('queue_id', '=', queueId).where('left_at', 'is', null).where('head_update', 'is not', null).execute();
    return new Map(rows.map((row) => [row.id, JSON.parse(row.head_update as string)]));
  }

  async headUpdateOf(entryId: string, db: Db = this.db): Promise<unknown> {
    const row = await db.selectFrom('merge_queue_entries').select('head_update').where('id', '=', entryId).executeTakeFirst();
    return row?.head_update ? JSON.parse(row.head_update) : null;
  }

  async setHeadUpdate(db: Db, entryId: string, update: unknown): Promise<void> {
    await db.updateTable('merge_queue_entries').set({ head_update: update === null ? null : JSON.stringify(update) }).where('id', '=', entryId).execute();
  }

  /** The entry's head becomes the one the executor's own update made; the update is over. */
  async takeUpdatedHead(db: Db, entryId: string, headSha: string): Promise<void> {
    await db.updateTable('merge_queue_entries').set({ head_sha: headSha, head_update: null }).where('id', '=', entryId).execute();
  }

  async setBaseSha(db: Db, queueId: string, sha: string | null): Promise<void> {
    await db.updateTable('merge_queues').set({ base_sha: sha }).where('id', '=', queueId).execute();
  }

  async setRun(db: Db, batchId: string, run: unknown): Promise<void> {
    await db.updateTable('merge_queue_batches').set({ run: JSON.stringify(run) }).where('id', '=', batchId).execute();
  }

  async setFrozen(db: Db, batchId: string, frozenSince: number | null, frozenMs: number): Promise<void> {
    await db.updateTable('merge_queue_batches').set({ frozen_since: at(frozenSince), frozen_ms: String(frozenMs) }).where('id', '=', batchId).execute();
  }

  async markCleaned(db: Db, batchId: string): Promise<void> {
    await db.updateTable('merge_queue_batches').set({ cleaned: true }).where('id', '=', batchId).execute();
  }

  /** Takes or renews the lease of a queue for `holder` until `until`; false when another holds it. */
  async claimLease(queueId: string, holder: string, until: Date, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('merge_queues')
      .set({ lease_holder: holder, lease_until: until })
      .where('id', '=', queueId)
      .where((eb) => eb.or([eb('lease_holder', '=', holder), eb('lease_holder', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    return (result.numUpdatedRows ?? 0n) > 0n;
  }

  async releaseLease(holder: string): Promise<void> {
    await this.db.updateTable('merge_queues').set({ lease_holder: null, lease_until: null }).where('lease_holder', '=', holder).execute();
  }

  /** Queues that may need driving (entries queued, or batches to clean up), with their repository. */
  async queuesToDrive(db: Db = this.db): Promise<{ queue: QueueRow; repository: { id: string; owner: string; name: string } }[]> {
    const rows = await db
      .selectFrom('merge_queues as q')
      .innerJoin('repositories as r', 'r.id', 'q.repository_id')
      .select(['q.id', 'q.repository_id', 'q.base_ref', 'q.lease_holder', 'q.lease_until', 'q.wake_at', 'q.base_sha', 'q.version', 'r.owner', 'r.name'])
      // A repository whose merge_queue product is off is left alone: its queue waits (DESIGN §13).
      .where(sql<boolean>`'merge_queue' = ANY (r.products)`)
      .where(({ or, exists, selectFrom }) =>
        or([
          exists(selectFrom('merge_queue_entries as e').select('e.id').whereRef('e.queue_id', '=', 'q.id').where('e.left_at', 'is', null)),
          exists(selectFrom('merge_queue_batches as b').select('b.id').whereRef('b.queue_id', '=', 'q.id').where('b.cleaned', '=', false).where('b.finished_at', 'is not', null)),
        ]),
      )
      .orderBy('q.id')
      .execute();
    return rows.map((row) => ({ queue: queueOf(row), repository: { id: row.repository_id, owner: row.owner, name: row.name } }));
  }

  /**
   * Writes what a transition changed: entries that left or were embarked again, batches new,
   * changed or finished. `before` is the state the transition started from.
   */
  async applyTransition(trx: Transaction<Database>, queueId: string, before: QueueState, transition: QueueTransition, now: number): Promise<void> {
    const after = transition.state;
    const afterEntries = new Map(after.entries.map((entry) => [entry.id, entry]));
    const left = new Map<string, { code: string; batchId: string | null }>();
    for (const change of transition.changes) if (change.kind === 'entry_left') left.set(change.entryId, { code: change.code, batchId: change.batchId });
    for (const entry of before.entries) {
      const next = afterEntries.get(entry.id);
      const leaving = left.get(entry.id);
      if (!next && leaving) {
        await trx.updateTable('merge_queue_entries').set({ left_at: new Date(now), leave_code: leaving.code, leave_batch_id: leaving.batchId, embark_count: entry.embarkCount }).where('id', '=', entry.id).execute();
      } else if (next && next.embarkCount !== entry.embarkCount) {
        await trx.updateTable('merge_queue_entries').set({ embark_count: next.embarkCount }).where('id', '=', entry.id).execute();
      }
    }
    for (const batch of touchedBatches(before, transition)) await this.writeBatch(trx, queueId, batch, now);
  }

  private async writeBatch(trx: Transaction<Database>, queueId: string, batch: Batch, now: number): Promise<void> {
    const finished = batch.phase === 'merged' || batch.phase === 'failed' || batch.phase === 'aborted';
    const columns = {
      name: batch.name,
      queue_rule: batch.queueRule,
      entry_ids: [...batch.entryIds],
      parent_ids: [...batch.parentIds],
      scopes: [...batch.scopes],
      all_scopes: batch.allScopes,
      phase: batch.phase,
      started_at: new Date(batch.startedAt),
      checks_started_at: at(batch.checksStartedAt),
      checks_ended_at: at(batch.checksEndedAt),
      retries: batch.retries,
      bisection_of: batch.bisection?.of ?? null,
      bisection_depth: batch.bisection?.depth ?? null,
      culprit_entry_ids: [...batch.culpritEntryIds],
      intermediate_skipped: batch.intermediateSkipped === true,
      finished_at: finished ? new Date(now) : null,
    };
    await trx
      .insertInto('merge_queue_batches')
      .values({ id: batch.id, queue_id: queueId, ...columns })
      .onConflict((oc) => oc.column('id').doUpdateSet(columns))
      .execute();
  }
}

/**
 * Batches a transition created or changed, each in its final form. Finished batches are not in
 * the state it returns, so their last phase comes from the changes.
 */
function touchedBatches(before: QueueState, transition: QueueTransition): Batch[] {
  const beforeById = new Map(before.batches.map((batch) => [batch.id, batch]));
  const result = new Map<string, Batch>();
  const known = (id: string): Batch | undefined => result.get(id) ?? transition.state.batches.find((b) => b.id === id) ?? beforeById.get(id);
  for (const change of transition.changes) {
    if (change.kind === 'batch_started') result.set(change.batch.id, change.batch);
    if (change.kind === 'bisection_started') for (const sub of change.subBatches) result.set(sub.id, sub);
  }
  for (const batch of transition.state.batches) {
    if (beforeById.get(batch.id) !== batch) result.set(batch.id, batch);
  }
  for (const change of transition.changes) {
    const id = 'batchId' in change ? change.batchId : null;
    if (!id || transition.state.batches.some((b) => b.id === id)) continue;
    const batch = known(id);
    if (!batch) continue;
    result.set(id, finalForm(batch, id, transition));
  }
  return [...result.values()];
}

function finalForm(batch: Batch, id: string, transition: QueueTransition): Batch {
  let phase: BatchPhase = batch.phase;
  let checksEndedAt = batch.checksEndedAt;
  let culpritEntryIds = batch.culpritEntryIds;
  for (const change of transition.changes) {
    if (!('batchId' in change) || change.batchId !== id) continue;
    if (change.kind === 'batch_phase') phase = change.phase;
    if (change.kind === 'batch_aborted') phase = 'aborted';
    if (change.kind === 'checks_ended') checksEndedAt = change.at;
    if (change.kind === 'batch_culprits') culpritEntryIds = change.culpritEntryIds;
  }
  return { ...batch, phase, checksEndedAt, culpritEntryIds };
}

interface EntryRow {
  id: string;
  number: string;
  head_sha: string;
  queue_rule: string;
  priority: Priority;
  priority_rule_name: string | null;
  entered_at: Date;
  scopes_awaited_since: Date;
  embark_count: number;
  head_seq: string | null;
  p_scopes?: string[] | null;
  p_all_scopes?: boolean | null;
  p_seq?: string | null;
  p_reported_at?: Date | null;
  c_scopes?: string[] | null;
  c_all_scopes?: boolean | null;
  c_seq?: string | null;
  c_reported_at?: Date | null;
}

interface PullFactsRow {
  title: string | null;
  author_login: string | null;
  author_id: string | null;
  labels: string[] | null;
  draft: boolean | null;
  state: 'open' | 'closed' | 'merged' | null;
  pr_head_sha: string | null;
  html_url: string | null;
}

function factsOf(row: PullFactsRow): QueuedPullFacts {
  return {
    title: row.title,
    authorLogin: row.author_login,
    authorId: row.author_id === null ? null : BigInt(row.author_id),
    labels: row.labels ?? [],
    draft: row.draft ?? false,
    state: row.state,
    headSha: row.pr_head_sha,
    url: row.html_url ?? null,
  };
}

function entryOf(row: EntryRow): QueueEntry {
  const byNumber = row.p_seq ? { scopes: row.p_scopes!, allScopes: row.p_all_scopes!, seq: BigInt(row.p_seq), reportedAt: row.p_reported_at! } : undefined;
  const headCommit = row.c_seq ? { scopes: row.c_scopes!, allScopes: row.c_all_scopes!, seq: BigInt(row.c_seq), reportedAt: row.c_reported_at! } : undefined;
  const effective = effectiveScopes({ byNumber, headCommit, headSeq: row.head_seq === null ? null : BigInt(row.head_seq) });
  return {
    id: row.id,
    number: BigInt(row.number),
    headSha: row.head_sha,
    queueRule: row.queue_rule,
    priority: row.priority,
    priorityRuleName: row.priority_rule_name,
    enteredAt: row.entered_at.getTime(),
    scopes: effective.source === null ? null : { scopes: [...new Set(effective.scopes)].sort(), allScopes: effective.allScopes },
    scopesAwaitedSince: row.scopes_awaited_since.getTime(),
    embarkCount: row.embark_count,
  };
}

function batchOf(row: Selectable<MergeQueueBatchesTable>): StoredBatch {
  return {
    id: row.id,
    name: row.name,
    queueRule: row.queue_rule,
    entryIds: row.entry_ids,
    parentIds: row.parent_ids,
    scopes: row.scopes,
    allScopes: row.all_scopes,
    phase: row.phase as BatchPhase,
    startedAt: row.started_at.getTime(),
    checksStartedAt: ms(row.checks_started_at),
    checksEndedAt: ms(row.checks_ended_at),
    retries: row.retries,
    bisection: row.bisection_of === null ? null : { of: row.bisection_of, depth: row.bisection_depth ?? 1 },
    culpritEntryIds: row.culprit_entry_ids,
    ...(row.intermediate_skipped ? { intermediateSkipped: true } : {}),
    finishedAt: ms(row.finished_at),
    frozenSince: ms(row.frozen_since),
    frozenMs: Number(row.frozen_ms),
    run: row.run === null ? null : JSON.parse(row.run),
    cleaned: row.cleaned,
  };
}
