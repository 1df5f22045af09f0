import { formatQuantity } from '#core/units/format-number.ts';
import { equipmentDef, equipmentTrainsDef } from '#core/entities/defs/index.ts';
import type {
  TTargetOverride,
  TWorstProductOverride,
} from '#core/schemas/worst-products.schemas.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities } from '#server/entities/entity-store.ts';
import { allEntitiesInForce } from '#server/records/controlled-entities.ts';

/*
 * The kept overrides of the worst-case product (issue 32): each row as signed, its signature in
 * `signatures`. Read here for the worst-products answers, the ranking and its report and the
 * cleaning assessment, so every one of them says the same of an override.
 */

export const WORST_OVERRIDE_MEANING = meaningOf('WorstProductOverride', 'Approve');

export interface OverrideRow {
  id: number;
  facility_id: number;
  /** Set on overrides signed before they were keyed by the train (their signed content). */
  production_id: number | null;
  train_id: number | null;
  /** The train's equipment as signed: a train changed since shows the override to review. */
  train_equipment_ids: number[] | null;
  equipment_id: number | null;
  computed_product_id: number | null;
  computed_product: string | null;
  computed_lowest_maco: number | null;
  product_id: number;
  product: string;
  lowest_maco: number | null;
  keep_computed_limit: boolean;
  group_limit: number | null;
  group_limit_product: string | null;
  justification: string;
  signature_id: number;
}

/** What an override's signature signs: the target, both products with their limits, and why. */
export function overrideContent(o: Omit<OverrideRow, 'id' | 'facility_id' | 'signature_id'>) {
  // Signed on a production (before overrides followed trains): rebuilt exactly as it was signed.
  const target =
    o.production_id === null && o.train_id !== null
      ? { trainId: o.train_id, trainEquipmentIds: o.train_equipment_ids }
      : {};
  return {
    ...target,
    productionId: o.production_id,
    equipmentId: o.equipment_id,
    computedProduct: o.computed_product,
    computedLowestMaco: o.computed_lowest_maco,
    product: o.product,
    lowestMaco: o.lowest_maco,
    keepComputedLimit: o.keep_computed_limit,
    groupLimit: o.group_limit,
    groupLimitProduct: o.group_limit_product,
    justification: o.justification,
  };
}

/** The kept overrides of these signatures, as each signed them (registerSignedAct). */
export async function worstOverridesSigned(
  q: Queryable,
  facilityIds: readonly number[],
  signatureIds: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = await q.query<OverrideRow>(
    `select * from worst_product_overrides
      where facility_id = any($1::int[]) and signature_id = any($2::int[])`,
    [facilityIds, signatureIds],
  );
  return new Map(rows.map((r) => [r.signature_id, overrideContent(r)]));
}

type SignedRow = OverrideRow & { printed_name: string; signed_at: Date | string; meaning: string };

/** The override in words: the lineage a report or an assessment prints. */
export function overrideText(o: Omit<TWorstProductOverride, 'text'>): string {
  const limit =
    o.groupLimit === null
      ? 'no limit can be computed for it'
      : `judged against ${o.groupLimitProduct}'s lowest MACO, ${formatQuantity(o.groupLimit, 'mg')}`;
  return `${o.product} chosen as the worst case instead of the computed ${o.computedProduct ?? 'none'} (${limit}): "${o.justification}", signed by ${o.signedBy}`;
}

function overrideOf(row: SignedRow): TWorstProductOverride {
  const signedAt = row.signed_at instanceof Date ? row.signed_at.toISOString() : row.signed_at;
  const o = {
    id: row.id,
    computedProductId: row.computed_product_id,
    computedProduct: row.computed_product,
    computedLowestMaco: row.computed_lowest_maco,
    productId: row.product_id,
    product: row.product,
    lowestMaco: row.lowest_maco,
    keepComputedLimit: row.keep_computed_limit,
    groupLimit: row.group_limit,
    groupLimitProduct: row.group_limit_product,
    justification: row.justification,
    trainId: row.train_id,
    trainEquipmentIds: row.train_equipment_ids,
    signatureId: row.signature_id,
    meaning: row.meaning,
    signedBy: row.printed_name,
    signedAt,
  };
  return { ...o, text: overrideText(o) };
}

export interface OverridesInForce {
  trains: Map<number, TWorstProductOverride>;
  equipment: Map<number, TWorstProductOverride>;
}

/** The facility's overrides in force now, or at `asOf` (signed by then and not ended by then). */
export async function overridesInForce(
  q: Queryable,
  facilityId: number,
  asOf?: string,
): Promise<OverridesInForce> {
  const rows = await q.query<SignedRow>(
    `select o.*, s.printed_name, s.signed_at, s.meaning
       from worst_product_overrides o join signatures s on s.id = o.signature_id
      where o.facility_id = $1
        and ($2::timestamptz is null and o.ended_at is null
             or $2::timestamptz is not null and o.created_at <= $2::timestamptz
                and (o.ended_at is null or o.ended_at > $2::timestamptz))
      order by o.id`,
    [facilityId, asOf ?? null],
  );
  const found: OverridesInForce = { trains: new Map(), equipment: new Map() };
  for (const row of rows) {
    if (row.train_id !== null) found.trains.set(row.train_id, overrideOf(row));
    if (row.equipment_id !== null) found.equipment.set(row.equipment_id, overrideOf(row));
  }
  return found;
}

/** The overrides in force (now or at `asOf`), each with its train's or item's name. */
export async function targetOverrides(
  q: Queryable,
  facilityId: number,
  asOf?: string,
): Promise<TTargetOverride[]> {
  const [found, trains, equipment] = await Promise.all([
    overridesInForce(q, facilityId, asOf),
    allEntitiesInForce(q, equipmentTrainsDef, facilityId, { asOf }),
    allEntities(q, equipmentDef, facilityId, { asOf }),
  ]);
  const named = (
    kind: TTargetOverride['kind'],
    byId: Map<number, TWorstProductOverride>,
    records: { id: number; name?: unknown }[],
  ) =>
    records.flatMap((r) => {
      const o = byId.get(r.id);
      return o ? [{ ...o, kind, targetId: r.id, target: r.name as string }] : [];
    });
  return [
    ...named('train', found.trains, trains),
    ...named('equipment', found.equipment, equipment),
  ];
}
