import { z } from 'zod';
import { ZReason, ZVersion } from './common.schemas.ts';
import { ZControlledState } from './signatures.schemas.ts';

/*
 * Laboratory investigations of out-of-specification results (core/verification/README.md,
 * "Out-of-specification results"; FDA guidance "Investigating Out-of-Specification (OOS) Test
 * Results for Pharmaceutical Production", 2006, rev. 2022).
 */

/** Phase I looks for an assignable cause in the laboratory; phase II (production) is a deviation. */
export const INVESTIGATION_PHASES = ['laboratory'] as const;
/** Phase I ends with an assignable laboratory cause (the result is invalid) or confirms the OOS. */
export const INVESTIGATION_OUTCOMES = ['assignableCause', 'confirmed'] as const;
export const INVESTIGATION_OUTCOME_LABELS = {
  assignableCause: 'Assignable laboratory cause (result invalidated)',
  confirmed: 'OOS confirmed (no assignable laboratory cause; the result stands)',
} as const;
/** The laboratory errors the guidance names (section III.B): what can invalidate a result. */
export const LABORATORY_CAUSES = [
  'calculation',
  'instrument',
  'standard',
  'analyst',
  'sampleHandling',
  'other',
] as const;
export const LABORATORY_CAUSE_LABELS = {
  calculation: 'Calculation error',
  instrument: 'Instrument malfunction',
  standard: 'Standard or reagent',
  analyst: 'Analyst error',
  sampleHandling: 'Sample handling or preparation',
  other: 'Other laboratory cause',
} as const;

const text = (max: number) => z.string().trim().max(max);

export const ZInvestigationFields = z.object({
  findings: text(5000).optional(),
  outcome: z.enum(INVESTIGATION_OUTCOMES).nullable().optional(),
  causeCategory: z.enum(LABORATORY_CAUSES).nullable().optional(),
  causeDescription: text(5000).nullable().optional(),
  conclusion: text(5000).nullable().optional(),
});

export const ZInvestigationCreate = ZInvestigationFields.extend({
  reason: ZReason.optional(),
}).strict();
export type TInvestigationCreate = z.infer<typeof ZInvestigationCreate>;

export const ZInvestigationEdit = ZInvestigationFields.extend({
  reason: ZReason,
  version: ZVersion,
}).strict();
export type TInvestigationEdit = z.infer<typeof ZInvestigationEdit>;

export const ZInvestigation = z.object({
  id: z.number().int(),
  /** INV-0001 per facility. */
  number: z.string(),
  runId: z.number().int(),
  /** The result investigated: a sample result, or a microbial result (the other is null). */
  resultId: z.number().int().nullable(),
  microbialResultId: z.number().int().nullable(),
  /** The result as investigated: where, what was reported, its percent of limit. */
  samplingLocationName: z.string(),
  reported: z.string(),
  percentOfLimit: z.number().nullable(),
  phase: z.enum(INVESTIGATION_PHASES),
  outcome: z.enum(INVESTIGATION_OUTCOMES).nullable(),
  causeCategory: z.enum(LABORATORY_CAUSES).nullable(),
  causeDescription: z.string().nullable(),
  findings: z.string(),
  conclusion: z.string().nullable(),
  /** Approved by QA: its outcome applies (an assignable cause invalidated the result). */
  concluded: z.boolean(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  controlled: ZControlledState,
  version: z.number().int(),
});
export type TInvestigation = z.infer<typeof ZInvestigation>;

export const ZInvestigationResponse = z.object({ investigation: ZInvestigation });
export type TInvestigationResponse = z.infer<typeof ZInvestigationResponse>;
