import { z } from 'zod';
import { ZId } from './common.schemas.ts';
import { ZCensoring, ZJudgement, ZResultUnit, ZSampleType } from './verification.schemas.ts';

/*
 * Results from the laboratory (issue 33): a CSV or xlsx file of results read with a laboratory's
 * saved column mapping (core/entities/defs/results-import-mappings.def.ts), previewed row by row
 * with the judgement the run screen would give, and entered in one transaction.
 */

/** At most this many result rows in one file: a laboratory's batch, not an archive. */
export const MAX_IMPORT_ROWS = 5000;

export const ZResultsImportQuery = z.object({
  mappingId: ZId,
  /** true: preview only, nothing written. */
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  fileName: z.string().trim().max(200).optional(),
});

/** One problem of the file: its row (1 = the header row) and the header of its column. */
export const ZImportProblem = z.object({
  row: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type TImportProblem = z.infer<typeof ZImportProblem>;

export const IMPORT_ROW_STATUSES = ['new', 'unchanged', 'problem'] as const;

export const ZImportRow = z.object({
  row: z.number().int(),
  /** new: entered by the import; unchanged: that sample at that location of that run is already entered with this result. */
  status: z.enum(IMPORT_ROW_STATUSES),
  runId: z.number().int().nullable(),
  runName: z.string().nullable(),
  location: z.string().nullable(),
  sampleNumber: z.string().nullable(),
  sampleType: ZSampleType.nullable(),
  method: z.string().nullable(),
  censoring: ZCensoring.nullable(),
  rawValue: z.number().nullable(),
  unit: ZResultUnit.nullable(),
  /** As the run screen shows a typed result: limit, percent of limit, pass or fail. */
  judgement: ZJudgement.pick({
    limit: true,
    percentOfLimit: true,
    censoredBelow: true,
    passed: true,
    methodNotFit: true,
    reportedCensoring: true,
    reportedValue: true,
  }).nullable(),
});
export type TImportRow = z.infer<typeof ZImportRow>;

export const ZResultsImportResponse = z.object({
  dryRun: z.boolean(),
  fileName: z.string(),
  mappingId: z.number().int(),
  rows: z.array(ZImportRow),
  problems: z.array(ZImportProblem),
  counts: z.object({
    rows: z.number().int(),
    new: z.number().int(),
    unchanged: z.number().int(),
    problems: z.number().int(),
  }),
});
export type TResultsImportResponse = z.infer<typeof ZResultsImportResponse>;
