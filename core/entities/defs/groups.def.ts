import type { EntityDef } from '../entity.ts';

/** Products validated together: one worst case stands for the group (bracketing). */
export const productGroupsDef = {
  key: 'productGroups',
  label: 'Product group',
  pluralLabel: 'Product groups',
  path: 'product_groups',
  table: 'product_groups',
  resource: 'ProductGroup',
  domain: 'ProductGroup',
  description: 'Groups of products bracketed together so that a worst case stands for the group.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'description', label: 'Description', kind: 'longText' },
    {
      name: 'productIds',
      label: 'Products',
      kind: 'reference',
      entity: 'products',
      multiple: true,
    },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'productIds'],
} as const satisfies EntityDef<string>;

/** Identical or equivalent equipment validated together. */
export const equipmentGroupsDef = {
  key: 'equipmentGroups',
  label: 'Equipment group',
  pluralLabel: 'Equipment groups',
  path: 'equipment_groups',
  table: 'equipment_groups',
  resource: 'EquipmentGroup',
  domain: 'EquipmentGroup',
  description: 'Groups of identical or equivalent equipment validated together.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'description', label: 'Description', kind: 'longText' },
    {
      name: 'equipmentIds',
      label: 'Equipment',
      kind: 'reference',
      entity: 'equipment',
      multiple: true,
    },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'equipmentIds'],
} as const satisfies EntityDef<string>;
