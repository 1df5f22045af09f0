import { z } from 'zod';
import { ZId } from './common.schemas.ts';
import { ZSampleType } from './verification.schemas.ts';

/** `GET {F}/changeovers?from=&to=&production=` (issue 31, "The changeover decision"). */
export const ZChangeoverQuery = z.object({
  from: z.coerce.number().int().positive().describe('The product made before the cleaning'),
  to: z.coerce.number().int().positive().describe('The product to be made next'),
  production: z.coerce.number().int().positive().describe('The production (train) it is made on'),
});
export type TChangeoverQuery = z.infer<typeof ZChangeoverQuery>;

const ZQuantity = <U extends string>(unit: U) =>
  z.object({ value: z.number(), unit: z.literal(unit) }).nullable();

export const ZChangeoverLimits = z.object({
  maco: ZQuantity('mg'),
  sal: ZQuantity('mg/sqcm'),
  swab: ZQuantity('mg/swab'),
  rinse: ZQuantity('mg/ml'),
  governing: z.string().nullable().describe('The criterion that gives the MACO'),
  governingActive: z.string().nullable(),
});

export const ZChangeoverSample = z.object({
  samplingLocationId: ZId,
  sampleType: ZSampleType,
  analyticalMethodId: ZId.nullable(),
  limit: z.object({ value: z.number(), unit: z.string() }).nullable(),
  recovery: z
    .number()
    .nullable()
    .describe('The recovery (a fraction) the limit carries: the one a run divides its result by'),
  recoverySource: z.string().nullable().describe('Where the recovery comes from'),
});
export type TChangeoverSample = z.infer<typeof ZChangeoverSample>;

export const ZChangeover = z.object({
  limits: ZChangeoverLimits,
  cleaningProcedureId: ZId.nullable(),
  validated: z.boolean(),
  verificationRequired: z.boolean(),
  reasons: z.array(z.string()),
  samplingPlan: z.array(ZChangeoverSample),
});
export type TChangeover = z.infer<typeof ZChangeover>;
