import type { FacilityKind } from '#core/facilities/facility-features.ts';
import type { Queryable } from './db.ts';

/*
 * A facility's tier and product type as the caller's transaction sees them: what decides its
 * features (core/facilities/facility-features.ts) where a write depends on one, such as whether
 * change control puts a change in force. The guards read the same columns through the access
 * cache (server/http/access-cache.ts), outside any transaction and with the licence beside them.
 */

/** The kinds of these facilities, by id; an id that names no facility is absent. */
export async function facilityKinds(
  q: Queryable,
  facilityIds: readonly number[],
): Promise<Map<number, FacilityKind>> {
  if (facilityIds.length === 0) return new Map();
  const rows = await q.query<{
    id: number;
    tier: FacilityKind['tier'];
    product_type: FacilityKind['productType'];
  }>(`select id, tier, product_type from facilities where id = any($1::int[])`, [
    [...new Set(facilityIds)],
  ]);
  return new Map(rows.map((r) => [r.id, { tier: r.tier, productType: r.product_type }]));
}

/** One facility's kind; a facility that does not exist is a bug of the caller's scope. */
export async function facilityKind(q: Queryable, facilityId: number): Promise<FacilityKind> {
  const kind = (await facilityKinds(q, [facilityId])).get(facilityId);
  if (!kind) throw new Error(`Facility ${facilityId} does not exist`);
  return kind;
}
