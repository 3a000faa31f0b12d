// Hosting-platform webhook deliveries already applied, by delivery id and by body, so that a
// redelivery is applied once and a body sent again under a new delivery id (a replay: the id is
// not signed) is not applied at all.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A delivery judged by those recorded before: new, its id seen (a redelivery), or its body seen under another id (a replay). */
export type DeliveryClaim = 'new' | 'duplicate' | 'replay';

export class WebhookDeliveryQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records a delivery; false when it was already recorded. In the transaction of its effect, a
   * concurrent duplicate waits on the key and then sees it taken, so the effect happens once.
   */
  claim(db: Db, deliveryId: string): Promise<boolean> {
    return insertOnce(db, 'webhook_deliveries', deliveryId);
  }

  /** Records a delivery's body by its digest (SHA-256, hex); false when that body was recorded already. Same locking as claim. */
  claimPayload(db: Db, digest: string): Promise<boolean> {
    return insertOnce(db, 'webhook_payloads', digest);
  }

  /** Records that a comment's command is carried out; false when it was already. Same locking as claim. */
  claimCommentCommand(db: Db, commentId: bigint): Promise<boolean> {
    return insertOnce(db, 'webhook_comment_commands', commentId.toString());
  }

  async claimDelivery(db: Db, delivery: { id: string; digest: string }): Promise<DeliveryClaim> {
    if (!(await this.claim(db, delivery.id))) return 'duplicate';
    return (await this.claimPayload(db, delivery.digest)) ? 'new' : 'replay';
  }

  async seen(delivery: { id: string; digest: string }): Promise<DeliveryClaim> {
    const byId = await this.db.selectFrom('webhook_deliveries').select('delivery_id').where('delivery_id', '=', delivery.id).executeTakeFirst();
    if (byId) return 'duplicate';
    const byBody = await this.db.selectFrom('webhook_payloads').select('digest').where('digest', '=', delivery.digest).executeTakeFirst();
    return byBody ? 'replay' : 'new';
  }

  /** Forgets the bodies recorded before `cutoff`; how many. */
  async forgetPayloadsBefore(cutoff: Date): Promise<number> {
    const result = await this.db.deleteFrom('webhook_payloads').where('received_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** The key column of each table of keys seen. */
const KEYS = { webhook_deliveries: 'delivery_id', webhook_payloads: 'digest', webhook_comment_commands: 'comment_id' } as const;

/** Inserts a key into a table of keys seen (its other columns defaulted); false when it was there. */
async function insertOnce(db: Db, table: keyof typeof KEYS, value: string): Promise<boolean> {
  const key = sql.ref(KEYS[table]);
  const inserted = await sql`INSERT INTO ${sql.table(table)} (${key}) VALUES (${value}) ON CONFLICT (${key}) DO NOTHING RETURNING ${key}`.execute(db);
  return inserted.rows.length > 0;
}
