import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';

/*
 * A limits snapshot names products and equipment by their names when it was stored (the engine's
 * ids, server/modules/limits/facility-limits-input.ts). A study knows them by record id, so the
 * names are read as they were at the snapshot's moment from the kept versions: a rename after
 * the snapshot neither loses the limit nor picks another record's. A record with no version kept
 * by then (not in the snapshot anyway) answers its current name.
 */

export interface SnapshotNames {
  /** The products the limit is taken over: the protocol's and its worst-case group's. */
  productNames: string[];
  /** Equipment id → its name in the snapshot, for the equipment of the plan's locations. */
  equipmentNames: Map<number, string>;
  /**
   * Whether every name (and the group's products) came from a version kept by then: kept
   * versions never change, so such an answer is the same on every later read; a current name
   * read in place of a missing version is not.
   */
  allKept: boolean;
}

interface StudyRef {
  facilityId: number;
  productIds: readonly number[];
  productGroupId: number | null;
  /** The sampling locations of the plan: the equipment is theirs. */
  locationIds: readonly number[];
  /** When the study pinned the protocol version: the group's products as they were then. */
  pinnedAt: Date;
  snapshotAt: Date;
}

async function groupProducts(
  q: Queryable,
  ref: StudyRef,
): Promise<{ ids: number[]; kept: boolean }> {
  if (!ref.productGroupId) return { ids: [], kept: true };
  const [row] = await q.query<{ product_ids: number[]; kept: boolean }>(
    `select coalesce(product_groups.product_ids, g.product_ids) as product_ids,
            product_groups.id is not null as kept
       from product_groups g
       left join ${tableAsOf('product_groups', 1, 3)} on product_groups.id = g.id
      where g.facility_id = $1 and g.id = $2`,
    [ref.facilityId, ref.productGroupId, ref.pinnedAt],
  );
  return { ids: row?.product_ids ?? [], kept: row?.kept ?? false };
}

export async function snapshotNames(q: Queryable, ref: StudyRef): Promise<SnapshotNames> {
  const group = await groupProducts(q, ref);
  const ids = [...new Set([...ref.productIds, ...group.ids])];
  const [products, equipment] = await Promise.all([
    q.query<{ name: string; kept: boolean }>(
      `select coalesce(products.name, p.name) as name, products.id is not null as kept
         from products p
         left join ${tableAsOf('products', 1, 3)} on products.id = p.id
        where p.facility_id = $1 and p.id = any($2::int[])
        order by p.id`,
      [ref.facilityId, ids, ref.snapshotAt],
    ),
    q.query<{ id: number; name: string; kept: boolean }>(
      `select e.id, coalesce(equipment.name, e.name) as name, equipment.id is not null as kept
         from equipment e
         left join ${tableAsOf('equipment', 1, 2)} on equipment.id = e.id
        where e.facility_id = $1
          and e.id in (select equipment_id from sampling_locations
                        where facility_id = $1 and id = any($3::int[]))`,
      [ref.facilityId, ref.snapshotAt, [...ref.locationIds]],
    ),
  ]);
  return {
    productNames: products.map((p) => p.name),
    equipmentNames: new Map(equipment.map((e) => [e.id, e.name])),
    allKept:
      group.kept &&
      products.length === ids.length &&
      [...products, ...equipment].every((r) => r.kept),
  };
}
