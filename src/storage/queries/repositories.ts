// Registered repositories, found by owner and name without regard to case.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

export interface Repository {
  id: string;
  owner: string;
  name: string;
  products: string[];
}

type Db = Kysely<Database> | Transaction<Database>;

export type RepositoryIdentity = Pick<Repository, 'id' | 'owner' | 'name'>;

export class RepositoryQueries {
  // Repositories are never renamed or removed, so who a name designates never changes once
  // found; unknown names are not remembered (another process may register them).
  private readonly identities = new Map<string, RepositoryIdentity>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The repository's id and registered names, from memory after the first lookup. */
  async identify(owner: string, name: string): Promise<RepositoryIdentity | undefined> {
    const cacheKey = `${owner.toLowerCase()}/${name.toLowerCase()}`;
    const known = this.identities.get(cacheKey);
    if (known) return known;
    const found = await this.find(owner, name);
    if (!found) return undefined;
    if (this.identities.size >= 100_000) this.identities.clear();
    const identity = { id: found.id, owner: found.owner, name: found.name };
    this.identities.set(cacheKey, identity);
    return identity;
  }

  async find(owner: string, name: string, db: Db = this.db): Promise<Repository | undefined> {
    return this.select(db, owner, name).executeTakeFirst();
  }

  /** By id, with its products (they change: never from memory). */
  async byId(id: string, db: Db = this.db): Promise<Repository | undefined> {
    return db.selectFrom('repositories').select(['id', 'owner', 'name', 'products']).where('id', '=', id).executeTakeFirst();
  }

  /** Locks the repository row for the rest of the transaction. */
  async findForUpdate(trx: Transaction<Database>, owner: string, name: string): Promise<Repository | undefined> {
    return this.select(trx, owner, name).forUpdate().executeTakeFirst();
  }

  private select(db: Db, owner: string, name: string) {
    return db
      .selectFrom('repositories')
      .select(['id', 'owner', 'name', 'products'])
      .where('owner_key', '=', owner.toLowerCase())
      .where('name_key', '=', name.toLowerCase());
  }

  /**
   * Registers a repository with its initial products; returns it with `created` false when it
   * was already known (then nothing changes). Concurrent registrations create it once.
   */
  async register(trx: Transaction<Database>, owner: string, name: string, products: string[]): Promise<{ repository: Repository; created: boolean }> {
    const inserted = await trx
      .insertInto('repositories')
      .values({ owner, name, owner_key: owner.toLowerCase(), name_key: name.toLowerCase(), products })
      .onConflict((oc) => oc.constraint('repositories_name_unique').doNothing())
      .returning(['id', 'owner', 'name', 'products'])
      .executeTakeFirst();
    if (inserted) return { repository: inserted, created: true };
    const existing = await this.find(owner, name, trx);
    if (!existing) throw new Error('repository vanished during registration');
    return { repository: existing, created: false };
  }

  async setProducts(trx: Transaction<Database>, repositoryId: string, products: string[]): Promise<void> {
    await trx.updateTable('repositories').set({ products }).where('id', '=', repositoryId).execute();
  }
}
