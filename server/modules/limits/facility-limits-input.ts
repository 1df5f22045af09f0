import {
  activesDef,
  apiProcessStepsDef,
  apiProductionsDef,
  equipmentDef,
  productionsDef,
  productsDef,
  samplingTypesDef,
} from '#core/entities/defs/index.ts';
import { isCarbonFraction } from '#core/verification/residue-measure.ts';
import type { ActiveSpec, LimitsInput, ProductSpec, SamplingSpec } from '#core/limits/model.ts';
import type { CleaningLimitPolicy, ResidueType } from '#core/limits/policy.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { allNamed } from '#server/util/all-named.ts';
import { allEntities, historyStartOf, type EntityRecord } from '#server/entities/entity-store.ts';
import { limitsPolicy, type InForceOptions } from '../policies/policy-in-force.ts';
import { readLineages } from '../hbel-library/lineage.read.ts';
import { lineageText } from '#core/hbel/lineage.ts';
import { macFormulasInForce, type ApprovedFormula } from './mac-formulas-in-force.ts';

type Q = { value: number; unit: string };

function quantity<T>(value: unknown): T | undefined {
  return value && typeof value === 'object' ? (value as T) : undefined;
}

/**
 * The swab and rinse the facility's limits are given for: its first swab sampling type with a
 * swab area and its first rinse type with a rinse volume, each with its own recovery and name.
 */
export async function facilitySampling(
  q: Queryable,
  facilityId: number,
  asOf?: string,
): Promise<SamplingSpec> {
  const types = await allEntities(q, samplingTypesDef, facilityId, { asOf });
  const swab = types.find((t) => t.sampleType === 'swab' && t.swabArea);
  const rinse = types.find((t) => t.sampleType === 'rinse' && t.rinseVolume);
  const sampling: SamplingSpec = {};
  if (swab) {
    sampling.swabArea = swab.swabArea as SamplingSpec['swabArea'];
    sampling.swabTypeName = swab.name as string;
    if (typeof swab.recoveryPercentage === 'number') {
      sampling.swabRecoveryPercentage = swab.recoveryPercentage;
    }
    // What the swab is extracted into: a swab sample limit given as a concentration in the
    // extract becomes a cap per swab with it (compile.ts), never without.
    const extraction = quantity<SamplingSpec['extractionVolume']>(swab.extractionVolume);
    if (extraction) sampling.extractionVolume = extraction;
  }
  if (rinse) {
    sampling.rinseVolume = rinse.rinseVolume as SamplingSpec['rinseVolume'];
    sampling.rinseTypeName = rinse.name as string;
    if (typeof rinse.recoveryPercentage === 'number') {
      sampling.rinseRecoveryPercentage = rinse.recoveryPercentage;
    }
  }
  return sampling;
}

export interface FacilityInputOptions {
  /**
   * One production's own matrix: only its products, equipment and trains, and the equipment of
   * the API process steps that make its products' actives (an API plant's, issue 32).
   */
  productionId?: number | undefined;
  /** The policy to apply; Chemical unless a view asks for another (the nitrosamine PDF). */
  residueType?: ResidueType;
  /** The facility's data and the policy approved at this moment (ISO date-time) instead of now. */
  asOf?: string | undefined;
  /** 'draft': the policy's version in progress, for what-if (see policy-in-force.ts). */
  policy?: InForceOptions['policy'];
  /** A policy to compute with instead of the one in force (the one an approval puts in force). */
  policyContent?: CleaningLimitPolicy;
  /** A MAC formula's version that an approval puts in force, beside those in force already. */
  approvedFormula?: ApprovedFormula;
}

/**
 * THE limits engine's input for a facility, built from its live master data (or as it was at
 * `asOf`): products with their actives, equipment with surface areas, trains from the
 * productions and the API productions' steps, the approved cleaning limit policy and the swab
 * and rinse sampling. Every view (the MAC matrix and its pairs, derivations, the xlsx and PDF
 * exports, the limit reports, what-if in the browser) calls this one function, so
 * the same pair shows the same numbers everywhere. Names identify rows in the output, since they
 * are unique in a facility and mean something to a reviewer.
 */
export async function facilityLimitsInput(
  q: Queryable,
  facilityId: number,
  options: FacilityInputOptions = {},
): Promise<LimitsInput> {
  return (await facilityLimitsRead(q, facilityId, options)).input;
}

/**
 * As facilityLimitsInput, and with `asOf` the latest moment a record of the input was read
 * from before its history began (historyStartsAt of entity-store.ts), so the answer can say so.
 */
export async function facilityLimitsRead(
  q: Queryable,
  facilityId: number,
  options: FacilityInputOptions = {},
): Promise<{ input: LimitsInput; historyStartsAt: string | undefined }> {
  const read = await readFacility(q, facilityId, options);
  const { actives, allProducts, allEquipment, allProductions } = read;
  return {
    input: limitsInputOf(read, options.productionId),
    historyStartsAt: historyStartOf([
      ...actives,
      ...allProducts,
      ...allEquipment,
      ...allProductions,
    ]),
  };
}

/**
 * Each production's own input (as `facilityLimitsInput` with its `productionId`), from one read of
 * the facility: a report of every production reads the records once, not once per production.
 */
export async function eachProductionLimitsInput(
  q: Queryable,
  facilityId: number,
  options: Omit<FacilityInputOptions, 'productionId'> = {},
): Promise<{ production: EntityRecord; input: LimitsInput }[]> {
  const read = await readFacility(q, facilityId, options);
  return read.allProductions.map((production) => ({
    production,
    input: limitsInputOf(read, production.id),
  }));
}

async function readFacility(q: Queryable, facilityId: number, options: FacilityInputOptions) {
  const asOf = { asOf: options.asOf };
  const read = await allNamed({
    actives: allEntities(q, activesDef, facilityId, asOf),
    allProducts: allEntities(q, productsDef, facilityId, asOf),
    allEquipment: allEntities(q, equipmentDef, facilityId, asOf),
    allProductions: allEntities(q, productionsDef, facilityId, asOf),
    sampling: facilitySampling(q, facilityId, options.asOf),
    policy:
      options.policyContent ??
      limitsPolicy(q, facilityId, options.residueType ?? 'Chemical', {
        asOf: options.asOf,
        policy: options.policy,
      }).then((p) => p.content),
    lineages: readLineages(q, facilityId, null, options.asOf),
    formulas: macFormulasInForce(q, facilityId, options.asOf, options.approvedFormula),
    apiProductions: allEntities(q, apiProductionsDef, facilityId, asOf),
    apiSteps: allEntities(q, apiProcessStepsDef, facilityId, asOf),
  });
  // Once per read: a report of every production builds each production's input from it.
  return { ...read, activeById: new Map(read.actives.map((a) => [a.id, a])) };
}

function limitsInputOf(
  {
    activeById,
    allProducts,
    allEquipment,
    allProductions,
    sampling,
    policy,
    lineages,
    formulas,
    apiProductions,
    apiSteps,
  }: Awaited<ReturnType<typeof readFacility>>,
  productionId: number | undefined,
): LimitsInput {
  const options = { productionId };
  // One production's matrix: only its products and equipment.
  const productions =
    options.productionId === undefined
      ? allProductions
      : allProductions.filter((p) => p.id === options.productionId);
  if (options.productionId !== undefined && productions.length === 0) {
    throw new AppError('NotFoundError', `Production ${options.productionId} was not found`);
  }
  // One production's products and items, in the facility's order; its ids read once, not once
  // per product and item (a report of every production calls this for each of them).
  const inProduction = (key: 'productIds' | 'equipmentIds', records: EntityRecord[]) => {
    if (options.productionId === undefined) return records;
    const ids = new Set(productions.flatMap((p) => (p[key] as number[]) ?? []));
    return records.filter((record) => ids.has(record.id));
  };
  const products = inProduction('productIds', allProducts);
  // An API plant's processes (issue 32): a product of the API a production makes runs on the
  // equipment of that production's steps, so two processes whose steps share equipment share its
  // surface as two products on one line do (ICH Q7 §12.7: cleaning of equipment used for more
  // than one API). In one production's own matrix too: its products run on their APIs' steps, so
  // that equipment is in its matrix beside the production's own.
  const stepItems = apiStepEquipment(products, apiProductions, apiSteps);
  const own = inProduction('equipmentIds', allEquipment);
  const onSteps = new Set([...stepItems.values()].flat());
  const ownIds = new Set(own.map((item) => item.id));
  const equipment =
    onSteps.size === 0 || own === allEquipment
      ? own
      : allEquipment.filter((item) => onSteps.has(item.id) || ownIds.has(item.id));
  const equipmentById = new Map(equipment.map((e) => [e.id, e]));
  const productById = new Map(products.map((p) => [p.id, p]));

  const trains: Record<string, Set<string>> = {};
  for (const production of productions) {
    const items = ((production.equipmentIds as number[]) ?? [])
      .map((id) => equipmentById.get(id))
      .filter(Boolean) as EntityRecord[];
    for (const productId of (production.productIds as number[]) ?? []) {
      const product = productById.get(productId);
      if (!product) continue;
      const train = (trains[product.name as string] ??= new Set());
      for (const item of items) train.add(item.name as string);
    }
  }
  for (const product of products) {
    const items = (stepItems.get(product.id) ?? [])
      .map((id) => equipmentById.get(id))
      .filter((item): item is EntityRecord => item !== undefined);
    if (items.length === 0) continue;
    const train = (trains[product.name as string] ??= new Set());
    for (const item of items) train.add(item.name as string);
  }

  const toActive = (record: EntityRecord): ActiveSpec => {
    const spec: ActiveSpec = { id: record.name as string };
    const pde = quantity<Q>(record.pde);
    const td = quantity<Q>(record.therapeuticDose);
    const ld50 = quantity<Q>(record.ld50);
    const ai = quantity<Q>(record.acceptableIntake);
    if (pde) spec.pde = pde as ActiveSpec['pde'];
    const lineage = lineages.get(record.id);
    if (pde && lineage) spec.pdeLineage = lineageText(lineage);
    if (td) spec.therapeuticDose = td as ActiveSpec['therapeuticDose'];
    if (ld50) spec.ld50 = ld50 as ActiveSpec['ld50'];
    if (ai) spec.acceptableIntake = ai as ActiveSpec['acceptableIntake'];
    if (isCarbonFraction(record.carbonFraction)) spec.carbonFraction = record.carbonFraction;
    return spec;
  };

  const productSpecs: ProductSpec[] = products.map((product) => {
    const spec: ProductSpec = {
      id: product.name as string,
      minBatchSize: product.minBatchSize as ProductSpec['minBatchSize'],
      maxDailyDose: product.maxDailyDose as ProductSpec['maxDailyDose'],
      actives: ((product.actives as { activeId: number }[]) ?? [])
        .map((a) => activeById.get(a.activeId))
        .filter((a): a is EntityRecord => a !== undefined)
        .map(toActive),
    };
    const unitWeight = quantity<Q>(product.unitWeight);
    if (unitWeight) spec.unitWeight = unitWeight as ProductSpec['unitWeight'];
    return spec;
  });

  return {
    policy: policy as unknown as LimitsInput['policy'],
    products: productSpecs,
    equipment: equipment.map((e) => ({
      id: e.name as string,
      surfaceArea: e.surfaceArea as LimitsInput['equipment'][number]['surfaceArea'],
    })),
    trains: Object.fromEntries(Object.entries(trains).map(([product, set]) => [product, [...set]])),
    sampling,
    // Only present with a formula in force, so the input of a facility without any (and its
    // limits snapshots' hashes) stays as it was.
    ...(formulas.length > 0 ? { macFormulas: formulas } : {}),
  };
}

/**
 * The equipment ids of the API process steps each product runs on: the steps of every API
 * production that makes one of the product's actives, in the productions' and steps' order.
 */
function apiStepEquipment(
  products: EntityRecord[],
  apiProductions: EntityRecord[],
  apiSteps: EntityRecord[],
): Map<number, number[]> {
  const byProduct = new Map<number, number[]>();
  for (const process of apiProductions) {
    const items = apiSteps
      .filter((step) => step.apiProductionId === process.id)
      .flatMap((step) => (step.equipmentIds as number[]) ?? []);
    if (items.length === 0) continue;
    for (const product of products) {
      const actives = (product.actives as { activeId: number }[]) ?? [];
      if (!actives.some((a) => a.activeId === process.activeId)) continue;
      byProduct.set(product.id, [...(byProduct.get(product.id) ?? []), ...items]);
    }
  }
  return byProduct;
}
