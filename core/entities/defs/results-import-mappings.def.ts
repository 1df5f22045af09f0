import type { PropertyError } from '../../errors/errors.ts';
import type { EntityDef } from '../entity.ts';

/*
 * A laboratory's column mapping for results imports (issue 33): which header of its file holds
 * each field of a result. Saved once per laboratory so that every nightly file is read alike; a
 * declared record, so its changes are versioned and audited. Results are guarded by
 * QualificationTask (core/verification/README.md), and so is how they are imported.
 */

const column = (name: string, label: string, description: string, required = false) =>
  ({ name, label, kind: 'text', max: 100, required, description }) as const;

/** The fields of a result a file may hold, each with its mapping field. */
export const IMPORT_COLUMN_FIELDS = [
  'runColumn',
  'studyColumn',
  'locationColumn',
  'sampleNumberColumn',
  'sampleTypeColumn',
  'methodColumn',
  'reportedColumn',
  'valueColumn',
  'unitColumn',
  'sampledAtColumn',
  'analysedAtColumn',
  'analystColumn',
] as const;
export type ImportColumnField = (typeof IMPORT_COLUMN_FIELDS)[number];

/** How a laboratory's file writes a decimal: 0.12 or 0,12 (empty: a point). */
export const DECIMAL_SEPARATORS = ['.', ','] as const;

const RUN_OR_STUDY = 'Map the run or the study column';

function mappingProblems(record: Readonly<Record<string, unknown>>): PropertyError[] {
  if (record.runColumn || record.studyColumn) return [];
  return [{ property: 'runColumn', constraints: { required: RUN_OR_STUDY } }];
}

export const resultsImportMappingsDef = {
  key: 'resultsImportMappings',
  label: 'Import mapping',
  pluralLabel: 'Import mappings',
  path: 'results/import-mappings',
  table: 'results_import_mappings',
  resource: 'QualificationTask',
  domain: 'ResultsImportMapping',
  screen: '/verification/results-import',
  description:
    "Column mappings of laboratories' result files: for each field of a result, the header of the column that holds it (headers are matched ignoring case and spaces at the ends). A file names the run (ST-0001 run 2) or the study (ST-0001: its latest run). Needs the qualification task permissions.",
  fields: [
    { name: 'name', label: 'Name', kind: 'text', max: 100, required: true },
    { name: 'laboratory', label: 'Laboratory', kind: 'text', max: 200, required: true },
    column('runColumn', 'Run column', 'The run, as ST-0001 run 2'),
    column('studyColumn', 'Study column', 'The study, as ST-0001: its latest run'),
    column('locationColumn', 'Location column', 'The sampling location’s name', true),
    column('sampleNumberColumn', 'Sample number column', 'The sample number', true),
    column('sampleTypeColumn', 'Sample type column', 'swab or rinse'),
    column('methodColumn', 'Method column', 'The analytical method’s name'),
    column('reportedColumn', 'Reported column', '=, < LOD, < LOQ or > upper limit'),
    column('valueColumn', 'Value column', 'The number reported', true),
    column('unitColumn', 'Unit column', 'mg/swab, ug/swab, mg/ml, ug/ml or ppm', true),
    column('sampledAtColumn', 'Sampled at column', 'When the sample was taken'),
    column('analysedAtColumn', 'Analysed at column', 'When the laboratory analysed it'),
    column('analystColumn', 'Analyst column', 'Who analysed it'),
    {
      name: 'decimalSeparator',
      label: 'Decimal separator',
      kind: 'enum',
      options: DECIMAL_SEPARATORS,
      optionLabels: { '.': 'Point (0.12)', ',': 'Comma (0,12)' },
      description:
        'How the laboratory writes decimals: a point (the default) or a comma, as European systems do. Never guessed: a value that reads two ways under it is a problem of its row.',
    },
  ],
  unique: ['name'],
  search: ['name', 'laboratory'],
  listColumns: ['name', 'laboratory'],
  check: mappingProblems,
} as const satisfies EntityDef<string>;
