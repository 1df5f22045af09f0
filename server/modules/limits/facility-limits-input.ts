import {
  activesDef,
  equipmentDef,
  productionsDef,
  productsDef,
} from '../../../core/entities/defs/index.ts';
import type { ActiveSpec, LimitsInput, ProductSpec } from '../../../core/limits/model.ts';
import { AppError } from '../../../core/errors/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { allEntities, type EntityRecord } from '../../entities/entity-store.ts';
import { getPolicy } from '../policies/policies.service.ts';

type Q = { value: number; unit: string };

function quantity<T>(value: unknown): T | undefined {
  return value && typeof value === 'object' ? (value as T) : undefined;
}

/**
 * The limits engine's input built from a facility's live master data: products with their
 * actives, equipment with surface areas, and trains from the productions. Names identify rows
 * in the output, since they are unique in a facility and mean something to a reviewer.
 */
export async function facilityLimitsInput(
  q: Queryable,
  facilityId: number,
  options: { productionId?: number | undefined } = {},
): Promise<LimitsInput> {
  const [actives, allProducts, allEquipment, allProductions] = await Promise.all([
    allEntities(q, activesDef, facilityId),
    allEntities(q, productsDef, facilityId),
    allEntities(q, equipmentDef, facilityId),
    allEntities(q, productionsDef, facilityId),
  ]);
  // One production's matrix: only its products and equipment.
  const productions =
    options.productionId === undefined
      ? allProductions
      : allProductions.filter((p) => p.id === options.productionId);
  if (options.productionId !== undefined && productions.length === 0) {
    throw new AppError('NotFoundError', `Production ${options.productionId} was not found`);
  }
  const inProduction = (ids: string) =>
    new Set(productions.flatMap((p) => (p[ids] as number[]) ?? []));
  const products =
    options.productionId === undefined
      ? allProducts
      : allProducts.filter((p) => inProduction('productIds').has(p.id));
  const equipment =
    options.productionId === undefined
      ? allEquipment
      : allEquipment.filter((e) => inProduction('equipmentIds').has(e.id));
  const activeById = new Map(actives.map((a) => [a.id, a]));
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

  const toActive = (record: EntityRecord): ActiveSpec => {
    const spec: ActiveSpec = { id: record.name as string };
    const pde = quantity<Q>(record.pde);
    const td = quantity<Q>(record.therapeuticDose);
    const ld50 = quantity<Q>(record.ld50);
    const ai = quantity<Q>(record.acceptableIntake);
    if (pde) spec.pde = pde as ActiveSpec['pde'];
    if (td) spec.therapeuticDose = td as ActiveSpec['therapeuticDose'];
    if (ld50) spec.ld50 = ld50 as ActiveSpec['ld50'];
    if (ai) spec.acceptableIntake = ai as ActiveSpec['acceptableIntake'];
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
    policy: (await getPolicy(q, facilityId, 'Chemical')).policy as unknown as LimitsInput['policy'],
    products: productSpecs,
    equipment: equipment.map((e) => ({
      id: e.name as string,
      surfaceArea: e.surfaceArea as LimitsInput['equipment'][number]['surfaceArea'],
    })),
    trains: Object.fromEntries(Object.entries(trains).map(([product, set]) => [product, [...set]])),
    sampling: {},
  };
}
