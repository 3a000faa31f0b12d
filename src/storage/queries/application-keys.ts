// Application keys: created with their hash, listed without it, revoked by date.
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import type { KeyScope } from '../../domain/application-key.ts';

export interface ApplicationKey {
  id: string;
  owner: string;
  scope: KeyScope;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const columns = ['id', 'owner', 'scope', 'name', 'created_at', 'revoked_at'] as const;

function toKey(row: { id: string; owner: string; scope: KeyScope; name: string; created_at: Date; revoked_at: Date | null }): ApplicationKey {
  return { id: row.id, owner: row.owner, scope: row.scope, name: row.name, createdAt: row.created_at, revokedAt: row.revoked_at };
}

/**
 * Key lookups are on every authenticated request's path, so answers (found or not) are kept for
 * CACHE_MS. A revoke through this process drops its entries at once, and a lookup that was in
 * flight meanwhile (it may have read the row before the revocation committed) is not cached:
 * every revoke moves `generation` on, before and after its update, and a lookup caches its
 * answer only if the generation did not move while it ran. Another process sharing the database
 * sees a revocation within CACHE_MS (docs/security.md).
 */
const CACHE_MS = 10_000;
const CACHE_MAX = 10_000;

export class ApplicationKeyQueries {
  private readonly cache = new Map<string, { key: ApplicationKey | undefined; expires: number }>();
  private generation = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(key: { id: string; owner: string; scope: KeyScope; name: string; secretHash: string }): Promise<ApplicationKey> {
    const row = await this.db
      .insertInto('application_keys')
      .values({ id: key.id, owner: key.owner, owner_key: key.owner.toLowerCase(), scope: key.scope, name: key.name, secret_hash: key.secretHash })
      .returning(columns)
      .executeTakeFirstOrThrow();
    return toKey(row);
  }

  async findBySecretHash(secretHash: string): Promise<ApplicationKey | undefined> {
    const hit = this.cache.get(secretHash);
    if (hit && hit.expires > this.now()) return hit.key;
    const generation = this.generation;
    const row = await this.db.selectFrom('application_keys').select(columns).where('secret_hash', '=', secretHash).executeTakeFirst();
    const key = row && toKey(row);
    if (generation !== this.generation) return key;
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(secretHash, { key, expires: this.now() + CACHE_MS });
    return key;
  }

  async list(owner: string | undefined): Promise<ApplicationKey[]> {
    let query = this.db.selectFrom('application_keys').select(columns).orderBy('created_at').orderBy('id');
    if (owner !== undefined) query = query.where('owner_key', '=', owner.toLowerCase());
    return (await query.execute()).map(toKey);
  }

  /** Marks a key revoked; false when no such key. Revoking twice keeps the first date. */
  async revoke(id: string): Promise<boolean> {
    const canonical = id.toLowerCase();
    this.forget(canonical);
    try {
      const result = await this.db
        .updateTable('application_keys')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.fn<Date>('now', [])) }))
        .where('id', '=', canonical)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    } finally {
      // Again once the update is over: a lookup that started after the first forget may have
      // read the row before the update committed, and cached it.
      this.forget(canonical);
    }
  }

  private forget(id: string): void {
    this.generation++;
    for (const [hash, entry] of this.cache) if (entry.key?.id === id) this.cache.delete(hash);
  }
}
