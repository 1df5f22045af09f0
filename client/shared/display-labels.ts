import type { ProductType, Tier } from '../api/auth-types.ts';

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = {
  product: 'Product',
  intermediate: 'Intermediate',
  api: 'API',
};

export const TIER_LABELS: Record<Tier, string> = { full: 'Full', lite: 'Lite' };

/**
 * What stands for a name while it loads (issue 30): a neutral mark, never the record's id.
 * Lookups by id fall back to it until their list answers.
 */
export const NAME_PENDING = '…';

/** A record as a list or a picker names it: its name, else its number or title, never its id. */
export function recordName(record: Readonly<Record<string, unknown>>): string {
  const named = record.name ?? record.number ?? record.title;
  return named === undefined || named === null || named === '' ? NAME_PENDING : String(named);
}
