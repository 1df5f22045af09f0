import type { RecordDecl } from '../record-decl.ts';

/**
 * RPT-0001: a report of the facility's data as of one moment, its files hashed, signed like any
 * controlled record (21 CFR 11.10(b): accurate and complete copies). Controlled under its kind's
 * document type (ReportDocument, or AnnualSummary), which server/modules/reports gives with each
 * write; the report job's completion is its one write.
 */
export const reportsDecl = {
  key: 'reports',
  label: 'Report',
  table: 'reports',
  domain: 'ReportDocument',
} as const satisfies RecordDecl;
