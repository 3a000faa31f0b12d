// Writing the activity log. One multi-row INSERT per batch (all or nothing by itself); an
// idempotency key already stored for the repository returns its first id and stores nothing.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { compactSourceOf, stringifyJson } from '../../json/exact-json.ts';
import type { ValidIngestEvent } from '../../domain/events/index.ts';

type Db = Kysely<Database> | Transaction<Database>;

export class EventQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a validated batch; returns the ids in input order. */
  async insertBatch(repositoryId: string, events: readonly ValidIngestEvent[], db: Db = this.db): Promise<bigint[]> {
    const keys = [...new Set(events.map((e) => e.idempotencyKey).filter((k): k is string => k !== null))];
    const known = await this.idsByKey(db, repositoryId, keys);
    // First occurrence of a key in the batch is written; later ones are retries of it.
    const pending = new Set<string>();
    const toInsert = events.filter((e) => e.idempotencyKey === null || (!known.has(e.idempotencyKey) && !pending.has(e.idempotencyKey) && pending.add(e.idempotencyKey)));
    const written = toInsert.length > 0 ? await this.insertNew(db, repositoryId, toInsert, known) : new Map<ValidIngestEvent, bigint>();
    return events.map((e) => (e.idempotencyKey === null ? written.get(e)! : known.get(e.idempotencyKey)!));
  }

  /** Inserts; records the ids of keyed events in `known`, returns those of keyless ones. */
  private async insertNew(db: Db, repositoryId: string, events: ValidIngestEvent[], known: Map<string, bigint>): Promise<Map<ValidIngestEvent, bigint>> {
    const rows = await db
      .insertInto('events')
      .values(events.map((e) => toRow(repositoryId, e)))
      .onConflict((oc) => oc.columns(['repository_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing())
      .returning(['id', 'idempotency_key'])
      .execute();
    const returnedKeys = new Set(rows.map((r) => r.idempotency_key));
    // A key another request stored in the meantime was skipped: it gets that request's id.
    const raced = events.filter((e) => e.idempotencyKey !== null && !returnedKeys.has(e.idempotencyKey)).map((e) => e.idempotencyKey!);
    const written = events.filter((e) => e.idempotencyKey === null || returnedKeys.has(e.idempotencyKey));
    // Ids come from one sequence in row order within the statement, so sorted ids match row order.
    const ids = rows.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const keyless = new Map<ValidIngestEvent, bigint>();
    written.forEach((event, index) => {
      if (event.idempotencyKey === null) keyless.set(event, ids[index]!);
      else known.set(event.idempotencyKey, ids[index]!);
    });
    for (const [key, id] of await this.idsByKey(db, repositoryId, raced)) known.set(key, id);
    return keyless;
  }

  private async idsByKey(db: Db, repositoryId: string, keys: string[]): Promise<Map<string, bigint>> {
    if (keys.length === 0) return new Map();
    const rows = await db
      .selectFrom('events')
      .select(['id', 'idempotency_key'])
      .where('repository_id', '=', repositoryId)
      .where('idempotency_key', 'in', keys)
      .execute();
    return new Map(rows.map((r) => [r.idempotency_key!, BigInt(r.id)]));
  }
}

function toRow(repositoryId: string, e: ValidIngestEvent) {
  return {
    repository_id: repositoryId,
    received_at: e.receivedAt,
    type: e.type,
    outcome: e.outcome,
    trigger: e.trigger,
    pull_request: e.pullRequest,
    base_ref: e.baseRef,
    batch_pull_request: e.batchPullRequest,
    batch_id: e.batchId,
    idempotency_key: e.idempotencyKey,
    // As sent: the request's own text when the parser kept it (compact, numbers written as
    // serialising would write them; validation only turns int64 numbers into bigint, which the
    // text already spells exactly), else the object serialised.
    metadata: compactSourceOf(e.metadata) ?? stringifyJson(e.metadata),
  };
}
