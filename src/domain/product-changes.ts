// Product sets (DESIGN.md §6): a list is a set (repeats collapse, kept in the catalogue's order),
// and each change between two sets is one product.enabled / product.disabled event.
import { PRODUCTS, type Product } from './events/shapes/product.ts';
import type { IngestEventInput } from './events/index.ts';

export interface Actor {
  type: 'application' | 'user';
  id: string | number | bigint;
  name: string;
}

/** Who changes products, as the log records it. */
export interface ProductActor {
  actor: Actor;
  byStaff: boolean;
}

/** The service itself (service token, automatic registration): one fixed identity. */
export const SWITCHYARD_ACTOR: Actor = { type: 'application', id: '00000000-0000-4000-8000-5317c4a7d000', name: 'switchyard' };

export function productSet(products: readonly string[]): Product[] {
  const given = new Set(products);
  return PRODUCTS.filter((product) => given.has(product));
}

export function diffProducts(before: readonly string[], after: readonly string[]): { enabled: Product[]; disabled: Product[] } {
  const was = new Set(before);
  const is = new Set(after);
  return {
    enabled: PRODUCTS.filter((p) => is.has(p) && !was.has(p)),
    disabled: PRODUCTS.filter((p) => was.has(p) && !is.has(p)),
  };
}

/** The events recording a change, stamped `at`, with `trigger` saying what caused it. */
export function productChangeEvents(change: { enabled: Product[]; disabled: Product[] }, by: ProductActor, at: Date, trigger: string): IngestEventInput[] {
  const when = at.toISOString();
  const enabled = change.enabled.map((product): IngestEventInput => ({
    type: 'product.enabled',
    trigger,
    pull_request: null,
    base_ref: null,
    received_at: when,
    metadata: { product, enabled_by: by.actor, enabled_at: when, enabled_by_staff: by.byStaff },
  }));
  const disabled = change.disabled.map((product): IngestEventInput => ({
    type: 'product.disabled',
    trigger,
    pull_request: null,
    base_ref: null,
    received_at: when,
    metadata: { product, disabled_by: by.actor, disabled_at: when, disabled_by_staff: by.byStaff },
  }));
  return [...enabled, ...disabled];
}
