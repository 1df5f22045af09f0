import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import type { EntityDef } from '../entity.ts';

/** A detergent: its residue has a limit of its own (LD50 or its own HBEL, under ppm ceilings). */
export const cleaningAgentsDef = {
  key: 'cleaningAgents',
  label: 'Cleaning agent',
  pluralLabel: 'Cleaning agents',
  path: 'cleaning_agents',
  table: 'cleaning_agents',
  resource: 'Substance',
  domain: 'CleaningAgent',
  description:
    'Cleaning agents (detergents) with the data their residue limit comes from: LD50 or their own health-based limit, and their own ppm ceiling in the next product.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    { name: 'manufacturer', label: 'Manufacturer', kind: 'text', max: 200 },
    { name: 'ld50', label: 'LD50', kind: 'quantity', measure: 'ld50', positive: true },
    { name: 'pde', label: 'Own HBEL (PDE/ADE)', kind: 'quantity', measure: 'pde', positive: true },
    {
      name: 'ppmCeiling',
      label: 'Ceiling (ppm)',
      kind: 'number',
      positive: true,
      description:
        'Upper bound of the limit in the next product, in ppm: applies where lower than the limit from the toxicology and the Detergent policy’s general limit, never raises it.',
    },
  ],
  unique: ['name'],
  search: ['name', 'externalId', 'manufacturer'],
  listColumns: ['name', 'manufacturer', 'ld50', 'pde'],
} as const satisfies EntityDef<string>;

/** How equipment is cleaned (SOP-based: CIP, COP or manual) and with which agents. */
export const cleaningProceduresDef = {
  key: 'cleaningProcedures',
  label: 'Cleaning procedure',
  pluralLabel: 'Cleaning procedures',
  path: 'cleaning-procedure',
  table: 'cleaning_procedures',
  resource: 'CleaningProcedure',
  domain: 'CleaningProcedure',
  description: 'Cleaning procedures with their SOP, type and cleaning agents.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'sopNumber', label: 'SOP number', kind: 'text', max: 100 },
    { name: 'procedureType', label: 'Type', kind: 'enum', options: ['CIP', 'COP', 'Manual'] },
    {
      name: 'cleaningAgentIds',
      label: 'Cleaning agents',
      kind: 'reference',
      entity: 'cleaningAgents',
      multiple: true,
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'sopNumber'],
  listColumns: ['name', 'sopNumber', 'procedureType'],
} as const satisfies EntityDef<string>;

/** An analytical method; a limit below its LOQ cannot be verified. */
export const analyticalMethodsDef = {
  key: 'analyticalMethods',
  label: 'Analytical method',
  pluralLabel: 'Analytical methods',
  path: 'analytical-method',
  table: 'analytical_methods',
  resource: 'AnalyticalMethod',
  domain: 'AnalyticalMethod',
  document: { label: 'Reference Document' },
  description:
    'Analytical methods with their test type (TOC, pH, Conductivity, AA, Odour, RC), LOD, LOQ and recovery per material of construction.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'methodNumber', label: 'Method number', kind: 'text', max: 100 },
    {
      name: 'testType',
      label: 'Test type',
      kind: 'enum',
      options: ['TOC', 'pH', 'Conductivity', 'AA', 'Odour', 'RC'],
      required: true,
    },
    {
      name: 'sampleType',
      label: 'Sample type',
      kind: 'enum',
      options: ['swab', 'rinse'],
      optionLabels: SAMPLE_TYPE_LABELS,
      description:
        'What the method is validated to analyse: swab extracts or rinse water. Unset: both. A protocol refuses it for a location of the other type.',
    },
    { name: 'lod', label: 'LOD', kind: 'quantity', measure: 'detectionLimit', positive: true },
    { name: 'loq', label: 'LOQ', kind: 'quantity', measure: 'detectionLimit', positive: true },
    {
      name: 'recoveries',
      label: 'Recovery per material',
      kind: 'list',
      of: [
        {
          name: 'material',
          label: 'Material',
          kind: 'enum',
          options: [
            'Stainless steel 316L',
            'Stainless steel 304',
            'Glass',
            'PTFE',
            'Polypropylene',
            'Other',
          ],
          required: true,
        },
        {
          name: 'recoveryPercentage',
          label: 'Recovery (%)',
          kind: 'number',
          positive: true,
          max: 100,
          required: true,
        },
      ],
    },
  ],
  unique: ['name'],
  search: ['name', 'methodNumber'],
  listColumns: ['name', 'methodNumber', 'testType', 'lod', 'loq'],
} as const satisfies EntityDef<string>;
