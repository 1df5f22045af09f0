import type { PropertyError } from '#core/errors/errors.ts';
import { isUnit, kindOf } from '#core/units/units.ts';
import type { EntityDef } from '../entity.ts';

const kindName = { mass: 'a mass', volume: 'a volume', count: 'dosage units' } as Record<
  string,
  string
>;

function unitKind(quantity: unknown): string | null {
  const unit = (quantity as { unit?: unknown } | null | undefined)?.unit;
  return isUnit(unit) ? kindOf(unit) : null;
}

/**
 * The batch size is divided by the daily dose, so both must be of one kind (kg and mg, or units
 * and units): a batch in kg with a dose in units has no MACO, and the limits engine refuses it.
 */
export function productProblems(product: Readonly<Record<string, unknown>>): PropertyError[] {
  const batch = unitKind(product.minBatchSize);
  const dose = unitKind(product.maxDailyDose);
  if (!batch || !dose || batch === dose) return [];
  return [
    {
      property: 'maxDailyDose',
      constraints: {
        kind: `The largest daily dose must be of the same kind as the minimum batch size (${kindName[batch] ?? batch}), not ${kindName[dose] ?? dose}`,
      },
    },
  ];
}

/** A finished product: made of actives, made on equipment through productions. */
export const productsDef = {
  key: 'products',
  label: 'Product',
  pluralLabel: 'Products',
  path: 'products',
  table: 'products',
  resource: 'Product',
  domain: 'Product',
  propertyTarget: 'product',
  description:
    'Products with their dosage form, strength, largest daily dose, minimum batch size, unit weight and the actives they contain with the amount of each per unit.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    {
      name: 'dosageForm',
      label: 'Dosage form',
      kind: 'enum',
      options: ['Tablet', 'Capsule', 'Oral liquid', 'Injectable', 'Semi-solid', 'Powder', 'Other'],
    },
    { name: 'strength', label: 'Strength', kind: 'quantity', measure: 'strength', positive: true },
    {
      name: 'maxDailyDose',
      label: 'Largest daily dose',
      kind: 'quantity',
      measure: 'ldd',
      positive: true,
      required: true,
      description: 'The largest amount of the product a patient takes in a day (LDD).',
    },
    {
      name: 'minBatchSize',
      label: 'Minimum batch size',
      kind: 'quantity',
      measure: 'minBatchSize',
      positive: true,
      required: true,
    },
    {
      name: 'unitWeight',
      label: 'Unit weight',
      kind: 'quantity',
      measure: 'tabletWeight',
      positive: true,
      description: 'Mass of one dosage unit, needed when batch size or dose is in units.',
    },
    {
      name: 'actives',
      label: 'Actives',
      kind: 'list',
      of: [
        { name: 'activeId', label: 'Active', kind: 'reference', entity: 'actives', required: true },
        {
          name: 'amount',
          label: 'Amount per unit',
          kind: 'quantity',
          measure: 'strength',
          positive: true,
        },
      ],
    },
  ],
  unique: ['name'],
  search: ['name', 'externalId'],
  listColumns: ['name', 'externalId', 'dosageForm', 'maxDailyDose', 'minBatchSize'],
  check: productProblems,
} as const satisfies EntityDef<string>;
