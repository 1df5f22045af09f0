import type { ProductType, Tier } from '../api/auth-types.ts';

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  product: 'Product',
  intermediate: 'Intermediate',
  api: 'API',
};

export const TIER_LABELS: Record<Tier, string> = { full: 'Full', lite: 'Lite' };
