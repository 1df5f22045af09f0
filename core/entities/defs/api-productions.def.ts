import type { PropertyError } from '../../errors/errors.ts';
import type { EntityDef } from '../entity.ts';

/*
 * The mappings of an API (drug substance) facility (spec §6 ApiProduction, ApiEquipment,
 * ApiProduct; issue 32). An API is made in process steps, in order (reaction, crystallisation,
 * filtration, drying, milling); each step runs on its equipment and has substances present in it
 * (the active, an intermediate). The equipment shared by two processes' steps is what a residue
 * travels through from one campaign to the next (ICH Q7 §12.7, EU GMP Part II §12.7: cleaning
 * validation of API equipment), so the steps name their equipment and substances as records a
 * reviewer can trace, each versioned and audited like the other master data.
 */

/** An API production: the process by which the facility makes one drug substance. */
export const apiProductionsDef = {
  key: 'apiProductions',
  label: 'API production',
  pluralLabel: 'API productions',
  path: 'api-productions',
  table: 'api_productions',
  resource: 'ApiProduction',
  domain: 'ApiProduction',
  description:
    'API productions: the processes by which the facility makes its drug substances, each in numbered steps with their equipment and the substances present in them.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'activeId',
      label: 'Drug substance (API)',
      kind: 'reference',
      entity: 'actives',
      required: true,
      description: 'The active the process makes',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name', 'activeId'],
} as const satisfies EntityDef<string>;

/** The production a step or a substance mapping belongs to. */
const PRODUCTION_FIELD = {
  name: 'apiProductionId',
  label: 'API production',
  kind: 'reference',
  entity: 'apiProductions',
  required: true,
} as const;

/** A step of an API production and the equipment it runs on (ApiEquipment). */
export const apiProcessStepsDef = {
  key: 'apiProcessSteps',
  label: 'API process step',
  pluralLabel: 'API process steps',
  path: 'api-equipment',
  table: 'api_process_steps',
  resource: 'ApiEquipment',
  domain: 'ApiEquipment',
  description:
    'The steps of each API production, in order, with the equipment each step runs on: the equipment two processes share is where carryover between them is assessed.',
  fields: [
    PRODUCTION_FIELD,
    {
      name: 'stepNumber',
      label: 'Step',
      kind: 'integer',
      min: 1,
      max: 999,
      required: true,
      description: 'The step’s place in the process, from 1; one step per number',
    },
    {
      name: 'name',
      label: 'Operation',
      kind: 'text',
      required: true,
      description: 'What the step does: reaction, crystallisation, filtration, drying, milling…',
    },
    {
      name: 'equipmentIds',
      label: 'Equipment',
      kind: 'reference',
      entity: 'equipment',
      multiple: true,
      required: true,
      description: 'The equipment the step runs on (product contact)',
    },
  ],
  unique: [],
  search: ['name'],
  listColumns: ['apiProductionId', 'stepNumber', 'name', 'equipmentIds'],
  check: (record) =>
    Array.isArray(record.equipmentIds) && record.equipmentIds.length > 0
      ? []
      : [
          {
            property: 'equipmentIds',
            constraints: { required: 'A process step runs on at least one item of equipment' },
          },
        ],
} as const satisfies EntityDef<string>;

/** Exactly one substance per mapping: an active or an intermediate. */
function oneSubstance(record: Readonly<Record<string, unknown>>): PropertyError[] {
  const given = [record.activeId, record.intermediateId].filter(
    (id) => id !== null && id !== undefined,
  );
  if (given.length === 1) return [];
  const message =
    given.length === 0
      ? 'Choose the active or the intermediate present at this step'
      : 'Choose either an active or an intermediate, not both: map each substance on its own';
  return [{ property: 'activeId', constraints: { substance: message } }];
}

/** A substance present at a step of an API production (ApiProduct). */
export const apiStepSubstancesDef = {
  key: 'apiStepSubstances',
  label: 'API step substance',
  pluralLabel: 'API step substances',
  path: 'api-products',
  table: 'api_step_substances',
  resource: 'ApiProduct',
  domain: 'ApiProduct',
  description:
    'The substances present at each step of an API production: the active, or an intermediate of the process. Their residues are what a step leaves on its equipment.',
  fields: [
    PRODUCTION_FIELD,
    {
      name: 'stepId',
      label: 'Process step',
      kind: 'reference',
      entity: 'apiProcessSteps',
      required: true,
      description: 'A step of the same API production',
    },
    { name: 'activeId', label: 'Active', kind: 'reference', entity: 'actives' },
    {
      name: 'intermediateId',
      label: 'Intermediate',
      kind: 'reference',
      entity: 'intermediates',
    },
    {
      name: 'note',
      label: 'Note',
      kind: 'longText',
      description:
        'Where the substance is present: the reaction mass, the wet cake, the mother liquor…',
    },
  ],
  unique: [],
  search: ['note'],
  nameFrom: ['activeId', 'intermediateId'],
  listColumns: ['apiProductionId', 'stepId', 'activeId', 'intermediateId'],
  check: oneSubstance,
} as const satisfies EntityDef<string>;
