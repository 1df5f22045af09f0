import { z } from 'zod';
import { ZListQuery, ZPage } from './common.schemas.ts';
import { ZRiskGoal } from './cleaning-assessments.schemas.ts';
import { ZPendingApproval, ZControlledDocumentType } from './signatures.schemas.ts';

/*
 * The dashboard (the new Home, issue 13) and feedback (spec §7: `{F}/dashboard`,
 * `{F}/dashboard/toxicity-score`, `{F}/dashboard/mac_limit_tracker`, `feedback`).
 * Every part of the dashboard is null when the caller may not read the records behind it.
 */

/** Validation status of one equipment item, from the studies that cover it. */
export const EQUIPMENT_STATES = [
  'Validated',
  'On Going',
  'Failed',
  'Overdue',
  'Not covered',
] as const;
export const ZEquipmentState = z.enum(EQUIPMENT_STATES);
export type TEquipmentState = z.infer<typeof ZEquipmentState>;

/**
 * A validated equipment item is re-verified periodically (APIC cleaning validation guide §8,
 * EU GMP Annex 15 §10.12: verified at a defined frequency); until the facility can set its own
 * frequency, a validated state older than a year is overdue.
 */
export const PERIODIC_VERIFICATION_DAYS = 365;

export const ZEquipmentStatus = z.object({
  equipmentCount: z.number().int(),
  counts: z.record(ZEquipmentState, z.number().int()),
  /** The overdue items, oldest validation first (at most 10). */
  overdue: z.array(z.object({ id: z.number().int(), name: z.string(), validatedAt: z.string() })),
  openQualificationTasks: z.number().int(),
  periodicVerificationDays: z.number().int(),
});
export type TEquipmentStatus = z.infer<typeof ZEquipmentStatus>;

/** Age buckets of open change assessments, in days since they were raised. */
export const CHANGE_AGE_BUCKETS = [
  { label: 'Under 7 days', upTo: 7 },
  { label: '7–30 days', upTo: 30 },
  { label: '30–90 days', upTo: 90 },
  { label: 'Over 90 days', upTo: null },
] as const;

export const ZOpenChangeAssessments = z.object({
  open: z.number().int(),
  byAge: z.array(z.object({ label: z.string(), count: z.number().int() })),
  oldest: z
    .object({
      id: z.number().int(),
      number: z.string(),
      title: z.string(),
      ageDays: z.number().int(),
    })
    .nullable(),
});

export const RELEASE_FLAGS = ['CAN_BE_RELEASED', 'MAY_BE_RELEASED', 'CAN_NOT_BE_RELEASED'] as const;
export const RELEASE_FLAG_LABELS: Record<(typeof RELEASE_FLAGS)[number], string> = {
  CAN_BE_RELEASED: 'Can be released',
  MAY_BE_RELEASED: 'May be released (at risk)',
  CAN_NOT_BE_RELEASED: 'Can not be released',
};
/** A run as a tile links to it: /runs/{id}, named 'ST-0001 run 2'. */
const ZRunLink = z.object({
  id: z.number().int(),
  studyId: z.number().int(),
  studyNumber: z.string(),
  sequence: z.number().int(),
});
export const ZReleaseFlags = z.object({
  /** The facility's day (YYYY-MM-DD, in its time zone) the runs ended on. */
  date: z.string(),
  counts: z.record(z.enum(RELEASE_FLAGS), z.number().int()),
  runs: z.array(ZRunLink.extend({ releaseFlag: z.enum(RELEASE_FLAGS) })),
});

/**
 * Every failure a validation lead must see: runs whose verdict is Fail (in progress or
 * completed) and studies whose outcome is Failed, each counted and listed newest first (at most
 * 10) with what the screen links to.
 */
export const ZFailures = z.object({
  failedRuns: z.object({
    count: z.number().int(),
    runs: z.array(
      /** Completed (its record approved), or still open for decisions. */
      ZRunLink.extend({ completed: z.boolean() }),
    ),
  }),
  failedStudies: z.object({
    count: z.number().int(),
    studies: z.array(z.object({ id: z.number().int(), number: z.string(), title: z.string() })),
  }),
});
export type TFailures = z.infer<typeof ZFailures>;

export const ZMySignatures = z.object({
  count: z.number().int(),
  /** The oldest waiting first (at most 5). */
  items: z.array(ZPendingApproval),
});

/** What a new facility has set up, for the empty states (null: not readable by the caller). */
export const ZFacilitySetup = z.object({
  actives: z.number().int().nullable(),
  products: z.number().int().nullable(),
  equipment: z.number().int().nullable(),
  productions: z.number().int().nullable(),
  cleaningAssessments: z.number().int().nullable(),
});

export const ZDashboard = z.object({
  setup: ZFacilitySetup,
  equipmentStatus: ZEquipmentStatus.nullable(),
  openChangeAssessments: ZOpenChangeAssessments.nullable(),
  mySignatures: ZMySignatures,
  releaseFlags: ZReleaseFlags.nullable(),
  failures: ZFailures.nullable(),
  riskGoal: ZRiskGoal.nullable(),
});
export type TDashboard = z.infer<typeof ZDashboard>;
export const ZDashboardResponse = z.object({ dashboard: ZDashboard });

/** Toxicity bands of the actives' PDE (µg/day) as the worst-case ranking scores them. */
export const ZToxicityScore = z.object({
  bands: z.array(z.object({ score: z.number().int(), label: z.string(), count: z.number().int() })),
  notRecorded: z.number().int(),
  total: z.number().int(),
});
export type TToxicityScore = z.infer<typeof ZToxicityScore>;
export const ZToxicityScoreResponse = z.object({ toxicityScore: ZToxicityScore });

/** How close a limit may come to the method's LOQ before it is flagged (a factor of 2). */
export const NEAR_LOQ_FACTOR = 2;
/** How far back the tracker looks for limits that moved. */
export const LIMIT_TRACKER_DAYS = 90;

export const ZNearLoqPair = z.object({
  previous: z.string(),
  next: z.string(),
  method: z.string(),
  sampleType: z.enum(['swab', 'rinse']),
  /** The limit and the LOQ in the engine's unit of the sample type (mg/swab or mg/ml). */
  limit: z.number(),
  loq: z.number(),
  unit: z.string(),
  /** limit ÷ LOQ: under 1 the limit cannot be shown to be met. */
  ratio: z.number(),
});
export type TNearLoqPair = z.infer<typeof ZNearLoqPair>;

export const ZLimitMove = z.object({
  snapshotId: z.number().int(),
  at: z.string(),
  documentType: ZControlledDocumentType.or(z.string()),
  documentId: z.number().int(),
  /** The approved record that put these limits in force, e.g. 'CA-0003 New tablet press'. */
  title: z.string(),
  changeAssessmentId: z.number().int().nullable(),
});

export const ZMacLimitTracker = z.object({
  since: z.string(),
  moves: z.array(ZLimitMove),
  nearLoq: z.object({
    factor: z.number(),
    count: z.number().int(),
    /** The closest first (at most 20). */
    pairs: z.array(ZNearLoqPair),
    /** Why nothing could be compared, e.g. no method has an LOQ. */
    note: z.string().nullable(),
  }),
});
export type TMacLimitTracker = z.infer<typeof ZMacLimitTracker>;
export const ZMacLimitTrackerResponse = z.object({ macLimitTracker: ZMacLimitTracker });

/** Feedback from any screen (spec §7 `feedback`). */
export const ZFeedbackBody = z.object({
  text: z
    .string({ error: 'Please describe your feedback' })
    .trim()
    .min(1, 'Please describe your feedback')
    .max(4000, 'Feedback can be at most 4000 characters'),
  screenPath: z.string().trim().max(500).default('/'),
});
export const ZFeedback = z.object({
  id: z.number().int(),
  text: z.string(),
  screenPath: z.string(),
  userId: z.number().int(),
  userName: z.string(),
  createdAt: z.string(),
});
export type TFeedback = z.infer<typeof ZFeedback>;
export const ZFeedbackResponse = z.object({ feedback: ZFeedback });
export const ZFeedbackListQuery = ZListQuery;
export const ZFeedbackPage = ZPage(ZFeedback);
