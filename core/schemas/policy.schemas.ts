import { z } from 'zod';
import { AREA_BASES, RESIDUE_TYPES } from '../limits/policy.ts';
import { MEASURES } from '../units/measures.ts';
import { ZReason } from './common.schemas.ts';

const ZPpm = z.object({ value: z.number().finite().positive(), unit: z.literal('ppm') });
const l3Units = MEASURES.l3.allowed as readonly string[];
const ZSampleUnit = z.enum(['ppm', 'mg/ml', 'ug/ml']);
const ZSampleRepresentation = z.object({ usePerSampleLimit: z.boolean(), unit: ZSampleUnit });
const ZReporting = z.object({
  showSar: z.boolean(),
  showPerSampleResidue: z.boolean(),
  showConcentration: z.boolean(),
  perSampleLimitUnit: z.enum(['mg', 'ug']),
  concentrationLimitUnit: ZSampleUnit,
});

/** Every field of the cleaning limit policy of spec §3, as a client may change it. */
export const ZCleaningLimitPolicyFields = z.object({
  useToxicity: z.boolean(),
  useDosage: z.boolean(),
  useLd50: z.boolean(),
  useARL: z.boolean(),
  arl: ZPpm,
  useResidueLimit: z.boolean(),
  residueLimit: z.object({
    value: z.number().finite().positive(),
    unit: z
      .string()
      .refine((u) => l3Units.includes(u), { message: `must be one of ${l3Units.join(', ')}` }),
  }),
  useFirstAvailableCriteria: z.boolean(),
  useProductLimit: z.boolean(),
  ignoreCombo: z.boolean(),
  useGlobalRecoveryPercentage: z.boolean(),
  globalRecoveryPercentage: z.number().gt(0, 'must be above 0').max(100, 'must be at most 100'),
  useSAR: z.boolean(),
  limitRepresentation: z.object({
    productAndEquipmentLimits: z.object({ salMassUnit: z.enum(['mg', 'ug']) }),
    sampleLimits: z.object({ swab: ZSampleRepresentation, rinse: ZSampleRepresentation }),
    sampleRecordingLimits: z.object({ swab: ZSampleRepresentation, rinse: ZSampleRepresentation }),
    reporting: z.object({ swab: ZReporting, rinse: ZReporting }),
  }),
  intermediateArl: ZPpm,
  activesArl: ZPpm,
  useSampleLimit: z.boolean(),
  swabSampleLimit: z.number().finite().positive(),
  rinseSampleLimit: z.number().finite().positive(),
  useFixedSampleLimits: z.boolean(),
  fixedSwabLimit: z.number().finite().positive(),
  fixedRinseLimit: z.number().finite().positive(),
  safetyFactor: z.number().finite().min(1, 'must be at least 1'),
  modificationFactor: z.number().finite().min(1, 'must be at least 1'),
  bodyWeight: z.object({ value: z.number().finite().positive(), unit: z.enum(['kg', 'g']) }),
  ld50EmpiricalFactor: z.number().finite().positive(),
  areaBasis: z.enum(AREA_BASES),
});

export const ZResidueType = z.enum(RESIDUE_TYPES);

export const ZCleaningLimitPolicy = ZCleaningLimitPolicyFields.extend({
  residueType: ZResidueType,
});

/** A change names the residue type, the fields it changes, the version it was made from and why. */
export const ZCleaningLimitPolicyRequest = ZCleaningLimitPolicyFields.partial()
  .extend({
    residueType: ZResidueType,
    reason: ZReason,
    // 0 is the version of a facility's defaults, before its first change.
    version: z.number().int().min(0),
  })
  .strict();

export const ZCleaningLimitPolicyResponse = z.object({
  id: z.number().int().nullable(),
  residueType: ZResidueType,
  policy: ZCleaningLimitPolicy,
  safetyFactor: z.number(),
  modificationFactor: z.number(),
  version: z.number().int(),
});

export type TCleaningLimitPolicy = z.infer<typeof ZCleaningLimitPolicy>;
