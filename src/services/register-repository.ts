// Registering a repository (admin API or hosting-platform webhook): it starts with its owner's
// default products, decided in the same transaction that creates it.
import type { Store } from '../storage/store.ts';
import type { Repository } from '../storage/queries/repositories.ts';

export async function registerRepository(store: Store, owner: string, name: string): Promise<{ repository: Repository; created: boolean }> {
  return store.db.transaction().execute(async (trx) => {
    const existing = await store.repositories.find(owner, name, trx);
    if (existing) return { repository: existing, created: false };
    const defaults = await store.defaultProducts.get(owner, trx);
    return store.repositories.register(trx, owner, name, defaults);
  });
}
