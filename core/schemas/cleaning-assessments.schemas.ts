import { z } from 'zod';
import { ZTargetOverride } from './worst-products.schemas.ts';
import { ZId, ZListQuery, ZReason, ZVersion } from './common.schemas.ts';
import { ZJobProgress } from './jobs.schemas.ts';
import { ZControlledState } from './signatures.schemas.ts';
import { requireSignerProof, ZSsoProof } from './signer.schemas.ts';

/*
 * Facility cleaning assessments (cleaningEvaluation), qualification tasks and the risk goal
 * (issue 11; design in core/assessments/README.md; paths of spec §7).
 */

export const STUDY_TYPES = [
  'Validation',
  'Verification',
  'Periodic Verification',
  'New Product Introduction',
  'Product Changeover',
  'Batch Changeover',
  'On Demand Study',
] as const;
export const ZStudyType = z.enum(STUDY_TYPES);
export type TStudyType = z.infer<typeof ZStudyType>;

/** How a product × train cell of the coverage matrix is covered. */
export const COVERAGE_STATES = ['study', 'representative', 'tightened', 'notCovered'] as const;
export const ZCoverageState = z.enum(COVERAGE_STATES);
export type TCoverageState = z.infer<typeof ZCoverageState>;
export const COVERAGE_LABELS: Record<TCoverageState, string> = {
  study: 'Covered by a study',
  representative: "Covered by its group's representative",
  tightened: 'Covered, but the limit has tightened since',
  notCovered: 'Not covered',
};

/** What a coverage cell rests on: a study (issue 12) or a historical study record. */
export const ZEvidence = z.object({
  kind: z.enum(['historicalStudy', 'study']),
  id: z.number().int(),
  name: z.string(),
  /** The limit (surface limit, mg/sqcm) the study was judged against, when recorded. */
  limitAtStudy: z.number().nullable(),
  date: z.string().nullable(),
});

export const ZCoverageCell = z.object({
  product: z.string(),
  productId: z.number().int(),
  train: z.string(),
  trainId: z.number().int(),
  state: ZCoverageState,
  /** For 'representative': the product whose study covers this one. */
  representative: z.string().nullable(),
  /** The surface limit of the product on the train now (mg/sqcm). */
  currentLimit: z.number().nullable(),
  evidence: z.array(ZEvidence),
});
export type TCoverageCell = z.infer<typeof ZCoverageCell>;

/** The worst case of one equipment train (a production) and why, from the data. */
export const ZTrainWorstCase = z.object({
  train: z.string(),
  trainId: z.number().int(),
  product: z.string().nullable(),
  /** e.g. 'Lowest MACO into any next product on this train: 0.12 mg (health, PDE 0.01 mg)'. */
  reason: z.string(),
  lowestMaco: z.number().nullable(),
  lowestSal: z.number().nullable(),
  /** The site's signed override of the train's worst case in force, in words (issue 32). */
  override: z.string().nullable().optional(),
  /** The product the train is validated on: the override's while it applies, else `product`. */
  worstCase: z.string().nullable().optional(),
});

export const ZAssessmentGroup = z.object({
  kind: z.enum(['product', 'equipment']),
  id: z.number().int(),
  name: z.string(),
  members: z.array(z.string()),
  /** The product group's worst case (its representative), by the limits. */
  representative: z.string().nullable(),
});

export const ZAssessmentDiff = z.object({
  priorId: z.number().int().nullable(),
  newGaps: z.array(z.object({ product: z.string(), train: z.string() })),
  closedGaps: z.array(z.object({ product: z.string(), train: z.string() })),
  worstCaseChanges: z.array(
    z.object({ train: z.string(), before: z.string().nullable(), after: z.string().nullable() }),
  ),
  /** The change assessments approved between the two assessments. */
  changeAssessments: z.array(
    z.object({ id: z.number().int(), number: z.string(), title: z.string() }),
  ),
});

export const ZAssessmentResult = z.object({
  limitsSnapshotId: z.number().int().nullable(),
  inputHash: z.string(),
  groups: z.array(ZAssessmentGroup),
  worstCases: z.array(ZTrainWorstCase),
  coverage: z.array(ZCoverageCell),
  counts: z.object({
    cells: z.number().int(),
    study: z.number().int(),
    representative: z.number().int(),
    tightened: z.number().int(),
    notCovered: z.number().int(),
    highestRiskScore: z.number().nullable(),
  }),
  diff: ZAssessmentDiff,
  /** Products the engine left out (incomplete data), with why. */
  uncomputable: z.array(z.object({ name: z.string(), reason: z.string() })),
  /** The signed worst-case overrides of trains and items in force when it ran (issue 32). */
  overrides: z.array(ZTargetOverride).optional(),
});
export type TAssessmentResult = z.infer<typeof ZAssessmentResult>;

export const ZCleaningAssessment = ZControlledState.extend({
  id: z.number().int(),
  /** FCE-0001, per facility. */
  number: z.string(),
  reason: z.string().nullable(),
  progress: ZJobProgress,
  /** Null until the job is done. */
  result: ZAssessmentResult.nullable(),
  startedBy: z.number().int(),
  /** The starter's full name, for the list (added by the client helper; optional until served). */
  startedByName: z.string().nullable().optional(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TCleaningAssessment = z.infer<typeof ZCleaningAssessment>;

export const ZCleaningAssessmentSummary = ZCleaningAssessment.omit({ result: true }).extend({
  counts: ZAssessmentResult.shape.counts.nullable(),
});

export const ZStartAssessmentBody = z.object({ reason: ZReason.optional() });
export const ZCleaningAssessmentResponse = z.object({ cleaningAssessment: ZCleaningAssessment });
export const ZCleaningAssessmentList = z.object({
  cleaningAssessments: z.array(ZCleaningAssessmentSummary),
  total: z.number().int(),
});
export const ZPriorAssessmentQuery = z.object({ id: ZId.optional() });
export const ZPriorAssessmentResponse = z.object({
  priorAssessment: ZCleaningAssessmentSummary.nullable(),
});

/** A change to the facility's GMP data since the previous assessment (from the audit trail). */
export const ZDataChange = z.object({
  at: z.string(),
  userName: z.string().nullable(),
  domain: z.string(),
  action: z.string(),
  entityId: z.string().nullable(),
  entityName: z.string().nullable(),
  reason: z.string().nullable(),
  changeAssessment: z
    .object({ id: z.number().int(), number: z.string(), title: z.string() })
    .nullable(),
});
export const ZFromLastQuery = ZListQuery.extend({ id: ZId.optional() });
export const ZFromLastResponse = z.object({
  since: z.string().nullable(),
  priorId: z.number().int().nullable(),
  changes: z.array(ZDataChange),
  total: z.number().int(),
});

export const TASK_STATUSES = ['Open', 'Accepted', 'Dismissed'] as const;
export const ZTaskStatus = z.enum(TASK_STATUSES);

export const ZQualificationTask = z.object({
  id: z.number().int(),
  evaluationId: z.number().int(),
  /** The case study: the train (production) the gap is on. */
  caseStudyId: z.number().int(),
  train: z.string(),
  product: z.string(),
  productId: z.number().int(),
  gap: z.enum(['notCovered', 'tightened']),
  proposedStudyType: ZStudyType,
  scope: z.string(),
  dueDate: z.string(),
  status: ZTaskStatus,
  justification: z.string().nullable(),
  decidedBy: z.number().int().nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  version: z.number().int(),
  /**
   * The studies started from the task (issue 12), oldest first; outcome as STUDY_OUTCOMES of
   * verification.schemas.ts, which imports this file (so it is not imported here).
   */
  studies: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      outcome: z.enum(['Validated', 'On Going', 'Failed']),
    }),
  ),
});
export type TQualificationTask = z.infer<typeof ZQualificationTask>;

export const ZTaskListQuery = ZListQuery.extend({
  evaluationId: ZId.optional(),
  status: ZTaskStatus.optional(),
});
export const ZTaskList = z.object({
  qualificationTasks: z.array(ZQualificationTask),
  total: z.number().int(),
});
export const ZTaskAction = z
  .object({
    action: z.enum(['accept', 'dismiss']),
    /** Required to dismiss; optional note when accepting. */
    justification: z.string().trim().max(2000).optional(),
    /** The signer's own password (or a single sign-on proof): a decision is signed (Part 11). */
    password: z.string().max(1000).optional(),
    ssoProof: ZSsoProof.optional(),
    proposedStudyType: ZStudyType.optional(),
    dueDate: z.iso.date().optional(),
    version: ZVersion,
  })
  .superRefine(requireSignerProof('Please enter your password'));
export const ZTaskResponse = z.object({ qualificationTask: ZQualificationTask });

export const ZRiskGoalBody = z.object({
  /** The highest acceptable risk score of any product/equipment pair. */
  maxRiskScore: z.number().positive().nullable(),
  /** The share of product × train cells that must be covered by studies, percent. */
  minCoveragePercent: z.number().min(0).max(100).nullable(),
  reason: ZReason,
  version: ZVersion.optional(),
});
export const ZRiskGoal = z.object({
  maxRiskScore: z.number().nullable(),
  minCoveragePercent: z.number().nullable(),
  version: z.number().int(),
  updatedAt: z.string().nullable(),
  /** Against the latest completed assessment; null when there is none. */
  current: z
    .object({
      assessmentId: z.number().int(),
      highestRiskScore: z.number().nullable(),
      coveragePercent: z.number(),
      meetsRiskScore: z.boolean().nullable(),
      meetsCoverage: z.boolean().nullable(),
    })
    .nullable(),
});
export const ZRiskGoalResponse = z.object({ riskGoal: ZRiskGoal });
