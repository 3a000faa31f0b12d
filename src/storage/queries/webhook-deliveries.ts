// Hosting-platform webhook deliveries already applied, so a redelivery is applied once.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

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

  async seen(deliveryId: string): Promise<boolean> {
    const row = await this.db.selectFrom('webhook_deliveries').select('delivery_id').where('delivery_id', '=', deliveryId).executeTakeFirst();
    return row !== undefined;
  }
}
