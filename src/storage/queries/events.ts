// Writing the activity log: one statement per batch, all or nothing by itself. An idempotency
// key already stored for the repository returns its first id and stores nothing. On PostgreSQL
// the batch first takes its repository's event lock, held to the end of the transaction, so a
// repository's events commit in the order of their ids (what the columnar copy relies on:
// migration 0033, src/storage/columnar/).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { compactSourceOf, stringifyJson } from '../../json/exact-json.ts';
import type { ValidIngestEvent } from '../../domain/events/index.ts';

type Db = Kysely<Database> | Transaction<Database>;

interface WrittenRow {
  id: string | number;
  idempotency_key: string | null;
  /** true: written by this statement; false: the key was already stored. */
  stored: boolean;
}

/** The advisory lock class of a repository's event writes (the object is the repository id's hash). */
const EVENT_LOCK_CLASS = 727_016;

export class EventQueries {
  /** @param lockPerRepository PostgreSQL: writers may run at once (PGlite runs one transaction at a time). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly lockPerRepository = false,
  ) {}

  /**
   * Stores a validated batch; returns the ids in input order. One statement (after the lock on
   * PostgreSQL, in the caller's transaction or one of its own): the rows travel as one array per
   * column (the metadata as one JSON array of the texts as sent), so the statement is the same
   * whatever the batch size, and its answer carries both the new ids and those of keys stored
   * before.
   */
  async insertBatch(repositoryId: string, events: readonly ValidIngestEvent[], db: Db = this.db): Promise<bigint[]> {
    if (!this.lockPerRepository) return this.insertLocked(repositoryId, events, db);
    const locked = async (trx: Db) => {
      await sql`SELECT pg_advisory_xact_lock(${EVENT_LOCK_CLASS}, hashtext(${repositoryId}))`.execute(trx);
      return this.insertLocked(repositoryId, events, trx);
    };
    return db.isTransaction ? locked(db) : (db as Kysely<Database>).transaction().execute(locked);
  }

  /** insertBatch once the repository's events may be written (see above). */
  private async insertLocked(repositoryId: string, events: readonly ValidIngestEvent[], db: Db): Promise<bigint[]> {
    const keys = events.map((e) => e.idempotencyKey);
    const { rows } = await sql<WrittenRow>`
      WITH input AS (
        SELECT i.*, m.metadata
        FROM unnest(
          ${events.map((e) => e.receivedAt)}::timestamptz[], ${events.map((e) => e.type)}::text[],
          ${events.map((e) => e.outcome)}::text[], ${events.map((e) => e.trigger)}::text[],
          ${events.map((e) => e.pullRequest)}::bigint[], ${events.map((e) => e.baseRef)}::text[],
          ${events.map((e) => e.batchPullRequest)}::bigint[], ${events.map((e) => e.batchId)}::uuid[], ${keys}::text[]
        ) WITH ORDINALITY AS i (received_at, type, outcome, trigger, pull_request, base_ref, batch_pull_request, batch_id, idempotency_key, ord)
        JOIN json_array_elements(${`[${events.map(metadataText).join(',')}]`}::json) WITH ORDINALITY AS m (metadata, ord) USING (ord)
      ),
      -- Keys stored before: the unique index probed once per key (LIMIT keeps the subquery
      -- apart, so the planner cannot turn it into a scan of the repository's events).
      known AS (
        SELECT e.id, e.idempotency_key
        FROM unnest(${[...new Set(keys.filter((k) => k !== null))]}::text[]) AS k (key)
        CROSS JOIN LATERAL (SELECT id, idempotency_key FROM events WHERE repository_id = ${repositoryId} AND idempotency_key = k.key LIMIT 1) AS e
      ),
      written AS (
        INSERT INTO events (repository_id, received_at, type, outcome, trigger, pull_request, base_ref, batch_pull_request, batch_id, idempotency_key, metadata)
        SELECT ${repositoryId}, received_at, type, outcome, trigger, pull_request, base_ref, batch_pull_request, batch_id, idempotency_key, metadata
        FROM input
        WHERE idempotency_key IS NULL OR idempotency_key NOT IN (SELECT idempotency_key FROM known)
        -- Ids are drawn in this order (the id default is evaluated by the INSERT above this sorted
        -- subquery), so the new ids, sorted, follow the input. A key repeated in the batch is
        -- written once, first.
        ORDER BY ord
        ON CONFLICT (repository_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING id, idempotency_key
      )
      SELECT id, idempotency_key, true AS stored FROM written
      UNION ALL
      SELECT id, idempotency_key, false FROM known
    `.execute(db);
    const newIds = rows.filter((r) => r.stored).map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const storedKeys = new Set(rows.filter((r) => r.stored && r.idempotency_key !== null).map((r) => r.idempotency_key!));
    const known = new Map(rows.filter((r) => !r.stored).map((r) => [r.idempotency_key!, BigInt(r.id)]));
    // Walk the input as the insert did: a keyless event, or the first of a key written now, takes the next new id.
    let next = 0;
    const ids = events.map((e) => {
      if (e.idempotencyKey === null) return newIds[next++]!;
      if (storedKeys.delete(e.idempotencyKey)) known.set(e.idempotencyKey, newIds[next++]!);
      return known.get(e.idempotencyKey);
    });
    // Loudly, should a future planner ever write rows the walk above does not expect.
    if (next !== newIds.length) throw new Error(`insertBatch: ${newIds.length} rows written, ${next} matched to the input`);
    // A key another request stored after this statement's snapshot was skipped: it gets that request's id.
    const raced = [...new Set(events.filter((e, i) => ids[i] === undefined).map((e) => e.idempotencyKey!))];
    if (raced.length === 0) return ids as bigint[];
    const racedIds = await this.idsByKey(db, repositoryId, raced);
    return ids.map((id, i) => id ?? racedIds.get(events[i]!.idempotencyKey!)!);
  }

  private async idsByKey(db: Db, repositoryId: string, keys: string[]): Promise<Map<string, bigint>> {
    const rows = await db
      .selectFrom('events')
      .select(['id', 'idempotency_key'])
      .where('repository_id', '=', repositoryId)
      .where('idempotency_key', 'in', keys)
      .execute();
    return new Map(rows.map((r) => [r.idempotency_key!, BigInt(r.id)]));
  }
}

/**
 * As sent: the request's own text when the parser kept it (compact, numbers written as
 * serialising would write them; validation only turns int64 numbers into bigint, which the text
 * already spells exactly), else the object serialised.
 */
function metadataText(e: ValidIngestEvent): string {
  return compactSourceOf(e.metadata) ?? stringifyJson(e.metadata);
}
