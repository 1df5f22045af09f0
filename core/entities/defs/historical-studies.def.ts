import { STUDY_TYPES } from '#core/schemas/cleaning-assessments.schemas.ts';
import { isoDateProblem } from '#core/schemas/documents.schemas.ts';
import type { EntityDef } from '../entity.ts';

/*
 * A cleaning validation study completed before the platform (or outside it): the evidence a
 * cleaning assessment's coverage matrix rests on until studies are run here (issue 12). Spec §6
 * has no resource of its own for it; studies are what qualification tasks ask for, so the
 * QualificationTask permissions (Add, Get, Modify, Delete) guard the record of one done.
 */
export const HISTORICAL_STUDY_OUTCOMES = ['Validated', 'Failed'] as const;

export const historicalStudiesDef = {
  key: 'historicalStudies',
  label: 'Historical study',
  pluralLabel: 'Historical studies',
  path: 'historical-study',
  table: 'historical_studies',
  resource: 'QualificationTask',
  domain: 'HistoricalStudy',
  description:
    'Historical studies: a cleaning validation study of a product on a production (its equipment train) completed outside the platform, with its type, completion date (YYYY-MM-DD), outcome, the surface limit it was judged against (mg/sqcm or another surface-limit unit) and the report. A Validated study covers its product on that train in cleaning assessments; a limit lower now than the one validated shows the cell as tightened. Needs the qualification task permissions.',
  fields: [
    { name: 'productId', label: 'Product', kind: 'reference', entity: 'products', required: true },
    {
      name: 'productionId',
      label: 'Production (train)',
      kind: 'reference',
      entity: 'productions',
      required: true,
    },
    { name: 'studyType', label: 'Study type', kind: 'enum', options: STUDY_TYPES, required: true },
    {
      name: 'completedDate',
      label: 'Completed',
      kind: 'text',
      max: 10,
      check: isoDateProblem,
      required: true,
    },
    {
      name: 'outcome',
      label: 'Outcome',
      kind: 'enum',
      options: HISTORICAL_STUDY_OUTCOMES,
      required: true,
    },
    {
      name: 'surfaceLimitValidated',
      label: 'Surface limit validated',
      kind: 'quantity',
      measure: 'l3',
      positive: true,
      description: 'The surface limit (L3) the study’s results were judged against.',
    },
    {
      // `name`, which lists sort and search by, is the study report's reference.
      name: 'name',
      label: 'Report reference',
      kind: 'text',
      max: 200,
      required: true,
      description: 'The study report, e.g. CVR-2025-014 (one report may cover several products).',
    },
    { name: 'notes', label: 'Notes', kind: 'longText' },
    {
      name: 'countInStatistics',
      label: 'Count in statistics',
      kind: 'boolean',
      description:
        'Whether the study’s results (historical study results) are drawn in the ongoing verification statistics.',
    },
  ],
  unique: [],
  search: ['name', 'notes'],
  listColumns: ['name', 'productId', 'productionId', 'studyType', 'completedDate', 'outcome'],
} as const satisfies EntityDef<string>;
