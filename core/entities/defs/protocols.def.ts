import { STUDY_TYPES } from '#core/schemas/cleaning-assessments.schemas.ts';
import { MICROBIAL_KINDS, SAMPLE_TYPES } from '#core/schemas/verification.schemas.ts';
import type { PropertyError } from '#core/errors/errors.ts';
import { FAILED_RUN_POLICIES, FAILED_RUN_POLICY_LABELS } from '#core/verification/study-outcome.ts';
import { LIMIT_BASES, LIMIT_BASIS_LABELS, SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import type { EntityDef } from '../entity.ts';

/*
 * A cleaning validation protocol (issue 12, core/verification/README.md): what a study follows.
 * A controlled document: a study pins the version in force when it starts. Spec §6 has no
 * resource of its own for it; studies are what qualification tasks ask for, so QualificationTask
 * guards it (as it guards historical studies).
 */

/** Consecutive passing runs a study needs when the protocol does not say (spec §4). */
export const DEFAULT_REQUIRED_PASSES = 3;

/** Fewer passing runs than the usual three is a decision to be justified. */
export function protocolProblems(values: Readonly<Record<string, unknown>>): PropertyError[] {
  const passes = values.requiredPasses;
  const justification = values.passesJustification;
  const justified = typeof justification === 'string' && justification.trim() !== '';
  if (typeof passes === 'number' && passes < DEFAULT_REQUIRED_PASSES && !justified)
    return [
      {
        property: 'passesJustification',
        constraints: {
          required: 'Fewer than 3 consecutive passing runs needs a justification',
        },
      },
    ];
  return [];
}

export const protocolsDef = {
  key: 'protocols',
  label: 'Protocol',
  pluralLabel: 'Protocols',
  path: 'protocols',
  table: 'protocols',
  resource: 'QualificationTask',
  domain: 'Protocol',
  screen: '/protocols',
  description:
    'Cleaning validation protocols: the study type, the production (equipment train), its equipment and products (or worst-case product group), the cleaning procedure and agent, the sampling plan (location, swab or rinse, analytical method), the microbial sampling (location or final rinse, contact plate, swab, rinse or endotoxin, microbial method), hold-time maxima, the consecutive passing runs required (3 unless justified), the limit basis and the approved limits snapshot its acceptance criteria come from. A controlled document: a study starts only from an approved version and keeps it. Needs the qualification task permissions.',
  fields: [
    { name: 'protocolNumber', label: 'Protocol number', kind: 'text', max: 100, required: true },
    { name: 'name', label: 'Title', kind: 'text', required: true },
    { name: 'studyType', label: 'Study type', kind: 'enum', options: STUDY_TYPES },
    { name: 'productionId', label: 'Production (train)', kind: 'reference', entity: 'productions' },
    {
      name: 'trainId',
      label: 'Equipment train',
      kind: 'reference',
      entity: 'equipmentTrains',
      description:
        'The equipment train the protocol plans: its equipment must be on the train, and its studies cover the train’s items when it lists none',
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
    {
      name: 'productGroupId',
      label: 'Worst-case product group',
      kind: 'reference',
      entity: 'productGroups',
    },
    {
      name: 'cleaningProcedureId',
      label: 'Cleaning procedure',
      kind: 'reference',
      entity: 'cleaningProcedures',
    },
    {
      name: 'cleaningAgentId',
      label: 'Cleaning agent',
      kind: 'reference',
      entity: 'cleaningAgents',
    },
    {
      name: 'samplingPlan',
      label: 'Sampling plan',
      kind: 'list',
      of: [
        {
          name: 'samplingLocationId',
          label: 'Sampling location',
          kind: 'reference',
          entity: 'samplingLocations',
          required: true,
        },
        {
          name: 'sampleType',
          label: 'Sample type',
          kind: 'enum',
          options: SAMPLE_TYPES,
          optionLabels: SAMPLE_TYPE_LABELS,
          required: true,
        },
        {
          name: 'analyticalMethodId',
          label: 'Analytical method',
          kind: 'reference',
          entity: 'analyticalMethods',
          required: true,
        },
      ],
    },
    {
      // Optional and added later: a protocol (or a pinned version) without it plans no
      // microbial samples (core/verification/README.md, "Microbial results").
      name: 'microbialSampling',
      label: 'Microbial sampling',
      kind: 'list',
      description:
        'Microbial samples the runs take: a location of the sampling plan (empty: the final rinse), what is counted (contact plate, swab, rinse bioburden, endotoxin) and the microbial method.',
      of: [
        {
          name: 'samplingLocationId',
          label: 'Sampling location (empty: final rinse)',
          kind: 'reference',
          entity: 'samplingLocations',
        },
        {
          name: 'kind',
          label: 'Microbial test',
          kind: 'enum',
          options: MICROBIAL_KINDS,
          required: true,
        },
        {
          name: 'microbialMethodId',
          label: 'Microbial method',
          kind: 'reference',
          entity: 'microbialMethods',
        },
      ],
    },
    {
      name: 'dirtyHoldMaxHours',
      label: 'Dirty hold time, maximum (h)',
      kind: 'number',
      min: 0,
      max: 100_000,
    },
    {
      name: 'cleanHoldMaxHours',
      label: 'Clean hold time, maximum (h)',
      kind: 'number',
      min: 0,
      max: 100_000,
    },
    {
      name: 'requiredPasses',
      label: 'Consecutive passing runs required',
      kind: 'integer',
      min: 1,
      max: 20,
      description: 'Unset: 3. Fewer than 3 needs a justification.',
    },
    { name: 'passesJustification', label: 'Justification of fewer runs', kind: 'longText' },
    {
      name: 'limitBasis',
      label: 'Limit basis',
      kind: 'enum',
      options: LIMIT_BASES,
      optionLabels: LIMIT_BASIS_LABELS,
      description: 'Equipment-wise (unset) or product-wise.',
    },
    {
      // Added later: a protocol without it leaves the choice to the study type when a study
      // starts (core/verification/study-outcome.ts failedRunPolicyOf).
      name: 'failedRunPolicy',
      label: 'When a completed run fails',
      kind: 'enum',
      options: FAILED_RUN_POLICIES,
      optionLabels: FAILED_RUN_POLICY_LABELS,
      description:
        'Unset: a Validation study fails; a study of another type starts its count of passing runs again. A run invalidated by a laboratory deviation whose closure QA approved neither fails nor counts.',
    },
    { name: 'allowReleaseAtRisk', label: 'Allow release at risk', kind: 'boolean' },
    {
      name: 'limitsSnapshotId',
      label: 'Limits snapshot',
      kind: 'integer',
      min: 1,
      max: 2_147_483_647,
      description:
        'The approved limits snapshot the acceptance criteria come from; unset = the latest when a study starts.',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['protocolNumber'],
  search: ['protocolNumber', 'name'],
  listColumns: ['protocolNumber', 'name', 'studyType', 'productionId'],
  controlled: { documentType: 'Protocol' },
  check: protocolProblems,
} as const satisfies EntityDef<string>;
