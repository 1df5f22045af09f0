import { FILTER_OPERATOR_LABELS } from '#core/labels/enum-labels.ts';
import {
  COLUMN_LABELS,
  CUSTOM_REPORT_SOURCES,
  SOURCE_LABELS,
  FILTER_OPERATORS,
  customReportProblems,
} from '#core/schemas/custom-reports.schemas.ts';
import type { EntityDef } from '../entity.ts';

/*
 * A saved custom report (spec §3): its source, columns and filters, kept on the record mechanism
 * so that every change is versioned and audited. Spec §6 gives reports ReportDocument (Generate,
 * Get, Modify): saving one is Generate, editing and archiving it Modify.
 */
export const customReportsDef = {
  key: 'customReports',
  label: 'Custom report',
  pluralLabel: 'Custom reports',
  path: 'report-data',
  table: 'custom_reports',
  resource: 'ReportDocument',
  actions: { get: 'Get', add: 'Generate', modify: 'Modify', archive: 'Modify' },
  domain: 'CustomReport',
  screen: '/reports/custom',
  description:
    'Custom reports: a named choice of a source (product pairs, products, equipment, sample results, audit entries), its columns in order and its filters (column, operator, value), checked against the source’s columns. Its data is shown page by page and downloaded as an xlsx workbook.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', max: 200, required: true },
    {
      name: 'source',
      label: 'Source',
      kind: 'enum',
      options: CUSTOM_REPORT_SOURCES,
      optionLabels: SOURCE_LABELS,
      required: true,
    },
    {
      name: 'columns',
      label: 'Columns',
      kind: 'list',
      of: [
        {
          name: 'key',
          label: 'Column',
          kind: 'text',
          max: 64,
          required: true,
          valueLabels: COLUMN_LABELS,
        },
      ],
      required: true,
    },
    {
      name: 'filters',
      label: 'Filters',
      kind: 'list',
      of: [
        {
          name: 'column',
          label: 'Column',
          kind: 'text',
          max: 64,
          required: true,
          valueLabels: COLUMN_LABELS,
        },
        {
          name: 'operator',
          label: 'Operator',
          kind: 'enum',
          options: FILTER_OPERATORS,
          optionLabels: FILTER_OPERATOR_LABELS,
          required: true,
        },
        { name: 'value', label: 'Value', kind: 'text', max: 200, required: true },
      ],
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'description'],
  listColumns: ['name', 'source'],
  check: customReportProblems,
} as const satisfies EntityDef<string>;
