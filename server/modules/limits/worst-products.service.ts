import { equipmentDef, productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { overrideLimit } from '#core/limits/worst-product-override.ts';
import { worstOfGroups, type WorstOfGroup } from '#core/limits/worst-products.ts';
import type {
  TEquipmentWorstProduct,
  TTrainWorstProduct,
  TWorstProductOverride,
} from '#core/schemas/worst-products.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, type EntityRecord } from '#server/entities/entity-store.ts';
import { rankFacility, type AsOf } from './limit-reports.service.ts';
import { overridesInForce } from './worst-product-overrides.ts';

/*
 * The worst-case product of each train (a production: the products made on it) and of each item
 * of equipment (the products of the productions it is in), by the worst-case ranking's own
 * criteria and values (limit-reports.service.ts rankFacility), with the override in force.
 */

const ids = (record: EntityRecord, field: string) => (record[field] as number[] | null) ?? [];

/** The products of each group, by id and name, and the computed worst of each. */
async function worstPerGroup(q: Queryable, facilityId: number, at: AsOf) {
  const [{ ranking, uncomputable }, products, productions, equipment, overrides] =
    await Promise.all([
      rankFacility(q, facilityId, at),
      allEntities(q, productsDef, facilityId, at),
      allEntities(q, productionsDef, facilityId, at),
      allEntities(q, equipmentDef, facilityId, at),
      overridesInForce(q, facilityId, at.asOf),
    ]);
  const productById = new Map(products.map((p) => [p.id, p]));
  const macoOf = new Map(
    ranking.candidates.map((c) => [c.id, c.attributes.lowestMaco ?? null] as const),
  );
  const productId = new Map(products.map((p) => [p.name as string, p.id]));
  const membersOf = (productIds: Iterable<number>) =>
    [...new Set(productIds)].flatMap((id) => {
      const p = productById.get(id);
      const name = p?.name as string;
      return p ? [{ id: p.id, name, lowestMaco: macoOf.get(name) ?? null }] : [];
    });
  const trainMembers = new Map(productions.map((p) => [p.id, membersOf(ids(p, 'productIds'))]));
  const itemMembers = new Map(
    equipment.map((e) => [
      e.id,
      membersOf(
        productions
          .filter((p) => ids(p, 'equipmentIds').includes(e.id))
          .flatMap((p) => ids(p, 'productIds')),
      ),
    ]),
  );
  const worst = (members: Map<number, { name: string }[]>) =>
    worstOfGroups(
      Object.fromEntries([...members].map(([id, list]) => [id, list.map((m) => m.name)])),
      ranking.candidates,
      ranking.criteria,
    );
  return {
    productions,
    equipment,
    trainMembers,
    itemMembers,
    trainWorst: worst(trainMembers),
    itemWorst: worst(itemMembers),
    productId,
    overrides,
    criteria: ranking.criteria,
    uncomputable,
  };
}

/** An override on today's data: never a limit looser than today's computed worst's. */
function overrideNow(
  worst: WorstOfGroup,
  override: TWorstProductOverride,
  members: readonly { name: string; lowestMaco: number | null }[],
) {
  const chosen = members.find((m) => m.name === override.product);
  const { limit, limitProduct } = overrideLimit(
    { product: worst.product ?? '', lowestMaco: worst.lowestMaco },
    { product: override.product, lowestMaco: chosen?.lowestMaco ?? null },
  );
  const review =
    worst.product !== override.computedProduct
      ? `The computed worst case is ${worst.product ?? 'none'} now (${override.computedProduct ?? 'none'} when the override was signed): review the override`
      : !chosen
        ? `${override.product} is no longer made here: review the override`
        : null;
  return { limit, limitProduct, review };
}

function row(
  worst: WorstOfGroup,
  productId: Map<string, number>,
  override: TWorstProductOverride | undefined,
  members: readonly { name: string; lowestMaco: number | null }[],
) {
  return {
    computed: {
      productId: worst.product === null ? null : (productId.get(worst.product) ?? null),
      product: worst.product,
      lowestMaco: worst.lowestMaco,
      reason: worst.reason,
    },
    override: override ?? null,
    worstCase: override?.product ?? worst.product,
    overrideNow: override ? overrideNow(worst, override, members) : null,
  };
}

export async function trainWorstProducts(q: Queryable, facilityId: number, at: AsOf = {}) {
  const w = await worstPerGroup(q, facilityId, at);
  const trains: TTrainWorstProduct[] = w.productions.map((p) => ({
    productionId: p.id,
    name: p.name as string,
    products: w.trainMembers.get(p.id) ?? [],
    ...row(
      w.trainWorst[p.id]!,
      w.productId,
      w.overrides.trains.get(p.id),
      w.trainMembers.get(p.id) ?? [],
    ),
  }));
  return { trains, criteria: w.criteria, uncomputable: w.uncomputable };
}

export async function equipmentWorstProducts(q: Queryable, facilityId: number, at: AsOf = {}) {
  const w = await worstPerGroup(q, facilityId, at);
  const equipment: TEquipmentWorstProduct[] = w.equipment.map((e) => ({
    equipmentId: e.id,
    name: e.name as string,
    products: w.itemMembers.get(e.id) ?? [],
    ...row(
      w.itemWorst[e.id]!,
      w.productId,
      w.overrides.equipment.get(e.id),
      w.itemMembers.get(e.id) ?? [],
    ),
  }));
  return { equipment, criteria: w.criteria, uncomputable: w.uncomputable };
}
