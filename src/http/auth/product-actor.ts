// The actor recorded for a product change (DESIGN.md §6), from the caller's credential.
import { SWITCHYARD_ACTOR, type ProductActor } from '../../domain/product-changes.ts';
import type { Principal } from './principal.ts';

export function productActorOf(principal: Principal | null): ProductActor {
  switch (principal?.kind) {
    case 'admin_key':
    case 'ci_key':
      return { actor: { type: 'application', id: principal.key.id, name: principal.key.name }, byStaff: false };
    case 'hosting':
      return { actor: { type: 'user', id: principal.user.id, name: principal.user.login }, byStaff: false };
    default:
      return { actor: SWITCHYARD_ACTOR, byStaff: true };
  }
}
