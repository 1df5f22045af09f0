import {
  equipmentDef,
  equipmentTrainsDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import type { MatrixRun } from '#core/limits/pair-walk.ts';
import { overrideLimit } from '#core/limits/worst-product-override.ts';
import { worstOfGroups, type WorstOfGroup } from '#core/limits/worst-products.ts';
import type {
  TEquipmentWorstProduct,
  TTrainWorstProduct,
  TWorstProductOverride,
} from '#core/schemas/worst-products.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, type EntityRecord } from '#server/entities/entity-store.ts';
import { allEntitiesInForce } from '#server/records/controlled-entities.ts';
import { rankFacility, rankInput, rankingReads, type AsOf } from './limit-reports.service.ts';
import { overridesInForce } from './worst-product-overrides.ts';

/*
 * The worst-case product of each train (a production: the products made on it) and of each item
 * of equipment (the products of the productions it is in), by the worst-case ranking's own
 * criteria and values (limit-reports.service.ts rankFacility), with the override in force: the
 * one computation the ranking, its reports, these answers and the cleaning assessment show. A
 * production's override is keyed by its equipment-train record and follows the train.
 */

const ids = (record: EntityRecord, field: string) => (record[field] as number[] | null) ?? [];

/** No computable product on the item, or more than one (an item's carrier, below). */
const NONE = -1;
const MANY = -2;

/** The records the worst case of each group is computed from, besides the ranking. */
async function groupReads(q: Queryable, facilityId: number, at: AsOf) {
  const [products, productions, equipment, trains, overrides] = await Promise.all([
    allEntities(q, productsDef, facilityId, at),
    allEntities(q, productionsDef, facilityId, at),
    allEntities(q, equipmentDef, facilityId, at),
    allEntitiesInForce(q, equipmentTrainsDef, facilityId, at),
    overridesInForce(q, facilityId, at.asOf),
  ]);
  return { products, productions, equipment, trains, overrides };
}

type Ranked = Pick<Awaited<ReturnType<typeof rankFacility>>, 'ranking' | 'uncomputable'>;

/**
 * The products of each group of one kind (trains or items of equipment), by id and name, and the
 * computed worst of each: only the kind asked for, the other is not needed by its caller.
 */
async function worstPerGroup(
  q: Queryable,
  facilityId: number,
  at: AsOf,
  kind: 'trains' | 'equipment',
  input?: LimitsInput,
) {
  const [ranked, reads] = await Promise.all([
    rankFacility(q, facilityId, at, input),
    groupReads(q, facilityId, at),
  ]);
  return groupsWorst(ranked, reads, kind);
}

function groupsWorst(
  { ranking, uncomputable }: Ranked,
  { products, productions, equipment, trains, overrides }: Awaited<ReturnType<typeof groupReads>>,
  kind: 'trains' | 'equipment',
) {
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
  // The products of the productions each item is in, in the productions' order: one pass over
  // the productions, not one per item (5,000 items × 500 productions at 5,000 products).
  const productsOnItem = new Map(equipment.map((e) => [e.id, [] as number[]]));
  for (const p of productions) {
    const made = ids(p, 'productIds');
    for (const item of new Set(ids(p, 'equipmentIds'))) productsOnItem.get(item)?.push(...made);
  }
  // A product that shares no item of the group with another computable product leaves no
  // carryover there, so it cannot be the group's worst case (nothing is cleaned after it). Per
  // item, its one computable product (or NONE, or MANY), so each member is checked in one step.
  const computable = new Set(ranking.candidates.map((c) => c.id));
  const carrier = new Map<number, number>();
  for (const [item, list] of productsOnItem) {
    let one = NONE;
    for (const id of list) {
      if (!computable.has(productById.get(id)?.name as string) || id === one) continue;
      if (one !== NONE) {
        one = MANY;
        break;
      }
      one = id;
    }
    carrier.set(item, one);
  }
  const withCarryover = (members: readonly { id: number; name: string }[], items: number[]) =>
    members.filter((m) =>
      items.some((item) => {
        const other = carrier.get(item) ?? NONE;
        return other === MANY || (other !== NONE && other !== m.id);
      }),
    );
  const worst = (groups: [number, { name: string }[]][]) =>
    worstOfGroups(
      Object.fromEntries(groups.map(([id, list]) => [id, list.map((m) => m.name)])),
      ranking.candidates,
      ranking.criteria,
    );
  const trainMembers = new Map<number, ReturnType<typeof membersOf>>();
  const itemMembers = new Map<number, ReturnType<typeof membersOf>>();
  let groupWorst: Record<string, WorstOfGroup>;
  if (kind === 'trains') {
    for (const p of productions) trainMembers.set(p.id, membersOf(ids(p, 'productIds')));
    groupWorst = worst(
      productions.map((p) => [
        p.id,
        withCarryover(trainMembers.get(p.id)!, ids(p, 'equipmentIds')),
      ]),
    );
  } else {
    for (const [id, list] of productsOnItem) itemMembers.set(id, membersOf(list));
    groupWorst = worst(equipment.map((e) => [e.id, withCarryover(itemMembers.get(e.id)!, [e.id])]));
  }
  return {
    productions,
    equipment,
    trains: new Map(trains.map((t) => [t.id, t])),
    trainMembers,
    itemMembers,
    groupWorst,
    productId,
    overrides,
    criteria: ranking.criteria,
    uncomputable,
  };
}

const equipmentText = (ids: readonly number[], names: Map<number, string>) =>
  ids.length === 0 ? 'none' : ids.map((id) => names.get(id) ?? `#${id}`).join(', ');

/**
 * An override on today's data: never a limit looser than today's computed worst's. It stops
 * applying (the computed worst case stands until it is replaced or withdrawn) when its train's
 * equipment is no longer what it was signed for, or its product is not made here: its
 * justification was written for another group. A changed computed worst only asks for a review.
 */
function overrideNow(
  worst: WorstOfGroup,
  override: TWorstProductOverride,
  members: readonly { name: string; lowestMaco: number | null }[],
  train?: { name: string; equipmentIds: readonly number[]; equipmentNames: Map<number, string> },
) {
  const chosen = members.find((m) => m.name === override.product);
  const { limit, limitProduct } = overrideLimit(
    { product: worst.product ?? '', lowestMaco: worst.lowestMaco },
    { product: override.product, lowestMaco: chosen?.lowestMaco ?? null },
  );
  const signedFor = override.trainEquipmentIds;
  const trainChanged =
    train !== undefined &&
    signedFor !== null &&
    (signedFor.length !== train.equipmentIds.length ||
      signedFor.some((id, i) => id !== train.equipmentIds[i]));
  const review = trainChanged
    ? `Signed for an earlier version of the train '${train.name}' (${equipmentText(signedFor, train.equipmentNames)} then, ${equipmentText(train.equipmentIds, train.equipmentNames)} now): not applied until it is reviewed, replaced or withdrawn`
    : !chosen
      ? `${override.product} is no longer made here: review the override`
      : worst.product !== override.computedProduct
        ? `The computed worst case is ${worst.product ?? 'none'} now (${override.computedProduct ?? 'none'} when the override was signed): review the override`
        : null;
  return { limit, limitProduct, review, applies: !trainChanged && chosen !== undefined };
}

function row(
  worst: WorstOfGroup,
  productId: Map<string, number>,
  override: TWorstProductOverride | undefined,
  members: readonly { name: string; lowestMaco: number | null }[],
  train?: Parameters<typeof overrideNow>[3],
) {
  const now = override ? overrideNow(worst, override, members, train) : null;
  return {
    computed: {
      productId: worst.product === null ? null : (productId.get(worst.product) ?? null),
      product: worst.product,
      lowestMaco: worst.lowestMaco,
      reason: worst.reason,
    },
    override: override ?? null,
    worstCase: override && now?.applies ? override.product : worst.product,
    overrideNow: now,
  };
}

/** `input`: the facility's input as of now, when the caller has read it (rankFacility). */
export async function trainWorstProducts(
  q: Queryable,
  facilityId: number,
  at: AsOf = {},
  input?: LimitsInput,
) {
  return trainRows(await worstPerGroup(q, facilityId, at, 'trains', input));
}

/**
 * The records of `trainWorstProducts` read now, as of now; its answer later, on the facility's
 * input read with them and `run`, a run of that input's matrix the caller makes anyway (a change
 * evaluation reads before the change and computes after it, both sides in one walk).
 */
export async function trainWorstProductsLater(q: Queryable, facilityId: number) {
  const [ranking, reads] = await Promise.all([
    rankingReads(q, facilityId),
    groupReads(q, facilityId, {}),
  ]);
  return (input: LimitsInput, run?: MatrixRun) =>
    trainRows(groupsWorst(rankInput(input, ranking, run), reads, 'trains'));
}

function trainRows(w: ReturnType<typeof groupsWorst>) {
  const equipmentNames = new Map(w.equipment.map((e) => [e.id, e.name as string]));
  const trains: TTrainWorstProduct[] = w.productions.map((p) => {
    // The override follows the production's train record (keyed by it), not the production.
    const train = typeof p.trainId === 'number' ? w.trains.get(p.trainId) : undefined;
    return {
      productionId: p.id,
      name: p.name as string,
      trainId: train?.id ?? null,
      trainName: (train?.name as string | undefined) ?? null,
      products: w.trainMembers.get(p.id) ?? [],
      ...row(
        w.groupWorst[p.id]!,
        w.productId,
        train ? w.overrides.trains.get(train.id) : undefined,
        w.trainMembers.get(p.id) ?? [],
        train && {
          name: train.name as string,
          equipmentIds: ids(train, 'equipmentIds'),
          equipmentNames,
        },
      ),
    };
  });
  return { trains, criteria: w.criteria, uncomputable: w.uncomputable };
}

export async function equipmentWorstProducts(q: Queryable, facilityId: number, at: AsOf = {}) {
  const w = await worstPerGroup(q, facilityId, at, 'equipment');
  const equipment: TEquipmentWorstProduct[] = w.equipment.map((e) => ({
    equipmentId: e.id,
    name: e.name as string,
    products: w.itemMembers.get(e.id) ?? [],
    ...row(
      w.groupWorst[e.id]!,
      w.productId,
      w.overrides.equipment.get(e.id),
      w.itemMembers.get(e.id) ?? [],
    ),
  }));
  return { equipment, criteria: w.criteria, uncomputable: w.uncomputable };
}
