import type { EntityDef } from '../entity.ts';

/**
 * A production line or process: the equipment it uses and the products made on it. Together
 * the productions form the production-equipment matrix from which shared surfaces follow. A
 * production may name an equipment train; its equipment is then the train's (kept in step by
 * server/modules/equipment-trains), so every reader of `equipmentIds` sees the train.
 */
export const productionsDef = {
  key: 'productions',
  label: 'Production',
  pluralLabel: 'Productions',
  path: 'productions',
  table: 'productions',
  resource: 'Production',
  domain: 'Production',
  propertyTarget: 'production',
  description: 'Productions: which products are made on which equipment.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    {
      name: 'trainId',
      label: 'Equipment train',
      kind: 'reference',
      entity: 'equipmentTrains',
      description:
        'The train the production runs on: its equipment is then the train’s, in the train’s order, and follows every edit of the train',
    },
    {
      name: 'equipmentIds',
      label: 'Equipment',
      kind: 'reference',
      entity: 'equipment',
      multiple: true,
    },
    {
      name: 'productIds',
      label: 'Products',
      kind: 'reference',
      entity: 'products',
      multiple: true,
    },
  ],
  unique: ['name'],
  search: ['name', 'externalId'],
  listColumns: ['name', 'externalId', 'equipmentIds', 'productIds'],
} as const satisfies EntityDef<string>;
