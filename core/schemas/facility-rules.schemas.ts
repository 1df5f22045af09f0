import { z } from 'zod';
import { MEASURES } from '../units/measures.ts';
import { ZReason } from './common.schemas.ts';
import { ZControlledState, ZIntegrity } from './signatures.schemas.ts';
import { ZVersionsInForce } from './versions.schemas.ts';

/*
 * Facility rules kept as one document each: the microbial cleaning limit policy, the cleaning
 * inspection settings and an approval policy per document type. A facility that never changed
 * one answers with its defaults and version 0; a change sends the fields it changes, the version
 * it was made from and a reason.
 */

const count = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .finite()
    .nonnegative('must not be negative');

// EU GMP Annex 1 (2022), table 6: surface limits in CFU per contact plate (55 mm) per grade.
const ZGradeLimit = z.object({
  contactPlate: count('contactPlate').describe('CFU per contact plate'),
  swab: count('swab').describe('CFU per swab'),
});

export const ZMicrobialPolicyFields = z.object({
  useMicrobialLimits: z.boolean(),
  gradeLimits: z
    .object({ A: ZGradeLimit, B: ZGradeLimit, C: ZGradeLimit, D: ZGradeLimit })
    .describe('Surface limits per room grade (EU GMP Annex 1); equipment takes its room grade’s'),
  ungradedLimit: ZGradeLimit.describe('Surface limits for equipment without a room grade'),
  rinseLimit: count('rinseLimit').describe('CFU per ml of final rinse'),
  useEndotoxinLimit: z.boolean(),
  endotoxinLimit: count('endotoxinLimit').describe('EU per ml of final rinse'),
  alertLevelPercentage: z
    .number()
    .gt(0, 'must be above 0')
    .max(100, 'must be at most 100')
    .describe('Alert level as a percentage of each limit (action level is the limit itself)'),
  microbialMethodIds: z
    .array(z.number().int().positive())
    .max(100)
    .describe('Microbial analytical methods the policy applies'),
});
export type TMicrobialPolicy = z.infer<typeof ZMicrobialPolicyFields>;

export const MICROBIAL_POLICY_DEFAULTS: TMicrobialPolicy = {
  useMicrobialLimits: true,
  gradeLimits: {
    A: { contactPlate: 0, swab: 0 },
    B: { contactPlate: 5, swab: 5 },
    C: { contactPlate: 25, swab: 25 },
    D: { contactPlate: 50, swab: 50 },
  },
  ungradedLimit: { contactPlate: 100, swab: 100 },
  // Ph. Eur. purified water action level; WFI rinses would use 10 CFU/100 ml (0.1 CFU/ml).
  rinseLimit: 100,
  useEndotoxinLimit: false,
  // Ph. Eur. water for injections.
  endotoxinLimit: 0.25,
  alertLevelPercentage: 50,
  microbialMethodIds: [],
};

const l3Units = MEASURES.l3.allowed as readonly string[];

export const ZInspectionSettingsFields = z.object({
  visualInspectionRequired: z.boolean(),
  visibleResidueLimit: z
    .object({
      value: z.number().finite().positive('must be greater than 0'),
      unit: z
        .string()
        .refine((u) => l3Units.includes(u), { message: `must be one of ${l3Units.join(', ')}` }),
    })
    .describe('The surface residue visible to an inspector (about 4 ug/sqcm; Fourman and Mullen)'),
  minimumLightLux: z.number().int().positive().max(10_000),
  requireSecondPersonVerification: z.boolean(),
  requirePhotoEvidence: z.boolean(),
  dirtyHoldTimeHours: z
    .number()
    .positive()
    .max(24 * 365)
    .nullable()
    .describe('Validated longest time from end of use to start of cleaning; null when not set'),
  cleanHoldTimeHours: z
    .number()
    .positive()
    .max(24 * 365)
    .nullable()
    .describe('Validated longest time from cleaning to next use; null when not set'),
  checklist: z
    .array(
      z.object({
        item: z.string().trim().min(1, 'An item is required').max(500),
        isMandatory: z.boolean(),
      }),
    )
    .max(100)
    .describe('What the inspector checks and signs for, item by item'),
});
export type TInspectionSettings = z.infer<typeof ZInspectionSettingsFields>;

export const INSPECTION_SETTINGS_DEFAULTS: TInspectionSettings = {
  visualInspectionRequired: true,
  visibleResidueLimit: { value: 4, unit: 'ug/sqcm' },
  minimumLightLux: 500,
  requireSecondPersonVerification: false,
  requirePhotoEvidence: false,
  dirtyHoldTimeHours: null,
  cleanHoldTimeHours: null,
  checklist: [
    { item: 'No visible residue on product-contact surfaces', isMandatory: true },
    { item: 'No cleaning agent residue or foam', isMandatory: true },
    { item: 'Surfaces dry, no standing water', isMandatory: true },
    { item: 'Gaskets, seals and screens intact and clean', isMandatory: true },
    { item: 'Equipment labelled with its cleaning status', isMandatory: false },
  ],
};

// The record's version the change was made from (every record has one from its creation).
const ZRuleVersion = z.number().int().min(0);

function changeOf<T extends z.ZodRawShape>(fields: z.ZodObject<T>) {
  return fields.partial().extend({ reason: ZReason, version: ZRuleVersion }).strict();
}

export const ZMicrobialPolicyRequest = changeOf(ZMicrobialPolicyFields);
// Controlled records: the latest version and its state; `id` is the documentId.
export const ZMicrobialPolicyResponse = z
  .object({ id: z.number().int(), policy: ZMicrobialPolicyFields })
  .extend(ZControlledState.shape)
  .extend(ZVersionsInForce.shape)
  .extend(ZIntegrity);

export const ZInspectionSettingsRequest = changeOf(ZInspectionSettingsFields);
export const ZInspectionSettingsResponse = z
  .object({ id: z.number().int(), cleaningInspectionSettings: ZInspectionSettingsFields })
  .extend(ZControlledState.shape)
  .extend(ZVersionsInForce.shape)
  .extend(ZIntegrity);
