// The merge queue's controls per repository: its configuration (JSON text), its pause and its
// scheduled freezes. Writers take the transaction that also records their events.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, ScheduledFreezesTable } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredPause {
  reason: string;
  pausedAt: Date;
}

export type StoredFreeze = Selectable<ScheduledFreezesTable>;

export type FreezeValues = Omit<StoredFreeze, 'repository_id' | 'created_at'>;

export class MergeQueueControlQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored configuration's JSON text; undefined when the repository was never configured. */
  async config(repositoryId: string, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('merge_queue_configurations').select('config').where('repository_id', '=', repositoryId).executeTakeFirst();
    return row?.config;
  }

  async setConfig(trx: Transaction<Database>, repositoryId: string, configJson: string): Promise<void> {
    await trx
      .insertInto('merge_queue_configurations')
      .values({ repository_id: repositoryId, config: configJson })
      .onConflict((oc) => oc.column('repository_id').doUpdateSet((eb) => ({ config: eb.ref('excluded.config'), updated_at: new Date() })))
      .execute();
  }

  async pause(repositoryId: string, db: Db = this.db): Promise<StoredPause | undefined> {
    const row = await db.selectFrom('merge_queue_pauses').select(['reason', 'paused_at']).where('repository_id', '=', repositoryId).executeTakeFirst();
    return row && { reason: row.reason, pausedAt: row.paused_at };
  }

  /** Creates the pause, or changes its reason (paused_at stays that of the first PUT). */
  async setPause(trx: Transaction<Database>, repositoryId: string, reason: string, pausedAt: Date): Promise<void> {
    await trx
      .insertInto('merge_queue_pauses')
      .values({ repository_id: repositoryId, reason, paused_at: pausedAt })
      .onConflict((oc) => oc.column('repository_id').doUpdateSet((eb) => ({ reason: eb.ref('excluded.reason') })))
      .execute();
  }

  async deletePause(trx: Transaction<Database>, repositoryId: string): Promise<void> {
    await trx.deleteFrom('merge_queue_pauses').where('repository_id', '=', repositoryId).execute();
  }

  /** Freezes not over at `now` (ongoing or scheduled), by start then id. */
  async freezesNotOver(repositoryId: string, now: Date, db: Db = this.db): Promise<StoredFreeze[]> {
    return db
      .selectFrom('scheduled_freezes')
      .selectAll()
      .where('repository_id', '=', repositoryId)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', now)]))
      .orderBy('start_at')
      .orderBy('id')
      .execute();
  }

  /** Freezes ongoing at `now`, by start then id. */
  async freezesOngoing(repositoryId: string, now: Date, db: Db = this.db): Promise<StoredFreeze[]> {
    return db
      .selectFrom('scheduled_freezes')
      .selectAll()
      .where('repository_id', '=', repositoryId)
      .where('start_at', '<=', now)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', now)]))
      .orderBy('start_at')
      .orderBy('id')
      .execute();
  }

  /** The freeze, locked for the rest of the transaction; undefined when the repository has no such freeze. */
  async freezeForUpdate(trx: Transaction<Database>, repositoryId: string, id: string): Promise<StoredFreeze | undefined> {
    return trx.selectFrom('scheduled_freezes').selectAll().where('repository_id', '=', repositoryId).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async insertFreeze(trx: Transaction<Database>, repositoryId: string, values: FreezeValues): Promise<StoredFreeze> {
    return trx
      .insertInto('scheduled_freezes')
      .values({ ...values, repository_id: repositoryId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateFreeze(trx: Transaction<Database>, values: FreezeValues): Promise<StoredFreeze> {
    const { id, ...changes } = values;
    return trx.updateTable('scheduled_freezes').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async deleteFreeze(trx: Transaction<Database>, id: string): Promise<void> {
    await trx.deleteFrom('scheduled_freezes').where('id', '=', id).execute();
  }
}
