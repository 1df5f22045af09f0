import { z } from 'zod';
import { ZDataChange } from './cleaning-assessments.schemas.ts';

/*
 * "Compare with today" of a stored report (server/modules/reports/README.md): its data computed
 * now from the same parameters, what changed row by row, and the approvals and edits behind it.
 */

const ZCell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One row that differs: a limit (pair, old, new, % change) or any other row by its key. */
export const ZCompareRow = z.object({
  key: z.string(),
  change: z.enum(['changed', 'added', 'removed']),
  /** For limits: the pair 'Production: A -> B' and the governing MACO in mg. */
  pair: z.string().nullable(),
  old: ZCell,
  new: ZCell,
  /** (new − old) / old × 100, for numbers. */
  percentChange: z.number().nullable(),
  /** For other rows: the fields that differ, each with its old and new value. */
  fields: z.array(z.object({ field: z.string(), old: ZCell, new: ZCell })),
});
export type TCompareRow = z.infer<typeof ZCompareRow>;

/** A limits snapshot stored between the report's moment and now, and the approval behind it. */
export const ZCompareSnapshot = z.object({
  snapshotId: z.number().int(),
  at: z.string(),
  documentType: z.string(),
  documentId: z.number().int(),
  title: z.string(),
  changeAssessmentId: z.number().int().nullable(),
});

export const ZCompareResponse = z.object({
  reportId: z.number().int(),
  asOf: z.string(),
  now: z.string(),
  storedDataHash: z.string().nullable(),
  dataHash: z.string(),
  same: z.boolean(),
  /** 'limits' when the rows are pairs with their MACO; 'rows' for the generic diff. */
  mode: z.enum(['limits', 'rows']),
  rows: z.array(ZCompareRow),
  snapshots: z.array(ZCompareSnapshot),
  /** The edits of GMP data since the report (newest first, at most 200), direct or applied. */
  /** The GMP data changes (audit rows) since the report, with the change assessment applied. */
  edits: z.array(ZDataChange),
  editCount: z.number().int(),
});
export type TCompareResponse = z.infer<typeof ZCompareResponse>;
