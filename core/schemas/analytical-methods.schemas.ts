import { z } from 'zod';
import { RESIDUE_MEASURES } from '../verification/residue-measure.ts';
import { ZReason, ZVersion } from './common.schemas.ts';

/** One side (swab or rinse) of a method's fit to the limits it is used for. */
export const ZMethodLimitSide = z.object({
  /** The tightest limit among the equipment whose samples name the method; null when none. */
  limit: z.number().nullable(),
  /** The equipment that limit is on, and the previous → next pair that set it. */
  equipmentId: z.number().int().nullable(),
  equipmentName: z.string().nullable(),
  pair: z.tuple([z.string(), z.string()]).nullable(),
  /** The method's LOQ in `unit`; null without an LOQ or when it cannot be converted. */
  loq: z.number().nullable(),
  /**
   * How the LOQ became mass of active when the method measures something else (total organic
   * carbon: LOQ ÷ carbon fraction), in words; null for a method that measures the active.
   */
  loqConversion: z.string().nullable(),
  unit: z.enum(['mg/swab', 'mg/ml']),
  /** LOQ ≤ limit; false when the LOQ cannot be stated as the active; null when unknown. */
  canDetect: z.boolean().nullable(),
  /** Why `loq` or `limit` is missing, for the screen. */
  note: z.string().nullable(),
  /** How many samples of this type name the method. */
  sampleCount: z.number().int(),
});
export type TMethodLimitSide = z.infer<typeof ZMethodLimitSide>;

/**
 * A limit the method cannot show at a sampling location whose sample names it: the limit a run
 * there would judge against (equipment-wise, over every pair of the facility's current limits),
 * and why (LOQ ÷ recovery above it, or an LOQ that cannot be expressed in its unit).
 */
export const ZUnreachableLimit = z.object({
  samplingLocationId: z.number().int(),
  samplingLocationName: z.string(),
  equipmentId: z.number().int(),
  equipmentName: z.string(),
  sampleType: z.enum(['swab', 'rinse']),
  limit: z.number(),
  unit: z.enum(['mg/swab', 'mg/ml']),
  /** The previous → next product pair that sets the limit. */
  pair: z.string().nullable(),
  reason: z.string(),
});
export type TUnreachableLimit = z.infer<typeof ZUnreachableLimit>;

/** `GET {F}/analytical-method/{id}/limit-fit`. */
export const ZMethodLimitFitResponse = z.object({
  methodId: z.number().int(),
  methodName: z.string(),
  loq: z.object({ value: z.number(), unit: z.string() }).nullable(),
  /** False when no sample at any equipment names the method. */
  isUsed: z.boolean(),
  swab: ZMethodLimitSide,
  rinse: ZMethodLimitSide,
  /** Every limit the method cannot show, by location; empty when it can show them all. */
  unreachable: z.array(ZUnreachableLimit),
});
export type TMethodLimitFitResponse = z.infer<typeof ZMethodLimitFitResponse>;

/** What a method measures (issue 32): set on its own route, guarded by ResidueMeasure Modify. */
export const ZResidueMeasure = z.enum(RESIDUE_MEASURES, {
  error: 'The measured quantity must be the active itself, total organic carbon or conductivity',
});

export const ZResidueMeasureRequest = z.object({
  residueMeasure: ZResidueMeasure,
  version: ZVersion,
  reason: ZReason,
});
export type TResidueMeasureRequest = z.infer<typeof ZResidueMeasureRequest>;

export const ZResidueMeasureResponse = z.object({
  id: z.number().int(),
  residueMeasure: ZResidueMeasure,
  /** The measure in words, for the screen. */
  label: z.string(),
  /** How its results become mass of active, in words. */
  conversion: z.string(),
  version: z.number().int(),
});
