import type { EntityDef } from '../entity.ts';

/** A nitrosamine impurity, limited by its acceptable intake (ICH M7). */
export const nitrosaminesDef = {
  key: 'nitrosamines',
  label: 'Nitrosamine',
  pluralLabel: 'Nitrosamines',
  path: 'nitrosamines',
  table: 'nitrosamines',
  resource: 'Substance',
  domain: 'Nitrosamine',
  description: 'Nitrosamines with their acceptable intake (AI) or acceptable daily exposure (ADE).',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'casNumber', label: 'CAS number', kind: 'text', max: 30 },
    {
      name: 'acceptableIntake',
      label: 'Acceptable intake',
      kind: 'quantity',
      measure: 'ai',
      positive: true,
      required: true,
    },
    {
      name: 'intakeType',
      label: 'Intake type',
      kind: 'enum',
      options: ['AI', 'ADE'],
      description: 'AI (Acceptable Intake) or ADE (Acceptable Daily Exposure).',
    },
    { name: 'source', label: 'Source', kind: 'longText', max: 1000 },
  ],
  unique: ['name'],
  search: ['name', 'casNumber'],
  listColumns: ['name', 'casNumber', 'acceptableIntake', 'intakeType'],
} as const satisfies EntityDef<string>;

/** A stage of an API process, limited in ppm with a safety factor of 1000 (spec §3). */
export const intermediatesDef = {
  key: 'intermediates',
  label: 'Intermediate',
  pluralLabel: 'Intermediates',
  path: 'intermediates',
  table: 'intermediates',
  resource: 'API',
  domain: 'Intermediate',
  propertyTarget: 'intermediate',
  description: 'Intermediates of API processes.',
  listKey: 'intermediates',
  archivedListKey: 'result',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    { name: 'pde', label: 'PDE/ADE', kind: 'quantity', measure: 'pde', positive: true },
    { name: 'ld50', label: 'LD50', kind: 'quantity', measure: 'ld50', positive: true },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'externalId'],
  listColumns: ['name', 'externalId', 'pde', 'ld50'],
} as const satisfies EntityDef<string>;

/** A named constant a facility's formulas use (body weight, swab area…). */
export const variablesDef = {
  key: 'variables',
  label: 'Variable',
  pluralLabel: 'Variables',
  path: 'variables',
  table: 'variables',
  resource: 'Variable',
  domain: 'Variable',
  description: 'Named values used by the facility’s formulas.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'value', label: 'Value', kind: 'number', required: true },
    { name: 'unit', label: 'Unit', kind: 'text', max: 30 },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'value', 'unit'],
} as const satisfies EntityDef<string>;
