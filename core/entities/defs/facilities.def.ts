import { PRODUCT_TYPES, TIERS } from '#core/facilities/facility-features.ts';
import type { EntityDef } from '../entity.ts';

/**
 * A facility group of the plan (spec §1). The spec's permission map has no resource for it, so
 * only a system administrator writes it (server/modules/facilities).
 */
export const facilityGroupsDef = {
  key: 'facilityGroups',
  label: 'Facility group',
  pluralLabel: 'Facility groups',
  path: 'facility-groups',
  table: 'facility_groups',
  resource: 'FacilityGroup',
  domain: 'FacilityGroup',
  scope: 'plan',
  archivable: false,
  description:
    'Facility groups gather the facilities of a plan, as the facility chooser shows them.',
  fields: [{ name: 'name', label: 'Name', kind: 'text', required: true, max: 100 }],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name'],
} as const satisfies EntityDef<string>;

/**
 * A facility of the plan: its product type and tier decide its features
 * (core/facilities/facility-features.ts). Its licence is set apart, by a system administrator.
 */
export const facilitiesDef = {
  key: 'facilities',
  label: 'Facility',
  pluralLabel: 'Facilities',
  path: 'facilities',
  table: 'facilities',
  resource: 'Facility',
  domain: 'Facility',
  scope: 'plan',
  archivable: false,
  description: 'Facilities of the plan, with their product type, tier and facility group.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, max: 100 },
    {
      name: 'productType',
      label: 'Product type',
      kind: 'enum',
      options: PRODUCT_TYPES,
      required: true,
    },
    { name: 'tier', label: 'Tier', kind: 'enum', options: TIERS, required: true },
    {
      name: 'facilityGroupId',
      label: 'Facility group',
      kind: 'reference',
      entity: 'facilityGroups',
      required: true,
    },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'productType', 'tier', 'facilityGroupId'],
} as const satisfies EntityDef<string>;
