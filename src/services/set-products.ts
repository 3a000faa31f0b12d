// Replacing a repository's product set (DESIGN.md §6). The repository row is locked for the
// transaction, so concurrent PUTs apply one after the other and the recorded events always
// replay to the stored set.
import { ApiError } from '../errors.ts';
import { diffProducts, productChangeEvents, productSet, type ProductActor } from '../domain/product-changes.ts';
import type { Store } from '../storage/store.ts';
import { recordEvents } from './record-events.ts';

export async function setProducts(store: Store, owner: string, name: string, products: readonly string[], by: ProductActor): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const repository = await store.repositories.findForUpdate(trx, owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    const next = productSet(products);
    const change = diffProducts(repository.products, next);
    if (change.enabled.length + change.disabled.length === 0) return;
    await store.repositories.setProducts(trx, repository.id, next);
    const now = new Date();
    await recordEvents(store, trx, repository.id, productChangeEvents(change, by, now, 'products API'), now);
  });
}
