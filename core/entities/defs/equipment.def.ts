import type { EntityDef } from '../entity.ts';

/** An item of product-contact equipment; its surface area carries the residue. */
export const equipmentDef = {
  key: 'equipment',
  label: 'Equipment',
  pluralLabel: 'Equipment',
  path: 'equipments',
  table: 'equipment',
  resource: 'Equipment',
  domain: 'Equipment',
  description:
    'Equipment with its product-contact surface area, material of construction and room grade.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    {
      name: 'surfaceArea',
      label: 'Surface area',
      kind: 'quantity',
      measure: 'surfaceArea',
      positive: true,
      required: true,
      description: 'Product-contact surface area.',
    },
    {
      name: 'material',
      label: 'Material of construction',
      kind: 'enum',
      options: [
        'Stainless steel 316L',
        'Stainless steel 304',
        'Glass',
        'PTFE',
        'Polypropylene',
        'Other',
      ],
    },
    { name: 'roomGrade', label: 'Room grade', kind: 'enum', options: ['A', 'B', 'C', 'D'] },
  ],
  unique: ['name'],
  search: ['name', 'externalId'],
  listColumns: ['name', 'externalId', 'surfaceArea', 'material', 'roomGrade'],
} as const satisfies EntityDef<string>;
