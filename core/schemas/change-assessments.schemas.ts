import { z } from 'zod';
import { ZId, ZListQuery, ZReason, ZVersion } from './common.schemas.ts';
import { ZControlledState } from './signatures.schemas.ts';

/*
 * Change assessments (issue 11; design in core/assessments/README.md): a staged change set of
 * master-data and policy edits that changes nothing until the assessment is approved, and its
 * impact on every limit, computed by the engine before approval.
 */

export const CHANGE_TYPES = [
  'New product',
  'Product discontinued',
  'New equipment',
  'Equipment modified',
  'HBEL/dose/batch change',
  'Cleaning agent or procedure change',
  'Analytical method change',
  'Policy change',
  'Other',
] as const;
export const ZChangeType = z.enum(CHANGE_TYPES);
export type TChangeType = z.infer<typeof ZChangeType>;

/** Spec §4, exactly as shown. */
export const CHANGE_STATUSES = [
  'Not Evaluated',
  'Pending Approval',
  'Approved',
  'Cancelled',
] as const;
export const ZChangeStatus = z.enum(CHANGE_STATUSES);
export type TChangeStatus = z.infer<typeof ZChangeStatus>;

export const CHANGE_OPS = ['create', 'update', 'archive', 'restore'] as const;
export const ZChangeOp = z.enum(CHANGE_OPS);

/**
 * What a staged change touches: a declared record type (its key in RECORD_DEFS, e.g. `products`)
 * or a cleaning limit policy (`cleaningLimitPolicy`, recordId = the policy's id).
 */
export const POLICY_TARGET = 'cleaningLimitPolicy';
export const ZChangeTarget = z.string().trim().min(1).max(64);

export const ZStagedChangeBody = z.object({
  op: ZChangeOp,
  entity: ZChangeTarget,
  /** The record edited, archived or restored; absent for a create. */
  recordId: ZId.optional(),
  /** The record's version the edit was made from (a later direct edit makes the stage stale). */
  recordVersion: ZVersion.optional(),
  /** The same body a direct create or edit takes (without reason and version). */
  values: z.record(z.string(), z.unknown()).default({}),
  reason: ZReason,
  /** The change assessment's version (optimistic lock). */
  version: ZVersion,
});
export type TStagedChangeBody = z.infer<typeof ZStagedChangeBody>;

export const ZStagedChange = z.object({
  id: z.number().int(),
  position: z.number().int(),
  op: ZChangeOp,
  entity: z.string(),
  recordId: z.number().int().nullable(),
  recordVersion: z.number().int().nullable(),
  values: z.record(z.string(), z.unknown()),
  reason: z.string(),
  /** Human summary, e.g. "Product 'Tablet A': edit PDE". */
  label: z.string(),
  /** False when the record moved on since it was staged (edit it again). */
  current: z.boolean(),
  stagedBy: z.number().int(),
  stagedAt: z.string(),
  /** When its values were last edited; null when never since it was staged. */
  editedAt: z.string().nullable(),
});
export type TStagedChange = z.infer<typeof ZStagedChange>;

/** Each kind of impact in words, for the screen and the signed PDF alike. */
export const IMPACT_KIND_LABELS: Record<TImpactKind, string> = {
  limitsMoved: 'Limits moved',
  criterionChanged: 'Governing criterion changed',
  pairsAdded: 'Pairs added',
  pairsRemoved: 'Pairs removed',
  worstCaseChanged: 'Worst case changed',
  belowLoq: 'Below LOQ',
  resultAtRisk: 'Result at risk',
};

export const DECISIONS = [
  'noAction',
  'verification',
  'newProductStudy',
  'revalidation',
  'updateProtocol',
  'updateSamplingPlan',
] as const;
export const ZDecision = z.enum(DECISIONS);
export type TDecision = z.infer<typeof ZDecision>;
export const DECISION_LABELS: Record<TDecision, string> = {
  noAction: 'No action',
  verification: 'Verification',
  newProductStudy: 'New-product study',
  revalidation: 'Revalidation',
  updateProtocol: 'Update protocol',
  updateSamplingPlan: 'Update sampling plan',
};

/** A decision unit of the impact: one per previous product, train, product, method or result. */
export const IMPACT_KINDS = [
  'limitsMoved',
  'criterionChanged',
  'pairsAdded',
  'pairsRemoved',
  'worstCaseChanged',
  'belowLoq',
  'resultAtRisk',
] as const;
export const ZImpactKind = z.enum(IMPACT_KINDS);
export type TImpactKind = z.infer<typeof ZImpactKind>;

/** Lowest limits of a side, in the facility's display units (unit named beside each). */
export const ZImpactLimits = z.object({
  maco: z.number().nullable(),
  sal: z.number().nullable(),
  swab: z.number().nullable(),
  rinse: z.number().nullable(),
  criterion: z.string().nullable(),
});

export const ZImpactItem = z.object({
  /** Stable across evaluations of the same change set: `${kind}:${subject}`. */
  key: z.string(),
  kind: ZImpactKind,
  /** The previous product, train, product or method the item is about (names, as the engine). */
  subject: z.string(),
  /** One line a reviewer reads: what moves and by how much. */
  summary: z.string(),
  before: ZImpactLimits.nullable(),
  after: ZImpactLimits.nullable(),
  /** Largest percent change of any limit of the item (negative = tighter). */
  changePercent: z.number().nullable(),
  /** Number of pairs behind the item. */
  pairs: z.number().int(),
  tightened: z.boolean(),
  units: z.object({ maco: z.string(), sal: z.string(), swab: z.string(), rinse: z.string() }),
  decision: z
    .object({
      decision: ZDecision,
      justification: z.string(),
      decidedBy: z.number().int(),
      decidedByName: z.string(),
      decidedAt: z.string(),
    })
    .nullable(),
});
export type TImpactItem = z.infer<typeof ZImpactItem>;

/** Every criterion of one side of a pair (null where it does not apply), in `unit`. */
export const ZCriterionValues = z.object({
  health: z.number().nullable(),
  dose: z.number().nullable(),
  ld50: z.number().nullable(),
  arl: z.number().nullable(),
  product: z.number().nullable(),
  formula: z
    .number()
    .nullable()
    .optional()
    .describe(
      'The lowest of the facility’s approved MAC formulas; absent from impacts computed before they existed',
    ),
});
export type TCriterionValues = z.infer<typeof ZCriterionValues>;

/** A pair's criteria before and after (issue 30): why its limit moved, or why it did not. */
export const ZImpactCriteria = z.object({
  unit: z.string(),
  before: ZCriterionValues.nullable(),
  after: ZCriterionValues.nullable(),
});
export type TImpactCriteria = z.infer<typeof ZImpactCriteria>;

/**
 * One pair whose limits move, or that is new or gone, or whose governing limit stays while
 * another criterion moves (at most 10,000 kept, largest change first).
 */
export const ZImpactPair = z.object({
  previous: z.string(),
  next: z.string(),
  before: ZImpactLimits.nullable(),
  after: ZImpactLimits.nullable(),
  macoChange: z.number().nullable(),
  salChange: z.number().nullable(),
  swabChange: z.number().nullable(),
  rinseChange: z.number().nullable(),
  /** Absent in evaluations made before criteria were kept. */
  criteria: ZImpactCriteria.optional(),
});
export type TImpactPair = z.infer<typeof ZImpactPair>;

export const ZImpactSummary = z.object({
  pairsBefore: z.number().int(),
  pairsAfter: z.number().int(),
  pairsMoved: z.number().int(),
  pairsTightened: z.number().int(),
  pairsAdded: z.number().int(),
  pairsRemoved: z.number().int(),
  criterionChanged: z.number().int(),
  worstCasesChanged: z.number().int(),
  belowLoq: z.number().int(),
  resultsAtRisk: z.number().int(),
  /** Pairs whose limits stay while a criterion that does not govern moves (absent before). */
  criteriaMoved: z.number().int().optional(),
  /** Pairs kept in the pair list (the rest are counted only). */
  pairsListed: z.number().int(),
});
export type TImpactSummary = z.infer<typeof ZImpactSummary>;

export const ZEvaluation = z.object({
  evaluatedAt: z.string(),
  evaluatedBy: z.number().int(),
  /**
   * False once the facility's data or the change set changed since (evaluate again). Once the
   * assessment is applied the evaluation is frozen and stays true.
   */
  current: z.boolean(),
  /**
   * True once the assessment is approved and applied: the evaluation is the one the approval
   * signed, kept as it was and no longer compared with the data (which the apply itself changed).
   */
  frozen: z.boolean(),
  summary: ZImpactSummary,
  /** Impact items still without a decision; submit needs 0. */
  undecided: z.number().int(),
});

export const ZChangeAssessmentFields = z.object({
  title: z.string().trim().min(1, 'A title is required').max(200),
  changeType: ZChangeType,
  description: z.string().trim().max(5000).default(''),
  /** The change-of-control (moc) record this assessment evaluates. */
  mocId: ZId.nullable().default(null),
});

export const ZChangeAssessmentCreate = ZChangeAssessmentFields.extend({
  reason: ZReason.optional(),
});
export const ZChangeAssessmentEdit = ZChangeAssessmentFields.extend({
  reason: ZReason,
  version: ZVersion,
});

export const ZChangeAssessment = ZControlledState.extend({
  id: z.number().int(),
  /** CA-0001, per facility. */
  number: z.string(),
  title: z.string(),
  changeType: ZChangeType,
  description: z.string(),
  mocId: z.number().int().nullable(),
  mocNumber: z.string().nullable(),
  changeStatus: ZChangeStatus,
  changes: z.array(ZStagedChange),
  evaluation: ZEvaluation.nullable(),
  /** Set when approved: the limits snapshot the approval put in force. */
  limitsSnapshotId: z.number().int().nullable(),
  /** Set once approved: when its change set was applied, by whose approval, as which version. */
  applied: z
    .object({
      at: z.string(),
      versionNumber: z.number().int(),
      approvedBy: z.string().nullable(),
    })
    .nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  createdBy: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TChangeAssessment = z.infer<typeof ZChangeAssessment>;

export const ZChangeAssessmentSummary = ZChangeAssessment.omit({ changes: true }).extend({
  changeCount: z.number().int(),
});
export type TChangeAssessmentSummary = z.infer<typeof ZChangeAssessmentSummary>;

export const ZChangeAssessmentResponse = z.object({ changeAssessment: ZChangeAssessment });
export const ZChangeAssessmentList = z.object({
  changeAssessments: z.array(ZChangeAssessmentSummary),
  total: z.number().int(),
});
export const ZChangeAssessmentListQuery = ZListQuery.extend({
  changeStatus: ZChangeStatus.optional(),
  mocId: ZId.optional(),
});

export const ZEvaluateBody = z.object({ version: ZVersion });
export const ZCancelBody = z.object({ reason: ZReason, version: ZVersion });
export const ZChangeEditBody = ZStagedChangeBody.pick({
  values: true,
  reason: true,
  version: true,
});
export const ZUnstageQuery = z.object({ reason: ZReason, version: ZVersion });

export const ZImpactQuery = ZListQuery.extend({
  kind: ZImpactKind.optional(),
  undecided: z.coerce.boolean().optional(),
});
export const ZImpactResponse = z.object({
  items: z.array(ZImpactItem),
  total: z.number().int(),
  summary: ZImpactSummary,
});
export const ZImpactPairsQuery = ZListQuery.extend({
  previous: z.string().max(200).optional(),
  /** Only the pairs whose limits stay while a criterion that does not govern moves. */
  stays: z.stringbool().optional(),
});
export const ZImpactPairsResponse = z.object({
  pairs: z.array(ZImpactPair),
  total: z.number().int(),
});

export const ZDecisionsBody = z.object({
  decisions: z
    .array(
      z.object({
        key: z.string().min(1).max(400),
        decision: ZDecision,
        justification: z.string().trim().min(1, 'A justification is required').max(2000),
      }),
    )
    .min(1)
    .max(5000),
  version: ZVersion,
});

/** A change assessment as the moc record it evaluates lists it. */
export const ZChangeAssessmentLink = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  changeStatus: ZChangeStatus,
});
export type TChangeAssessmentLink = z.infer<typeof ZChangeAssessmentLink>;
