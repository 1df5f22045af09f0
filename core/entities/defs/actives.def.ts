import { z } from 'zod';
import { ZHbelLineage } from '#core/schemas/hbel-library.schemas.ts';
import type { EntityDef } from '../entity.ts';

/** An active ingredient (API): the substance whose residue is limited. */
export const activesDef = {
  key: 'actives',
  label: 'Active',
  pluralLabel: 'Actives',
  path: 'apis',
  table: 'actives',
  resource: 'API',
  domain: 'API',
  propertyTarget: 'api',
  document: { label: 'Reference Document' },
  description:
    'Active pharmaceutical ingredients with their toxicological data: the health-based exposure limit (PDE or ADE) with its basis and source, the minimum therapeutic dose, LD50, solubility, cleanability, potency band and acceptable intake.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'externalId', label: 'External ID', kind: 'text', max: 100 },
    { name: 'casNumber', label: 'CAS number', kind: 'text', max: 30 },
    {
      name: 'pde',
      label: 'PDE/ADE',
      kind: 'quantity',
      measure: 'pde',
      positive: true,
      description: 'Health-based exposure limit per day (EMA HBEL guideline).',
    },
    { name: 'pdeBasis', label: 'PDE basis', kind: 'enum', options: ['PDE', 'ADE'] },
    { name: 'pdeSource', label: 'PDE source document', kind: 'longText', max: 1000 },
    {
      name: 'therapeuticDose',
      label: 'Minimum therapeutic dose',
      kind: 'quantity',
      measure: 'td',
      positive: true,
      description: 'The smallest daily dose with a therapeutic effect.',
    },
    { name: 'ld50', label: 'LD50', kind: 'quantity', measure: 'ld50', positive: true },
    {
      name: 'solubility',
      label: 'Solubility',
      kind: 'enum',
      options: [
        'Very soluble',
        'Freely soluble',
        'Soluble',
        'Sparingly soluble',
        'Slightly soluble',
        'Very slightly soluble',
        'Practically insoluble',
      ],
      description: 'Solubility in the cleaning solvent, in the USP/Ph. Eur. descriptive terms.',
    },
    {
      name: 'cleanability',
      label: 'Cleanability',
      kind: 'enum',
      options: ['Easy', 'Moderate', 'Difficult'],
    },
    {
      name: 'potencyBand',
      label: 'Potency band',
      kind: 'enum',
      options: ['OEB 1', 'OEB 2', 'OEB 3', 'OEB 4', 'OEB 5'],
    },
    {
      name: 'acceptableIntake',
      label: 'Acceptable intake',
      kind: 'quantity',
      measure: 'ai',
      positive: true,
      description: 'For mutagenic impurities and nitrosamines (ICH M7), per day.',
    },
    {
      name: 'carbonFraction',
      label: 'Carbon fraction',
      kind: 'number',
      positive: true,
      max: 1,
      description:
        'Mass of carbon per mass of active (0 to 1), from its molecular formula: converts a total organic carbon result to the active.',
    },
  ],
  unique: ['name'],
  search: ['name', 'externalId', 'casNumber'],
  listColumns: ['name', 'externalId', 'pde', 'therapeuticDose', 'ld50'],
  // Issue 32: where the PDE comes from when the active is linked to the plan's HBEL library
  // (one entry when linked): the entry, its version, and a site override with its justification.
  readExtras: { hbelLineage: z.array(ZHbelLineage) },
} as const satisfies EntityDef<string>;
