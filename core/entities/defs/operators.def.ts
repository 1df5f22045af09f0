import type { EntityDef } from '../entity.ts';

/**
 * People who clean equipment but never sign in, by their badge (Operator ID, unique in the
 * facility). Their calls are the spec's own ({F}/operator, server/modules/operators).
 */
export const operatorsDef = {
  key: 'operators',
  label: 'Operator',
  pluralLabel: 'Operators',
  path: 'operator',
  table: 'operators',
  resource: 'User',
  domain: 'Operator',
  description: 'Operators: people who clean equipment, by their Operator ID.',
  fields: [
    { name: 'firstName', label: 'First name', kind: 'text', required: true, max: 100 },
    { name: 'lastName', label: 'Last name', kind: 'text', required: true, max: 100 },
    { name: 'operatorId', label: 'Operator ID', kind: 'text', required: true, max: 100 },
    { name: 'departmentId', label: 'Department', kind: 'reference', entity: 'departments' },
  ],
  unique: ['operatorId'],
  search: ['firstName', 'lastName', 'operatorId'],
  listColumns: ['firstName', 'lastName', 'operatorId'],
} as const satisfies EntityDef<string>;
