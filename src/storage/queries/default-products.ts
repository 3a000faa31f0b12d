// The products an owner's new repositories start with.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export class DefaultProductQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** The owner's defaults; [] when never set. */
  async get(owner: string, db: Db = this.db): Promise<string[]> {
    const row = await db.selectFrom('default_products').select('products').where('owner_key', '=', owner.toLowerCase()).executeTakeFirst();
    return row?.products ?? [];
  }

  async set(owner: string, products: string[], db: Db = this.db): Promise<void> {
    await db
      .insertInto('default_products')
      .values({ owner_key: owner.toLowerCase(), owner, products })
      .onConflict((oc) => oc.column('owner_key').doUpdateSet((eb) => ({ products: eb.ref('excluded.products'), updated_at: new Date() })))
      .execute();
  }
}
