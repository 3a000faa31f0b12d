// Hosting-platform webhook deliveries already applied, by delivery id and by body, so that a
// redelivery is applied once and a body sent again under a new delivery id (a replay: the id is
// not signed) is not applied at all.
import type { Kysely, Transaction } from 'kysely';
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
  async claim(db: Db, deliveryId: string): Promise<boolean> {
    const inserted = await db
      .insertInto('webhook_deliveries')
      .values({ delivery_id: deliveryId })
      .onConflict((oc) => oc.column('delivery_id').doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Records a delivery's body by its digest (SHA-256, hex); false when that body was recorded already. Same locking as claim. */
  /** Records that a comment's command is carried out; false when it was already. */
  async claimCommentCommand(db: Db, commentId: bigint): Promise<boolean> {
    const inserted = await db
      .insertInto('webhook_comment_commands')
      .values({ comment_id: commentId.toString() })
      .onConflict((oc) => oc.column('comment_id').doNothing())
      .returning('comment_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async claimPayload(db: Db, digest: string): Promise<boolean> {
    const inserted = await db
      .insertInto('webhook_payloads')
      .values({ digest })
      .onConflict((oc) => oc.column('digest').doNothing())
      .returning('digest')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The delivery id first, so a redelivery of the same delivery is a duplicate, not a replay. */
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
