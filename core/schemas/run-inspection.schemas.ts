import { z } from 'zod';
import { ZReason, ZVersion } from './common.schemas.ts';
import { ZInspectionSettingsFields } from './facility-rules.schemas.ts';

/*
 * The visual inspection of a run's cleaning event (issue 12; rules in core/verification/README.md
 * "Visual inspection"), judged against the cleaning inspection settings the run pinned when its
 * cleaning started.
 */

export const CHECKLIST_ANSWERS = ['Pass', 'Fail', 'N/A'] as const;
export const ZChecklistAnswer = z.enum(CHECKLIST_ANSWERS);
export type TChecklistAnswer = z.infer<typeof ZChecklistAnswer>;

export const ZInspectionResult = z.enum(['Pass', 'Fail']);

/** POST {F}/runs/{id}/inspection: records (or re-records) the inspection by the signed-in user. */
export const ZInspectionInput = z
  .object({
    /** When the surfaces were inspected; unset = now (server time). */
    inspectedAt: z.iso.datetime({ offset: true }).optional(),
    /** Light measured at the inspected surface. */
    lightLux: z
      .number({ error: 'The light level in lux is required' })
      .int('Give the light level in whole lux')
      .min(0, 'must not be negative')
      .max(200_000),
    /** One answer per item of the pinned checklist, in its order. */
    checklist: z.array(z.object({ answer: ZChecklistAnswer })).max(100),
    result: ZInspectionResult,
    notes: z.string().trim().max(2000).nullable().optional(),
    /** Where the photos are kept (document system reference, file name); see the README. */
    evidenceReference: z.string().trim().max(500).nullable().optional(),
    /** Needed when an inspection already recorded is changed. */
    reason: ZReason.optional(),
    version: ZVersion,
  })
  .strict();
export type TInspectionInput = z.infer<typeof ZInspectionInput>;

/** POST {F}/runs/{id}/inspection/verification: the signed-in second person verifies it. */
export const ZInspectionVerification = z
  .object({ reason: ZReason.optional(), version: ZVersion })
  .strict();

export const ZInspectionRecord = z.object({
  inspectorId: z.number().int().nullable(),
  inspectorName: z.string().nullable(),
  inspectedAt: z.string(),
  lightLux: z.number(),
  checklist: z.array(
    z.object({ item: z.string(), isMandatory: z.boolean(), answer: ZChecklistAnswer }),
  ),
  result: ZInspectionResult,
  notes: z.string().nullable(),
  evidenceReference: z.string().nullable(),
  /** Second-person verification: who (never the inspector) and when; null until verified. */
  verifiedById: z.number().int().nullable(),
  verifiedByName: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
export type TInspectionRecord = z.infer<typeof ZInspectionRecord>;

/** The run's inspection: the settings it pinned when its cleaning started, and the record. */
export const ZRunInspection = z.object({
  /** The version number of the cleaning inspection settings in force at the start; null before. */
  settingsVersion: z.number().int().nullable(),
  settings: ZInspectionSettingsFields.nullable(),
  record: ZInspectionRecord.nullable(),
  /** Recorded, and verified by a second person where the settings require it. */
  isComplete: z.boolean(),
});
export type TRunInspection = z.infer<typeof ZRunInspection>;
