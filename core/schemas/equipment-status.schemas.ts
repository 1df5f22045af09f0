import { z } from 'zod';
import { EQUIPMENT_STATES, LOGBOOK_EVENTS } from '../equipment-status/equipment-status.ts';
import { ZId } from './common.schemas.ts';
import { requireSignerProof, ZSsoProof } from './signer.schemas.ts';
import { meaningOf } from './signatures.schemas.ts';

/** Issue 31: the equipment status board and the cleaning and use log (21 CFR 211.182). */

export const ZEquipmentState = z.enum(EQUIPMENT_STATES);
export const ZLogbookEvent = z.enum(LOGBOOK_EVENTS);

export const ZEquipmentStatusItem = z.object({
  equipmentId: z.number().int(),
  name: z.string(),
  state: ZEquipmentState,
  since: z.string().nullable(),
  lastProductId: z.number().int().nullable(),
  lastBatch: z.string().nullable(),
  dirtyHoldDueAt: z.string().nullable(),
  cleanHoldExpiresAt: z.string().nullable(),
  blockingReasons: z.array(z.string()),
});
export type TEquipmentStatusItem = z.infer<typeof ZEquipmentStatusItem>;

export const ZEquipmentStatusQuery = z.object({
  /** Only the items in this state (the board's filter). */
  state: ZEquipmentState.optional(),
  /** Only the items of this production line (its equipment in the production-equipment matrix). */
  productionId: ZId.optional(),
});

/** A train (a production's equipment): the state of its least ready item. */
export const ZTrainStatus = z.object({
  productionId: z.number().int(),
  name: z.string(),
  state: ZEquipmentState,
  equipmentIds: z.array(z.number().int()),
  blockingReasons: z.array(z.string()),
});
export type TTrainStatus = z.infer<typeof ZTrainStatus>;

export const ZEquipmentStatusResponse = z.object({
  items: z.array(ZEquipmentStatusItem),
  trains: z.array(ZTrainStatus),
});

export const ZLogbookParams = z.object({ plan: ZId, facility: ZId, id: ZId });

export const ZLogbookEntry = z.object({
  id: z.number().int(),
  equipmentId: z.number().int(),
  event: ZLogbookEvent,
  /** When it happened: the server's time, or the earlier `at` given (backDated). */
  at: z.string(),
  recordedAt: z.string(),
  backDated: z.boolean(),
  recordedBy: z.number().int(),
  recordedByName: z.string(),
  productId: z.number().int().nullable(),
  batch: z.string().nullable(),
  cleaningProcedureId: z.number().int().nullable(),
  runId: z.number().int().nullable(),
  /** The run as people name it ("ST-0001 run 2"), where the entry names one. */
  runName: z.string().nullable(),
  reason: z.string().nullable(),
  /** The entry this one corrects (event Correction). */
  correctsId: z.number().int().nullable(),
  /** The id of the Correction that voided this entry, if one did. */
  correctedBy: z.number().int().nullable(),
  dirtyHoldHours: z.number().nullable(),
  cleanHoldHours: z.number().nullable(),
  holdSource: z.enum(['protocol', 'facility default']).nullable(),
  releasedAtRisk: z.boolean(),
  /** The Released entry's electronic signature (GET signatures, documentType EquipmentRelease). */
  signatureId: z.number().int().nullable(),
  signatureMeaning: z.string().nullable(),
  signerPrintedName: z.string().nullable(),
  signedContentHash: z.string().nullable(),
  /** A Released entry's number among the item's releases (its signature's `versionNumber`). */
  releaseNumber: z.number().int().nullable(),
});
export type TLogbookEntry = z.infer<typeof ZLogbookEntry>;

export const ZLogbookResponse = z.object({
  status: ZEquipmentStatusItem,
  entries: z.array(ZLogbookEntry),
});

/** The meaning of the Released entry's electronic signature (21 CFR 11.50(a)(3)). */
export const RELEASE_MEANING = meaningOf('EquipmentRelease', 'Approve');

export const ZLogbookRequest = z
  .object({
    event: ZLogbookEvent,
    /** When it happened, if earlier than now: needs a reason and is marked back-dated. */
    at: z.iso.datetime({ offset: true }).optional(),
    productId: ZId.optional(),
    batch: z.string().trim().min(1).max(100).optional(),
    cleaningProcedureId: ZId.optional(),
    /** The cleaning's verification run (CleaningEnded, Released). */
    runId: ZId.optional(),
    reason: z.string().trim().min(1).max(1000).optional(),
    /** The entry a Correction corrects. */
    correctsId: ZId.optional(),
    /** Released is signed: the signer's own password, or a single sign-on proof. */
    password: z.string().max(1000).optional(),
    ssoProof: ZSsoProof.optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const need = (property: keyof typeof value, message: string) => {
      if (value[property] === undefined)
        ctx.addIssue({ code: 'custom', path: [property], message });
    };
    if (value.event === 'UseStarted') {
      need('productId', 'A use names the product made');
      need('batch', 'A use names the batch made');
    }
    if (value.event === 'Blocked' || value.event === 'Unblocked' || value.event === 'Correction')
      need('reason', 'A reason is required');
    if (value.event === 'Correction')
      need('correctsId', 'A correction names the entry it corrects');
    if (value.event !== 'Correction' && value.correctsId !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['correctsId'],
        message: 'Only a Correction points at another entry',
      });
    if (value.event === 'Released') requireSignerProof('Please enter your password')(value, ctx);
  });
export type TLogbookRequest = z.infer<typeof ZLogbookRequest>;
