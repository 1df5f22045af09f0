import { RESIDUE_TYPES } from '#core/limits/policy.ts';
import { isoDateProblem } from '#core/schemas/documents.schemas.ts';
import type { EntityDef } from '../entity.ts';

/**
 * A result of a historical study, as percent of the limit it was judged against then: drawn in
 * the ongoing verification statistics (core/verification/README.md) when its study is marked
 * `countInStatistics`. Kept as a plain path naming its study (a child path under the study would
 * need routes of its own, as sampling locations have); guarded by QualificationTask as its study.
 */
export const historicalStudyResultsDef = {
  key: 'historicalStudyResults',
  label: 'Historical study result',
  pluralLabel: 'Historical study results',
  path: 'historical-study-results',
  table: 'historical_study_results',
  resource: 'QualificationTask',
  domain: 'HistoricalStudyResult',
  description:
    'Results of historical studies, as percent of the limit they were judged against then, with where they were taken (equipment, sampling location) and the residue type; counted in the ongoing verification statistics when their study is marked "Count in statistics". Needs the qualification task permissions.',
  fields: [
    {
      name: 'historicalStudyId',
      label: 'Historical study',
      kind: 'reference',
      entity: 'historicalStudies',
      required: true,
    },
    { name: 'equipmentId', label: 'Equipment', kind: 'reference', entity: 'equipment' },
    {
      name: 'samplingLocationId',
      label: 'Sampling location',
      kind: 'reference',
      entity: 'samplingLocations',
    },
    { name: 'residueType', label: 'Residue type', kind: 'enum', options: RESIDUE_TYPES },
    {
      name: 'takenAt',
      label: 'Taken',
      kind: 'text',
      max: 10,
      check: isoDateProblem,
      required: true,
    },
    {
      name: 'percentOfLimit',
      label: 'Percent of limit',
      kind: 'number',
      min: 0,
      max: 1_000_000,
      required: true,
    },
    { name: 'censoredBelow', label: 'Below LOQ (at most)', kind: 'boolean' },
    {
      // `name`, which lists sort and search by, is the sample's reference in the study report.
      name: 'name',
      label: 'Sample reference',
      kind: 'text',
      max: 200,
      required: true,
      description: 'The sample as the study report names it, e.g. CVR-2025-014 / S-03.',
    },
  ],
  unique: [],
  search: ['name'],
  listColumns: [
    'name',
    'historicalStudyId',
    'takenAt',
    'equipmentId',
    'percentOfLimit',
    'censoredBelow',
  ],
} as const satisfies EntityDef<string>;
