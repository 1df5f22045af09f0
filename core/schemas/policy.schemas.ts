import { z } from 'zod';
import { AREA_BASES, RESIDUE_TYPES } from '../limits/policy.ts';
import { MEASURES } from '../units/measures.ts';
import { policyFieldText as doc } from '../limits/policy-fields.ts';
import { ZReason } from './common.schemas.ts';
import { ZControlledState, ZIntegrity } from './signatures.schemas.ts';
import { ZVersionsInForce } from './versions.schemas.ts';

const ZPpm = z.object({ value: z.number().finite().positive(), unit: z.literal('ppm') });
const l3Units = MEASURES.l3.allowed as readonly string[];
const ZSampleUnit = z.enum(['ppm', 'mg/ml', 'ug/ml']);
const ZSampleRepresentation = z.object({
  usePerSampleLimit: z.boolean().describe(doc('sampleLimits.usePerSampleLimit')),
  unit: ZSampleUnit.describe(doc('sampleLimits.unit')),
});
const ZRecordingRepresentation = z
  .object({ usePerSampleLimit: z.boolean(), unit: ZSampleUnit })
  .describe(doc('sampleRecordingLimits'));
const ZReporting = z.object({
  showSar: z.boolean().describe(doc('reporting.showSar')),
  showPerSampleResidue: z.boolean().describe(doc('reporting.showPerSampleResidue')),
  showConcentration: z.boolean().describe(doc('reporting.showConcentration')),
  perSampleLimitUnit: z.enum(['mg', 'ug']).describe(doc('reporting.perSampleLimitUnit')),
  concentrationLimitUnit: ZSampleUnit.describe(doc('reporting.concentrationLimitUnit')),
});

/** Every field of the cleaning limit policy of spec §3, as a client may change it. */
export const ZCleaningLimitPolicyFields = z.object({
  useToxicity: z.boolean().describe(doc('useToxicity')),
  useDosage: z.boolean().describe(doc('useDosage')),
  useLd50: z.boolean().describe(doc('useLd50')),
  useARL: z.boolean().describe(doc('useARL')),
  arl: ZPpm.describe(doc('arl')),
  useResidueLimit: z.boolean().describe(doc('useResidueLimit')),
  residueLimit: z
    .object({
      value: z.number().finite().positive(),
      unit: z
        .string()
        .refine((u) => l3Units.includes(u), { message: `must be one of ${l3Units.join(', ')}` }),
    })
    .describe(doc('residueLimit')),
  useFirstAvailableCriteria: z.boolean().describe(doc('useFirstAvailableCriteria')),
  useProductLimit: z.boolean().describe(doc('useProductLimit')),
  ignoreCombo: z.boolean().describe(doc('ignoreCombo')),
  useGlobalRecoveryPercentage: z.boolean().describe(doc('useGlobalRecoveryPercentage')),
  globalRecoveryPercentage: z
    .number()
    .gt(0, 'must be above 0')
    .max(100, 'must be at most 100')
    .describe(doc('globalRecoveryPercentage')),
  useSAR: z.boolean().describe(doc('useSAR')),
  limitRepresentation: z.object({
    productAndEquipmentLimits: z.object({
      salMassUnit: z.enum(['mg', 'ug']).describe(doc('salMassUnit')),
    }),
    sampleLimits: z.object({ swab: ZSampleRepresentation, rinse: ZSampleRepresentation }),
    sampleRecordingLimits: z.object({
      swab: ZRecordingRepresentation,
      rinse: ZRecordingRepresentation,
    }),
    reporting: z.object({ swab: ZReporting, rinse: ZReporting }),
  }),
  intermediateArl: ZPpm.describe(doc('intermediateArl')),
  activesArl: ZPpm.describe(doc('activesArl')),
  useSampleLimit: z.boolean().describe(doc('useSampleLimit')),
  swabSampleLimit: z.number().finite().positive().describe(doc('swabSampleLimit')),
  rinseSampleLimit: z.number().finite().positive().describe(doc('rinseSampleLimit')),
  useFixedSampleLimits: z.boolean().describe(doc('useFixedSampleLimits')),
  fixedSwabLimit: z.number().finite().positive().describe(doc('fixedSwabLimit')),
  fixedRinseLimit: z.number().finite().positive().describe(doc('fixedRinseLimit')),
  safetyFactor: z.number().finite().min(1, 'must be at least 1').describe(doc('safetyFactor')),
  modificationFactor: z
    .number()
    .finite()
    .min(1, 'must be at least 1')
    .describe(doc('modificationFactor')),
  bodyWeight: z
    .object({ value: z.number().finite().positive(), unit: z.enum(['kg', 'g']) })
    .describe(doc('bodyWeight')),
  ld50EmpiricalFactor: z.number().finite().positive().describe(doc('ld50EmpiricalFactor')),
  areaBasis: z.enum(AREA_BASES).describe(doc('areaBasis')),
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
    version: z.number().int().min(0).describe('The record’s version the change was made from'),
  })
  .strict();

/** The latest version of a policy (the one being built, or the one in force) and its state. */
export const ZCleaningLimitPolicyResponse = z
  .object({
    id: z.number().int().describe('The documentId of the controlled record'),
    residueType: ZResidueType,
    policy: ZCleaningLimitPolicy,
    safetyFactor: z.number(),
    modificationFactor: z.number(),
  })
  .extend(ZControlledState.shape)
  .extend(ZVersionsInForce.shape)
  .extend(ZIntegrity);

export type TCleaningLimitPolicy = z.infer<typeof ZCleaningLimitPolicy>;
