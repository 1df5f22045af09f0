import {
  CUSTOM_REPORT_SOURCES,
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
    'Custom reports: a named choice of a source (pairs, products, equipment, sampleResults, auditEntries), its columns in order and its filters (column, operator, value), validated against the source’s declared columns (GET report-info). Its data is paged by GET {id}/report-data/data and downloaded as xlsx by GET {id}/report-data/download.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', max: 200, required: true },
    {
      name: 'source',
      label: 'Source',
      kind: 'enum',
      options: CUSTOM_REPORT_SOURCES,
      required: true,
    },
    {
      name: 'columns',
      label: 'Columns',
      kind: 'list',
      of: [{ name: 'key', label: 'Column', kind: 'text', max: 64, required: true }],
      required: true,
    },
    {
      name: 'filters',
      label: 'Filters',
      kind: 'list',
      of: [
        { name: 'column', label: 'Column', kind: 'text', max: 64, required: true },
        {
          name: 'operator',
          label: 'Operator',
          kind: 'enum',
          options: FILTER_OPERATORS,
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
} as const satisfies EntityDef;
