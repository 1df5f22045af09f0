import type { EntityDef } from '../entity.ts';

/**
 * A department of the plan, which users and operators belong to. Its calls are the spec's own
 * (/api/v2/departments, server/modules/departments); its writes are the record store's.
 */
export const departmentsDef = {
  key: 'departments',
  label: 'Department',
  pluralLabel: 'Departments',
  path: 'departments',
  table: 'departments',
  resource: 'Department',
  domain: 'Department',
  scope: 'plan',
  description: 'Departments group the users and operators of a plan.',
  fields: [{ name: 'name', label: 'Name', kind: 'text', required: true, max: 100 }],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name'],
} as const satisfies EntityDef<string>;
