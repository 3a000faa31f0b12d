// Registering a repository (admin API or hosting-platform webhook): it starts with its owner's
// default products, each recorded as a product.enabled event in the transaction that creates it,
// and its configuration file is due to be read.
import { productChangeEvents, productSet, SWITCHYARD_ACTOR, type ProductActor } from '../domain/product-changes.ts';
import type { Store } from '../storage/store.ts';
import type { Repository } from '../storage/queries/repositories.ts';
import { recordEvents } from './record-events.ts';

/** Registrations nobody asked for by hand (webhooks) are the service's own doing, not staff's. */
const AUTOMATIC: ProductActor = { actor: SWITCHYARD_ACTOR, byStaff: false };

export async function registerRepository(store: Store, owner: string, name: string, by: ProductActor = AUTOMATIC): Promise<{ repository: Repository; created: boolean }> {
  return store.db.transaction().execute(async (trx) => {
    const existing = await store.repositories.find(owner, name, trx);
    if (existing) return { repository: existing, created: false };
    const defaults = await store.defaultProducts.get(owner, trx);
    const registered = await store.repositories.register(trx, owner, name, defaults);
    if (registered.created) {
      const now = new Date();
      await recordEvents(store, trx, registered.repository.id, productChangeEvents({ enabled: productSet(defaults), disabled: [] }, by, now, 'repository registration'), now);
      // Its configuration file is read as soon as the rules engine runs (DESIGN §13).
      await store.rulesEngine.scheduleConfigurationRead(registered.repository.id, now, trx);
    }
    return registered;
  });
}
