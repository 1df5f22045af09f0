import type { QueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { productionsDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FacilityScope } from './entity-api.ts';
import { fetchLatest } from './entity-queries.ts';

/*
 * A record planned on a production (a protocol): choosing the train fills its equipment and
 * products, which the user may then narrow. The server refuses anything wider
 * (core/verification/README.md, "Protocol").
 */

const FILLED = ['equipmentIds', 'productIds'] as const;

/** Whether the record's form takes its equipment and products from its production. */
export function fillsFromTrain(def: EntityDef): boolean {
  const names = new Set(def.fields.map((field) => field.name));
  return names.has('productionId') && FILLED.every((name) => names.has(name));
}

const idsOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];

/** Puts the chosen production's equipment and products into the form. */
export async function fillFromTrain(
  client: QueryClient,
  scope: FacilityScope,
  form: FormInstance,
  productionId: unknown,
): Promise<void> {
  if (typeof productionId !== 'number') return;
  const train = await fetchLatest(client, scope, productionsDef, productionId);
  // Another train may have been chosen while this one loaded.
  if (form.getFieldValue('productionId') !== productionId) return;
  form.setFieldsValue({
    equipmentIds: idsOf(train.equipmentIds),
    productIds: idsOf(train.productIds),
  });
}
