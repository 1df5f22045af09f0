import type { QueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { equipmentTrainsDef, productionsDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FacilityScope } from './entity-api.ts';
import { fetchInForce } from './entity-queries.ts';

/*
 * A record planned on a production (a protocol): choosing the production fills its equipment and
 * products, which the user may then narrow. The server refuses anything wider
 * (core/verification/README.md, "Protocol"). A production on an equipment train: choosing the
 * train fills the equipment of its approved version in the train's order, which the server then
 * holds it to.
 */

interface TrainSource {
  /** The form's field that names the source record. */
  field: string;
  source: EntityDef;
  /** The fields taken from the source, named alike on both. */
  fills: readonly string[];
  failure: string;
}

const SOURCES: readonly TrainSource[] = [
  {
    field: 'productionId',
    source: productionsDef,
    fills: ['equipmentIds', 'productIds'],
    failure: "Could not load the production's equipment and products",
  },
  {
    field: 'trainId',
    source: equipmentTrainsDef,
    fills: ['equipmentIds'],
    failure: "Could not load the equipment train's equipment",
  },
];

/** What the record's form fills from a record it names, when the user changes `changed`. */
export function trainSourceOf(def: EntityDef, changed: object): TrainSource | undefined {
  const names = new Set(def.fields.map((field) => field.name));
  return SOURCES.find(
    (s) => s.field in changed && names.has(s.field) && s.fills.every((name) => names.has(name)),
  );
}

const idsOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];

/** Puts the chosen record's equipment (and products) into the form. */
export async function fillFromTrain(
  client: QueryClient,
  scope: FacilityScope,
  form: FormInstance,
  { field, source, fills }: TrainSource,
): Promise<void> {
  const id: unknown = form.getFieldValue(field);
  if (typeof id !== 'number') return;
  // The version in force: what the server holds a production on a train to (issue 32).
  const train = await fetchInForce(client, scope, source, id);
  // Another one may have been chosen while this one loaded.
  if (form.getFieldValue(field) !== id) return;
  form.setFieldsValue(Object.fromEntries(fills.map((name) => [name, idsOf(train[name])])));
}
