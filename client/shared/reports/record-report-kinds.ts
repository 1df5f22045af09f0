import type { TReportKind } from '#core/schemas/reports.schemas.ts';

/** The report kinds of one record, and the parameter that names the record. */
export const RECORD_REPORT_PARAMS = {
  'change-assessment': 'changeAssessmentId',
  'cleaning-assessment': 'cleaningAssessmentId',
  study: 'studyId',
  run: 'runId',
} as const satisfies Partial<Record<TReportKind, string>>;
export type RecordReportKind = keyof typeof RECORD_REPORT_PARAMS;

export const isRecordReportKind = (kind: TReportKind | undefined): kind is RecordReportKind =>
  kind !== undefined && kind in RECORD_REPORT_PARAMS;
