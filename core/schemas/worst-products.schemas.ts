import { z } from 'zod';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZId, ZReason } from './common.schemas.ts';
import { ZUncomputable } from './mac-matrix.schemas.ts';
import { requireSignerProof, ZSsoProof } from './signer.schemas.ts';

/*
 * The worst-case product of each train (production) and of each item of equipment (issue 32),
 * computed by the worst-case ranking's criteria, and a site's signed override of it.
 */

/** Why the computed product is the worst: the criterion that set it apart, with both values. */
export const ZWorstReason = z.object({
  attribute: z.string().nullable(),
  value: z.number().nullable(),
  unit: z.string().nullable(),
  runnerUp: z.object({ product: z.string(), value: z.number().nullable() }).nullable(),
  text: z.string(),
});

/** A signed override as it was signed, with its lineage: what was computed, what was chosen. */
export const ZWorstProductOverride = z.object({
  id: z.number().int(),
  computedProductId: z.number().int().nullable(),
  computedProduct: z.string().nullable(),
  computedLowestMaco: z.number().nullable(),
  productId: z.number().int(),
  product: z.string(),
  lowestMaco: z.number().nullable(),
  keepComputedLimit: z.boolean(),
  /** The limit the study of the group is judged against (mg): the strictest of the two. */
  groupLimit: z.number().nullable(),
  groupLimitProduct: z.string().nullable(),
  justification: z.string(),
  /** The equipment train it follows (null for an item's), and the train's equipment as signed. */
  trainId: z.number().int().nullable(),
  trainEquipmentIds: z.array(z.number().int()).nullable(),
  signatureId: z.number().int(),
  meaning: z.string(),
  signedBy: z.string(),
  signedAt: z.string(),
  /** In words, for a report or an assessment: who chose what instead of what, and why. */
  text: z.string(),
});
export type TWorstProductOverride = z.infer<typeof ZWorstProductOverride>;

/** An override in force as the ranking, its report and the cleaning assessment list it. */
export const ZTargetOverride = ZWorstProductOverride.extend({
  kind: z.enum(['train', 'equipment']),
  targetId: z.number().int(),
  /** The train's or the item's name. */
  target: z.string(),
});
export type TTargetOverride = z.infer<typeof ZTargetOverride>;

/** A product of the group with its lowest MACO (mg) as the ranking has it; null if none. */
const ZGroupProduct = z.object({
  id: z.number().int(),
  name: z.string(),
  lowestMaco: z.number().nullable(),
});

const computedWorst = {
  computed: z.object({
    productId: z.number().int().nullable(),
    product: z.string().nullable(),
    lowestMaco: z.number().nullable(),
    reason: ZWorstReason,
  }),
  override: ZWorstProductOverride.nullable(),
  /** The product the group is validated on: the override's where one is in force. */
  worstCase: z.string().nullable(),
  /**
   * Under an override, the limit its study is judged against on today's data: the strictest of
   * the computed worst's and the chosen product's lowest MACO (mg), never the looser one signed
   * on older data; with what to review when the computed worst case changed since it was signed.
   */
  overrideNow: z
    .object({
      limit: z.number().nullable(),
      limitProduct: z.string().nullable(),
      review: z.string().nullable(),
      /**
       * False when it was signed for an earlier version of the train (its equipment changed) or
       * its product is not made here: `worstCase` is then the computed one until it is reviewed.
       */
      applies: z.boolean(),
    })
    .nullable(),
};

export const ZTrainWorstProduct = z.object({
  productionId: z.number().int(),
  name: z.string(),
  /** The equipment train the production runs on: its override follows the train. */
  trainId: z.number().int().nullable(),
  trainName: z.string().nullable(),
  products: z.array(ZGroupProduct),
  ...computedWorst,
});
export const ZEquipmentWorstProduct = z.object({
  equipmentId: z.number().int(),
  name: z.string(),
  products: z.array(ZGroupProduct),
  ...computedWorst,
});
export type TTrainWorstProduct = z.infer<typeof ZTrainWorstProduct>;
export type TEquipmentWorstProduct = z.infer<typeof ZEquipmentWorstProduct>;

const answer = {
  criteria: z.array(z.object({ attribute: z.string(), worst: z.enum(['highest', 'lowest']) })),
  units: z.object({ lowestMaco: z.literal('mg') }),
  uncomputable: z.array(ZUncomputable),
};
export const ZTrainWorstProducts = z.object({ trains: z.array(ZTrainWorstProduct), ...answer });
export const ZEquipmentWorstProducts = z.object({
  equipment: z.array(ZEquipmentWorstProduct),
  ...answer,
});

export const ZTrainOverrideParams = ZFacilityParams.extend({ productionId: ZId });
export const ZEquipmentOverrideParams = ZFacilityParams.extend({ equipmentId: ZId });

/**
 * Another product as the worst case, signed: the justification, the signer's password (or single
 * sign-on proof), and `replaces` naming the override in force when one is replaced.
 */
export const ZWorstProductOverrideRequest = z
  .object({
    productId: ZId,
    justification: z
      .string({ error: 'A worst-case override needs a justification' })
      .trim()
      .min(1, 'A worst-case override needs a justification')
      .max(5000),
    /** Keep the computed worst's limit for the chosen product's study (a looser product). */
    keepComputedLimit: z.boolean().default(false),
    replaces: ZId.optional(),
    password: z.string().max(1000).optional(),
    ssoProof: ZSsoProof.optional(),
    reason: ZReason,
  })
  .strict()
  .superRefine(requireSignerProof('Please enter your password to sign the override'));
export type TWorstProductOverrideRequest = z.output<typeof ZWorstProductOverrideRequest>;

/** Withdraw the override in force (the computed worst case applies again), with a reason. */
export const ZWithdrawOverrideQuery = z.object({ overrideId: ZId, reason: ZReason });
