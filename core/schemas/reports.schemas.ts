import { z } from 'zod';
import { ZAuditLogFilters } from './audit.schemas.ts';
import { ZAnnualSummaryReportBody } from './annual-summary.schemas.ts';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZJobProgress } from './jobs.schemas.ts';
import { ZId, ZListQuery } from './common.schemas.ts';
import { ZControlledDocumentType, ZControlledState } from './signatures.schemas.ts';
import { ZHistoryStartsAt } from './versions.schemas.ts';

/*
 * Reports as controlled documents (issue 13; server/modules/reports/README.md): generated as a
 * background job from a kind and its parameters, stored with the data's hash and each file's
 * hash, signed like any controlled record (document type ReportDocument).
 */

/** Report kinds of spec §3 built so far (the route segment `{type}` of reports/{type}/{id}/pdf). */
export const REPORT_KINDS = [
  'worst-case-ranking',
  'production-limits',
  'change-assessment',
  'cleaning-assessment',
  'study',
  'run',
  'equipment-limits',
  'cleaning-agent-limits',
  'master-data-snapshot',
  'audit-log',
  'annual-summary',
  'qualification',
] as const;
export const ZReportKind = z.enum(REPORT_KINDS);
export type TReportKind = z.infer<typeof ZReportKind>;

export const REPORT_FORMATS = ['pdf', 'xlsx'] as const;
export const ZReportFormat = z.enum(REPORT_FORMATS);
export type TReportFormat = z.infer<typeof ZReportFormat>;

/** What each kind is called and which files it has (spec §3: xlsx and pdf where both). */
export const REPORT_KIND_INFO: Record<
  TReportKind,
  {
    label: string;
    formats: readonly TReportFormat[];
    tags: readonly string[];
    /** The xlsx's file name where the spec names it (else the report's number and title). */
    xlsxName?: string;
  }
> = {
  'worst-case-ranking': {
    label: 'Worst case ranking',
    formats: ['pdf', 'xlsx'],
    tags: ['limits', 'risk'],
  },
  'production-limits': {
    label: 'Production limits',
    formats: ['pdf', 'xlsx'],
    tags: ['limits', 'MAC matrix'],
    xlsxName: 'Production Data.xlsx',
  },
  'equipment-limits': {
    label: 'Equipment limits',
    formats: ['pdf', 'xlsx'],
    tags: ['limits', 'equipment'],
  },
  'cleaning-agent-limits': {
    label: 'Cleaning agent limits',
    formats: ['pdf', 'xlsx'],
    tags: ['limits', 'cleaning agents'],
  },
  'master-data-snapshot': {
    label: 'Master data snapshot',
    formats: ['pdf', 'xlsx'],
    tags: ['master data'],
  },
  'audit-log': {
    label: 'Audit log',
    formats: ['pdf'],
    tags: ['audit'],
  },
  'change-assessment': {
    label: 'Change assessment report',
    formats: ['pdf'],
    tags: ['assessment', 'change'],
  },
  'cleaning-assessment': {
    label: 'Cleaning assessment report',
    formats: ['pdf'],
    tags: ['assessment', 'coverage'],
  },
  study: { label: 'Study report', formats: ['pdf'], tags: ['verification', 'study'] },
  run: { label: 'Run report', formats: ['pdf'], tags: ['verification', 'run'] },
  'annual-summary': {
    label: 'Annual summary',
    formats: ['pdf'],
    tags: ['annual review', 'verification'],
  },
  // Issue 33: installation and operational qualification of the installed system.
  qualification: {
    label: 'Qualification pack',
    formats: ['pdf'],
    tags: ['qualification', 'computerised system validation'],
  },
};

/** The parameters of each kind, the body of POST reports/generate_report. */
export const ZGenerateReportBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('worst-case-ranking') }).strict(),
  z
    .object({
      kind: z.literal('production-limits'),
      /** One production; without it, every production of the facility in one document. */
      productionId: ZId.optional(),
      variant: z.enum(['chemical', 'nitrosamine']).default('chemical'),
    })
    .strict(),
  z.object({ kind: z.literal('change-assessment'), changeAssessmentId: ZId }).strict(),
  z.object({ kind: z.literal('cleaning-assessment'), cleaningAssessmentId: ZId }).strict(),
  z.object({ kind: z.literal('study'), studyId: ZId }).strict(),
  z.object({ kind: z.literal('run'), runId: ZId }).strict(),
  z.object({ kind: z.literal('equipment-limits') }).strict(),
  z.object({ kind: z.literal('cleaning-agent-limits') }).strict(),
  z.object({ kind: z.literal('master-data-snapshot') }).strict(),
  /** The filters of GET audit_logs; the facility is the report's own (with the plan-wide rows). */
  ZAuditLogFilters.omit({ facilityId: true })
    .extend({ kind: z.literal('audit-log') })
    .strict(),
  ZAnnualSummaryReportBody,
  z.object({ kind: z.literal('qualification') }).strict(),
]);
export type TGenerateReportBody = z.infer<typeof ZGenerateReportBody>;

export const ZReportFile = z.object({
  format: ZReportFormat,
  sha256: z.string(),
  createdAt: z.string(),
});

export const ZReport = ZControlledState.extend({
  id: z.number().int(),
  number: z.string(),
  kind: ZReportKind,
  /** What it is signed as: ReportDocument, or AnnualSummary for an annual summary. */
  documentType: ZControlledDocumentType,
  title: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  jobId: z.string().nullable(),
  progress: ZJobProgress.nullable(),
  asOf: z.string().nullable(),
  /** Some records that existed at `asOf` are kept only from this later moment: shown as first kept. */
  historyStartsAt: ZHistoryStartsAt,
  limitsSnapshotId: z.number().int().nullable(),
  /** The snapshot as people name it: the approval it was taken at. */
  limitsSnapshotName: z.string().nullable(),
  dataHash: z.string().nullable(),
  error: z.string().nullable(),
  generatedBy: z.string().nullable(),
  generatedAt: z.string(),
  completedAt: z.string().nullable(),
  /** The files as generated (the PDF's draft), each with its SHA-256. */
  files: z.array(ZReportFile),
});
export type TReport = z.infer<typeof ZReport>;

export const ZReportResponse = z.object({ report: ZReport });
export const ZGenerateReportResponse = z.object({
  report: ZReport,
  reportId: z.number().int(),
  jobId: z.string().nullable(),
});
export const ZReportList = z.object({ reports: z.array(ZReport), total: z.number().int() });
export type TReportList = z.infer<typeof ZReportList>;
export const ZReportListQuery = ZListQuery.extend({ kind: ZReportKind.optional() });

export const ZReportTags = z.object({
  tags: z.array(
    z.object({
      kind: ZReportKind,
      label: z.string(),
      formats: z.array(ZReportFormat),
      tags: z.array(z.string()),
    }),
  ),
});

export const ZReportFileParams = ZFacilityParams.extend({ type: ZReportKind, id: ZId });
export const ZReportDocumentParams = ZFacilityParams.extend({ t: ZReportKind, id: ZId });
export const ZReportParams = ZFacilityParams.extend({ id: ZId });

/** Regenerating a stored report as of its date from its parameters and snapshot. */
export const ZRegenerateResponse = z.object({
  dataHash: z.string(),
  storedDataHash: z.string().nullable(),
  limitsSnapshotId: z.number().int().nullable(),
  same: z.boolean(),
  historyStartsAt: ZHistoryStartsAt,
});

/** GET audit_logs/last_report: of one facility, or of any where the caller reads the audit log. */
export const ZLastAuditReportQuery = z.object({ currentFacilityId: ZId.optional() });
