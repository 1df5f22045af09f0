import { z } from 'zod';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZId } from './common.schemas.ts';

/*
 * The annual summary report (spec §3 "annual summary report (start, end, customSections)", §7
 * "annualSummary"): a report of the reports mechanism (kind `annual-summary`) signed as the
 * controlled document type AnnualSummary (shared/contracts/signatures-api.md).
 */

export const MAX_CUSTOM_SECTIONS = 50;

export const ZCustomSection = z
  .object({
    title: z.string().trim().min(1, 'A section needs a title').max(200),
    text: z.string().max(20_000),
  })
  .strict();
export type TCustomSection = z.infer<typeof ZCustomSection>;

/** The period (whole UTC days, both included) and the sections added after the computed ones. */
export const ZAnnualSummaryFields = z.object({
  start: z.iso.date('start must be a date (YYYY-MM-DD)'),
  end: z.iso.date('end must be a date (YYYY-MM-DD)'),
  customSections: z.array(ZCustomSection).max(MAX_CUSTOM_SECTIONS).default([]),
});

const startNotAfterEnd = <T extends { start: string; end: string }>(body: T) =>
  body.start <= body.end;
const periodMessage = { message: 'The end must not be before the start', path: ['end'] };

/** POST {F}/annualSummary. */
export const ZAnnualSummaryBody = ZAnnualSummaryFields.strict().refine(
  startNotAfterEnd,
  periodMessage,
);
export type TAnnualSummaryBody = z.infer<typeof ZAnnualSummaryBody>;

/** The same as a member of POST reports/generate_report's body. */
export const ZAnnualSummaryReportBody = ZAnnualSummaryFields.extend({
  kind: z.literal('annual-summary'),
})
  .strict()
  .refine(startNotAfterEnd, periodMessage);

export const ZAnnualSummaryParams = ZFacilityParams.extend({ id: ZId });
