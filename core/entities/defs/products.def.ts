import type { EntityDef } from '../entity.ts';

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
} as const satisfies EntityDef;
