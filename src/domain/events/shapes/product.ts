// The four products (spec §2.3), as they appear in product.enabled / product.disabled metadata.
import { StringEnum } from '../../schema-primitives.ts';

export const PRODUCTS = ['ci_insights', 'merge_protections', 'workflow_automation', 'merge_queue'] as const;

export type Product = (typeof PRODUCTS)[number];

export const Product = StringEnum(PRODUCTS, { title: 'Product' });
