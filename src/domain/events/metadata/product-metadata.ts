// Metadata of product.enabled and product.disabled (spec §6.6).
import { Type } from '@sinclair/typebox';
import { Actor } from '../shapes/actor.ts';
import { Product } from '../shapes/product.ts';
import { DateTime, StrictObject } from '../../schema-primitives.ts';

export const ProductEnabledMetadata = StrictObject(
  { product: Product, enabled_by: Actor, enabled_at: DateTime(), enabled_by_staff: Type.Boolean() },
  { title: 'ProductEnabledMetadata' },
);

export const ProductDisabledMetadata = StrictObject(
  { product: Product, disabled_by: Actor, disabled_at: DateTime(), disabled_by_staff: Type.Boolean() },
  { title: 'ProductDisabledMetadata' },
);
