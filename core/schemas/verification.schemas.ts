import { z } from 'zod';
import { ZId, ZListQuery, ZReason, ZVersion } from './common.schemas.ts';
import { ZControlledState } from './signatures.schemas.ts';
import { ZStudyType } from './cleaning-assessments.schemas.ts';
import { ZRunInspection } from './run-inspection.schemas.ts';
import { RESIDUE_TYPES } from '../limits/policy.ts';
import { ZInvestigation } from './investigation.schemas.ts';

/*
 * Studies, runs, sample results, deviations and ongoing verification (issue 12; design in
 * core/verification/README.md). Protocols are a declared record (core/entities/defs/protocols.def.ts).
 */

/** Spec §4 validation outcome. */
export const STUDY_OUTCOMES = ['Validated', 'On Going', 'Failed'] as const;
export const ZStudyOutcome = z.enum(STUDY_OUTCOMES);
export type TStudyOutcome = z.infer<typeof ZStudyOutcome>;

/** Spec §4 run status (NotStarted until the cleaning event starts). */
export const RUN_STATUSES = [
  'NotStarted',
  'InProgress',
  'BeingReviewed',
  'BeingApproved',
  'Completed',
] as const;
export const ZRunStatus = z.enum(RUN_STATUSES);
export type TRunStatus = z.infer<typeof ZRunStatus>;

/** Spec §4 release flags. */
export const RELEASE_FLAGS = ['CAN_BE_RELEASED', 'MAY_BE_RELEASED', 'CAN_NOT_BE_RELEASED'] as const;
export const ZReleaseFlag = z.enum(RELEASE_FLAGS);
export type TReleaseFlag = z.infer<typeof ZReleaseFlag>;
export const RELEASE_LABELS: Record<TReleaseFlag, string> = {
  CAN_BE_RELEASED: 'Can be released',
  MAY_BE_RELEASED: 'May be released at risk',
  CAN_NOT_BE_RELEASED: 'Cannot be released',
};

export const SAMPLE_TYPES = ['swab', 'rinse'] as const;
export const ZSampleType = z.enum(SAMPLE_TYPES);
export type TSampleType = z.infer<typeof ZSampleType>;

/** How a raw value was reported: a number, or a statement about the method's range. */
export const CENSORING = ['=', '< LOD', '< LOQ', '> upper limit'] as const;
export const ZCensoring = z.enum(CENSORING);
export type TCensoring = z.infer<typeof ZCensoring>;

/** Units a result is entered in: an amount per swab, or a concentration in the rinse. */
export const SWAB_RESULT_UNITS = ['mg/swab', 'ug/swab'] as const;
export const RINSE_RESULT_UNITS = ['mg/ml', 'ug/ml', 'ppm'] as const;
export const RESULT_UNITS = [...SWAB_RESULT_UNITS, ...RINSE_RESULT_UNITS] as const;
export const ZResultUnit = z.enum(RESULT_UNITS);
export type TResultUnit = z.infer<typeof ZResultUnit>;

export const VISUAL_RESULTS = ['Pass', 'Fail'] as const;
export const ZVisualResult = z.enum(VISUAL_RESULTS);

/** What a result was judged to be (computed by the server, never accepted from the client). */
export const ZJudgement = z.object({
  /** The raw value divided by the recovery (recovery divides the result, never the limit). */
  correctedValue: z.number().nullable(),
  /** The recovery fraction used (0 < r ≤ 1) and where it came from. */
  recovery: z.number(),
  recoverySource: z.string(),
  /** The limit from the study's pinned limits snapshot, in the result's unit; null when none applies. */
  limit: z.number().nullable(),
  /** corrected / limit × 100; for a censored result the bound's percent (see censoredBelow). */
  percentOfLimit: z.number().nullable(),
  /** True when the value is only known to lie below percentOfLimit (< LOD, < LOQ). */
  censoredBelow: z.boolean(),
  /** null while the limit is missing. */
  passed: z.boolean().nullable(),
  /**
   * The method cannot show the limit: its LOQ (recovery-corrected) or the reported bound is above
   * the limit, or its LOQ cannot be expressed in the result's unit. Such a result never passes.
   */
  methodNotFit: z.boolean(),
  /**
   * Set when the method's LOQ/LOD changed how the result is reported: a `< LOQ` bound raised to
   * the LOQ, or an `=` value below the LOQ reported as `< LOQ` at the LOQ (in the result's unit).
   */
  reportedCensoring: ZCensoring.optional(),
  reportedValue: z.number().optional(),
  /** One line per step, for the derivation drawer. */
  derivation: z.array(z.string()),
});
export type TJudgement = z.infer<typeof ZJudgement>;

// ---- Studies ----

export const ZStudyOrigin = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('qualificationTask'), id: ZId }),
  z.object({ kind: z.literal('changeAssessment'), id: ZId }),
]);
export type TStudyOrigin = z.infer<typeof ZStudyOrigin>;

export const ZStudyCreate = z
  .object({
    title: z.string().trim().min(1, 'A title is required').max(200),
    studyType: ZStudyType,
    /** An Approved protocol: the study pins its version in force now. */
    protocolId: ZId,
    origin: ZStudyOrigin.default({ kind: 'none' }),
    description: z.string().trim().max(5000).default(''),
  })
  .strict();
export type TStudyCreate = z.infer<typeof ZStudyCreate>;

export const ZStudyEdit = z
  .object({
    title: z.string().trim().min(1, 'A title is required').max(200).optional(),
    description: z.string().trim().max(5000).optional(),
    reason: ZReason,
    version: ZVersion,
  })
  .strict();

/** Closing a study that has not validated makes it Failed (spec §4); the reason is kept. */
export const ZStudyClose = z.object({ reason: ZReason, version: ZVersion }).strict();

export const ZStudyListQuery = ZListQuery.extend({
  outcome: ZStudyOutcome.optional(),
  studyType: ZStudyType.optional(),
  /**
   * Only the Validated studies past their periodic verification: the latest study of some
   * equipment, closed more than PERIODIC_VERIFICATION_DAYS ago (the dashboard's Overdue).
   */
  overdue: z.stringbool().optional(),
});

export const ZStudy = z.object({
  id: z.number().int(),
  /** ST-0001 per facility. */
  number: z.string(),
  title: z.string(),
  studyType: ZStudyType,
  description: z.string(),
  protocolId: z.number().int(),
  protocolVersionNumber: z.number().int(),
  protocolName: z.string(),
  /** The approved limits snapshot every result of the study is judged against. */
  limitsSnapshotId: z.number().int().nullable(),
  /** The snapshot as people name it: the approval it was taken at. */
  limitsSnapshotName: z.string().nullable(),
  origin: z.object({
    kind: z.enum(['none', 'qualificationTask', 'changeAssessment']),
    id: z.number().int().nullable(),
    label: z.string().nullable(),
  }),
  outcome: ZStudyOutcome,
  requiredPasses: z.number().int(),
  consecutivePasses: z.number().int(),
  /**
   * What a completed failed run does, fixed when the study started: the pinned protocol's
   * choice, else by study type; studies started before the choice existed keep 'resetCount'.
   */
  failedRunPolicy: z.enum(['failStudy', 'resetCount']),
  runCount: z.number().int(),
  closedAt: z.string().nullable(),
  closeReason: z.string().nullable(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  controlled: ZControlledState,
});
export type TStudy = z.infer<typeof ZStudy>;

// ---- Runs ----

export const ZCleaningEvent = z.object({
  startedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  endedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  operatorIds: z.array(ZId).max(50).optional(),
  cleaningProcedureId: ZId.nullable().optional(),
  agentLot: z.string().trim().max(100).nullable().optional(),
  /**
   * The batch of the product made on the equipment before this cleaning (the batch whose
   * residue the run verifies is removed); not a sample's own number (a result's batchNumber).
   */
  productBatch: z.string().trim().max(100).nullable().optional(),
  /** Hours actually reached between the end of production and the start of cleaning. */
  dirtyHoldHours: z.number().min(0).max(100_000).nullable().optional(),
  /** Hours actually reached between the end of cleaning and the next use (or the sampling). */
  cleanHoldHours: z.number().min(0).max(100_000).nullable().optional(),
  /** The inspection record's result and notes (read only: POST {F}/runs/{id}/inspection). */
  visualResult: ZVisualResult.nullable().optional(),
  visualNotes: z.string().trim().max(2000).nullable().optional(),
});
export type TCleaningEvent = z.infer<typeof ZCleaningEvent>;

export const ZRunCreate = z.object({ reason: ZReason.optional() }).strict();
/** The visual inspection is its own record (run-inspection.schemas.ts), not an event field. */
export const ZRunEdit = ZCleaningEvent.omit({ visualResult: true, visualNotes: true })
  .extend({ reason: ZReason, version: ZVersion })
  .strict();

export const ZSampleResultInput = z
  .object({
    /** The client's key for this row; SampleChangesError names its problems by it. */
    key: z.string().trim().min(1).max(64),
    samplingLocationId: ZId,
    sampleType: ZSampleType,
    analyticalMethodId: ZId,
    batchNumber: z.string().trim().min(1).max(100).nullable().optional(),
    censoring: ZCensoring,
    /** The reported number: the value, or the LOD/LOQ/upper limit it is censored at. */
    rawValue: z.number().min(0).max(1e12),
    unit: ZResultUnit,
    /** A retest (same sample, analysed again) or re-swab (a new sample) of an earlier result. */
    repeats: z
      .object({ resultId: ZId, kind: z.enum(['retest', 'reswab']), reason: ZReason })
      .optional(),
    takenAt: z.iso.datetime({ offset: true }).nullable().optional(),
    /** When and by whom the laboratory analysed it (21 CFR 211.194(a)(7), (8)). */
    analysedAt: z.iso.datetime({ offset: true }).nullable().optional(),
    analyst: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .strict();
export type TSampleResultInput = z.infer<typeof ZSampleResultInput>;

export const ZResultsBody = z
  .object({ results: z.array(ZSampleResultInput).min(1).max(500) })
  .strict();

/** A correction of an entered result: what changes, why, from which version. */
export const ZResultEdit = z
  .object({
    censoring: ZCensoring.optional(),
    rawValue: z.number().min(0).max(1e12).optional(),
    unit: ZResultUnit.optional(),
    batchNumber: z.string().trim().min(1).max(100).nullable().optional(),
    reason: ZReason,
    version: ZVersion,
  })
  .strict();

export const ZSampleResult = z.object({
  id: z.number().int(),
  runId: z.number().int(),
  samplingLocationId: z.number().int(),
  samplingLocationName: z.string(),
  equipmentId: z.number().int(),
  equipmentName: z.string(),
  riskScore: z.number().nullable(),
  sampleType: ZSampleType,
  analyticalMethodId: z.number().int(),
  analyticalMethodName: z.string(),
  /** The method's kept record version the result was judged with. */
  analyticalMethodVersion: z.number().int(),
  batchNumber: z.string().nullable(),
  censoring: ZCensoring,
  rawValue: z.number(),
  unit: ZResultUnit,
  judgement: ZJudgement,
  repeats: z
    .object({ resultId: z.number().int(), kind: z.enum(['retest', 'reswab']), reason: z.string() })
    .nullable(),
  /** Superseded by a retest or re-swab: kept, shown, not counted. */
  supersededBy: z.number().int().nullable(),
  /**
   * Invalidated by a laboratory investigation QA approved with an assignable cause: kept in the
   * run, the report and the statistics (counted apart), never counted as a result.
   */
  invalidatedBy: z.object({ investigationId: z.number().int(), number: z.string() }).nullable(),
  takenAt: z.string().nullable(),
  analysedAt: z.string().nullable(),
  analyst: z.string().nullable(),
  enteredAt: z.string(),
  enteredByName: z.string().nullable(),
  version: z.number().int(),
});
export type TSampleResult = z.infer<typeof ZSampleResult>;

// ---- Deviations ----

export const DEVIATION_KINDS = ['process', 'nonProcess'] as const;
export const DEVIATION_KIND_LABELS = {
  process: 'Process',
  nonProcess: 'Non-process (laboratory)',
} as const;
export const DEVIATION_STATUSES = ['Open', 'Closed'] as const;

export const ZDeviationCreate = z
  .object({
    kind: z.enum(DEVIATION_KINDS),
    /** On a result of the run, or on the run as a whole. */
    resultId: ZId.nullable().optional(),
    /** The planned sampling location it is about: it may explain a missing result there. */
    samplingLocationId: ZId.nullable().optional(),
    title: z.string().trim().min(1, 'A title is required').max(200),
    description: z.string().trim().max(5000).default(''),
    rootCause: z.string().trim().max(5000).nullable().optional(),
    /** What the investigation concluded, which QA approves when it signs the closure. */
    conclusion: z.string().trim().max(5000).nullable().optional(),
    capaReference: z.string().trim().max(100).nullable().optional(),
    /** A non-process deviation may invalidate the run: it then needs a repeat, without a reset. */
    invalidatesRun: z.boolean().default(false),
  })
  .strict();

export const ZDeviationEdit = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).optional(),
    rootCause: z.string().trim().max(5000).nullable().optional(),
    conclusion: z.string().trim().max(5000).nullable().optional(),
    capaReference: z.string().trim().max(100).nullable().optional(),
    invalidatesRun: z.boolean().optional(),
    /**
     * 'Open' reopens a closed deviation. 'Closed' is refused: a deviation closes only when QA
     * signs "Approve closure" (POST signatures, documentType Deviation).
     */
    status: z.enum(DEVIATION_STATUSES).optional(),
    reason: ZReason,
    version: ZVersion,
  })
  .strict();

export const ZDeviation = z.object({
  id: z.number().int(),
  /** DEV-0001 per facility. */
  number: z.string(),
  runId: z.number().int(),
  resultId: z.number().int().nullable(),
  samplingLocationId: z.number().int().nullable(),
  kind: z.enum(DEVIATION_KINDS),
  title: z.string(),
  description: z.string(),
  rootCause: z.string().nullable(),
  conclusion: z.string().nullable(),
  capaReference: z.string().nullable(),
  invalidatesRun: z.boolean(),
  /** Closed only by QA's "Approve closure" signature; Open until then. */
  status: z.enum(DEVIATION_STATUSES),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Who approved the closure (QA), when closed by a signature. */
  closedByName: z.string().nullable(),
  /** Its record as a controlled document: BeingApproved while its closure awaits QA approval. */
  controlled: ZControlledState,
  version: z.number().int(),
});
export type TDeviation = z.infer<typeof ZDeviation>;

// ---- Run read ----

export const ZRun = z.object({
  id: z.number().int(),
  studyId: z.number().int(),
  studyNumber: z.string(),
  /** 1, 2, 3 … within the study. */
  sequence: z.number().int(),
  status: ZRunStatus,
  event: ZCleaningEvent,
  /** Pass (all results in and passing, visual passed), Fail, Invalidated or Pending. */
  verdict: z.enum(['Pass', 'Fail', 'Invalidated', 'Pending']),
  releaseFlag: ZReleaseFlag,
  /** Why the flag is what it is, one line per reason. */
  releaseReasons: z.array(z.string()),
  /** Hold-time maxima: the protocol's, else the pinned cleaning inspection settings'. */
  dirtyHoldMaxHours: z.number().nullable(),
  cleanHoldMaxHours: z.number().nullable(),
  dirtyHoldMaxSource: z.enum(['protocol', 'inspection settings']).nullable(),
  cleanHoldMaxSource: z.enum(['protocol', 'inspection settings']).nullable(),
  /** The visual inspection: the settings pinned at the start and the inspection record. */
  inspection: ZRunInspection,
  /** The sampling plan: one row per planned location, with its result when entered. */
  plan: z.array(
    z.object({
      samplingLocationId: z.number().int(),
      samplingLocationName: z.string(),
      equipmentName: z.string(),
      riskScore: z.number().nullable(),
      sampleType: ZSampleType,
      analyticalMethodId: z.number().int(),
      analyticalMethodName: z.string(),
      /** The limit this location's result is judged against, in `limitUnit`. */
      limit: z.number().nullable(),
      limitUnit: ZResultUnit,
      /** The recovery and LOQ (in `limitUnit`) a result here is judged with. */
      recovery: z.number(),
      recoverySource: z.string(),
      loq: z.number().nullable(),
      lod: z.number().nullable(),
      /** Why the method's stated LOQ or LOD cannot be expressed in `limitUnit`; null when it can. */
      detectionUnconvertible: z.string().nullable(),
      /** Why the method cannot show this location's limit (issue 26); null when it can. */
      methodCannotShowLimit: z.string().nullable(),
      /** How the limit comes from the study's limits snapshot, for the derivation drawer. */
      limitDerivation: z.array(z.string()),
    }),
  ),
  results: z.array(ZSampleResult),
  deviations: z.array(ZDeviation),
  /** Laboratory investigations of the run's out-of-specification results. */
  investigations: z.array(ZInvestigation),
  /** The study is closed: its outcome is final and the run can no longer change (409). */
  studyClosed: z.boolean(),
  controlled: ZControlledState,
  version: z.number().int(),
});
export type TRun = z.infer<typeof ZRun>;

/** What the run calls answer: the whole run; a study's runs as its list shows them. */
export const ZRunResponse = z.object({ run: ZRun });
export const ZRunSummary = z.object({
  id: z.number().int(),
  sequence: z.number().int(),
  status: ZRunStatus,
  verdict: ZRun.shape.verdict,
  releaseFlag: ZReleaseFlag,
  version: z.number().int(),
});
export type TRunSummary = z.infer<typeof ZRunSummary>;
export const ZRunList = z.object({ runs: z.array(ZRunSummary) });
export type TRunResponse = z.infer<typeof ZRunResponse>;
export type TRunList = z.infer<typeof ZRunList>;

// ---- Ongoing verification ----

export const STATISTICS_GROUPS = ['equipment', 'production', 'residueType', 'location'] as const;
/** The residue types results count under: the limit policies' and 'Microbial' (microbial results). */
export const STATISTICS_RESIDUE_TYPES = [...RESIDUE_TYPES, 'Microbial'] as const;
export const ZStatisticsQuery = z.object({
  groupBy: z.enum(STATISTICS_GROUPS).default('equipment'),
  /** The group's id (equipment, production, location) or residue type name. */
  key: z.string().trim().min(1).max(100),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

export const ZStatisticsPoint = z.object({
  resultId: z.number().int().nullable(),
  /** Historical study results are drawn too when the study is marked to count. */
  historical: z.boolean(),
  takenAt: z.string(),
  label: z.string(),
  percentOfLimit: z.number(),
  censoredBelow: z.boolean(),
  /** A `> upper limit` result: the value lies above percentOfLimit (right-censored). */
  censoredAbove: z.boolean(),
  movingRange: z.number().nullable(),
  ewma: z.number(),
  /**
   * Rules this point breaks: 'aboveAlert', 'aboveAction', 'aboveUcl', 'ewmaTrend', and for a
   * censored point only 'censoredAboveLimit' (its bound is at or above 100 %).
   */
  alerts: z.array(z.string()),
});

export const ZStatistics = z.object({
  groupBy: z.enum(STATISTICS_GROUPS),
  key: z.string(),
  label: z.string(),
  count: z.number().int(),
  /** Results below LOD / LOQ (left-censored). */
  censoredCount: z.number().int(),
  /** Results `> upper limit` (right-censored). */
  censoredAboveCount: z.number().int(),
  points: z.array(ZStatisticsPoint),
  /** Individuals chart: centre line and limits on percent of limit. */
  mean: z.number().nullable(),
  ucl: z.number().nullable(),
  mrBar: z.number().nullable(),
  ewmaLambda: z.number(),
  ewmaUcl: z.number().nullable(),
  /** One-sided capability against 100 % of limit, with its lower 95 % confidence bound. */
  ppu: z.number().nullable(),
  ppuLower95: z.number().nullable(),
  ppuTarget: z.number(),
  /**
   * How Ppu and its bound were estimated: 'Normal, Bissell lower bound' without censored results,
   * else 'Censored-data maximum likelihood (normal|lognormal), N of M censored'.
   */
  ppuMethod: z.string().nullable(),
  /**
   * With censored results, the former figure for comparison (labelled
   * PPU_SUBSTITUTION_LABEL): censored values at half their bound, `> upper limit` at its bound,
   * Bissell's bound; null when half or more are below LOQ.
   */
  ppuSubstitution: z.number().nullable(),
  ppuSubstitutionLower95: z.number().nullable(),
  /**
   * The censored-data fit Ppu comes from: μ and σ on percent of limit (normal) or on its natural
   * log (lognormal), its log-likelihood and that of the other distribution.
   */
  censoredFit: z
    .object({
      distribution: z.enum(['normal', 'lognormal']),
      mu: z.number(),
      sigma: z.number(),
      logLikelihood: z.number(),
      otherLogLikelihood: z.number().nullable(),
    })
    .nullable(),
  /**
   * Why there is no index: "All N results below LOQ, at most X % of limit", all censored, fewer
   * than 2 different exact values among censored ones, one result, no spread. Null with an index.
   */
  statement: z.string().nullable(),
  alerts: z.array(z.object({ kind: z.string(), message: z.string(), takenAt: z.string() })),
});
export type TStatistics = z.infer<typeof ZStatistics>;
export const PPU_SUBSTITUTION_LABEL = 'Half-bound substitution (for comparison)';

/** The facility rule VerificationSettings: the thresholds of the statistics. */
export const ZVerificationSettingsFields = z.object({
  /** Ppu the lower 95 % bound should reach. */
  ppuTarget: z.number().positive().max(100),
  alertPercent: z.number().positive().max(1000),
  actionPercent: z.number().positive().max(1000),
  /** EWMA weight of the newest result, 0 < λ ≤ 1. */
  ewmaLambda: z.number().positive().max(1),
});
/**
 * The facility's out-of-specification rule (FDA OOS guidance): whether a result above the action
 * level is set aside only by an investigation as a failing one is, how many retests one result
 * may have, and whether a retest must be entered by another analyst than the original.
 */
export const ZOosRuleFields = z.object({
  investigateAboveAction: z.boolean(),
  maxRetests: z.number().int().min(1).max(10),
  retestByOtherAnalyst: z.boolean(),
});
export const ZVerificationSettingsBody = ZVerificationSettingsFields.extend({
  ...ZOosRuleFields.partial().shape,
  reason: ZReason,
  version: ZVersion.optional(),
});
export const ZVerificationSettings = ZVerificationSettingsFields.extend({
  ...ZOosRuleFields.shape,
  version: z.number().int(),
  updatedAt: z.string().nullable(),
});
export const ZVerificationSettingsResponse = z.object({ settings: ZVerificationSettings });
export type TVerificationSettings = z.infer<typeof ZVerificationSettings>;

/** A result an approved investigation invalidated: shown apart, not in the mean or Ppu. */
export const ZInvalidatedPoint = z.object({
  resultId: z.number().int(),
  investigationId: z.number().int(),
  takenAt: z.string(),
  label: z.string(),
  percentOfLimit: z.number(),
});
/**
 * The points as the statistics route sends them: one array per field, the same order, oldest
 * first (5,000 points as objects were 1.3 MB; as columns about 35 bytes each). What the client
 * can compute again exactly is not sent: `historical` is a point without a result id, the moving
 * range and the EWMA follow from the values, the mean and λ (`pointSeries`). Decoded by
 * `statisticsFromWire` (core/verification/statistics-columns.ts) into TStatistics's points.
 */
export const ZStatisticsPointColumns = z.object({
  /** Each result id less the one before it (the first: less 0); null for a historical result. */
  resultIdStep: z.array(z.number().int().nullable()),
  /** Milliseconds since the point before (the first: since 1970-01-01T00:00:00Z). */
  takenAtStep: z.array(z.number().int()),
  /** Each label as its part before the first ' · ' and the rest: indexes into labelParts. */
  labelHead: z.array(z.number().int()),
  /** -1 when the label has no ' · '. */
  labelTail: z.array(z.number().int()),
  labelParts: z.array(z.string()),
  percentOfLimit: z.array(z.number()),
  /** Indexes of the points censored below LOD / LOQ, and of the `> upper limit` ones. */
  censoredBelow: z.array(z.number().int()),
  censoredAbove: z.array(z.number().int()),
  /**
   * The points that break a rule, by index, each with an index into alertRules: the rules it
   * breaks (ZStatisticsPoint.alerts), one entry for each set that occurs.
   */
  alertPoint: z.array(z.number().int()),
  alertRuleSet: z.array(z.number().int()),
  alertRules: z.array(z.array(z.string())),
});
export type TStatisticsPointColumns = z.infer<typeof ZStatisticsPointColumns>;

const ZStatisticsWire = ZStatistics.omit({ alerts: true }).extend({
  points: ZStatisticsPointColumns,
  /**
   * The alert and action levels the points were judged by: the alerts' messages are worded from
   * them and each point's rules (`seriesAlerts`, core/verification/statistics-alerts.ts), not
   * sent (774 alerts of 5,000 points were 110 KiB).
   */
  alertPercent: z.number(),
  actionPercent: z.number(),
  invalidatedCount: z.number().int(),
  invalidated: z.array(ZInvalidatedPoint),
});
export type TStatisticsWire = z.infer<typeof ZStatisticsWire>;

export const ZStatisticsResponse = z.object({ statistics: ZStatisticsWire });
export type TStatisticsResponse = z.infer<typeof ZStatisticsResponse>;

// ---- Microbial results (judged against the facility's microbial limit policy) ----

/**
 * What a microbial result counts: colonies on a contact plate or a swab (per plate / per swab,
 * as the policy states its surface limits), colonies per ml of the final rinse, or bacterial
 * endotoxin per ml of the final rinse.
 */
export const MICROBIAL_KINDS = ['contactPlate', 'swab', 'rinse', 'endotoxin'] as const;
export const ZMicrobialKind = z.enum(MICROBIAL_KINDS);
export type TMicrobialKind = z.infer<typeof ZMicrobialKind>;
export const MICROBIAL_KIND_LABELS: Record<TMicrobialKind, string> = {
  contactPlate: 'Contact plate',
  swab: 'Surface swab',
  rinse: 'Rinse (bioburden)',
  endotoxin: 'Endotoxin',
};
/** The unit each kind is reported and limited in (the policy's units). */
export const MICROBIAL_UNITS: Record<TMicrobialKind, string> = {
  contactPlate: 'CFU/plate',
  swab: 'CFU/swab',
  rinse: 'CFU/ml',
  endotoxin: 'EU/ml',
};

/** '=': the count; '< LOD': nothing detected (no growth); '> upper limit': too many to count. */
export const MICROBIAL_CENSORING = ['=', '< LOD', '> upper limit'] as const;
export const ZMicrobialCensoring = z.enum(MICROBIAL_CENSORING);
export type TMicrobialCensoring = z.infer<typeof ZMicrobialCensoring>;

export const MICROBIAL_JUDGEMENTS = ['Pass', 'Alert', 'Fail'] as const;
export type TMicrobialJudgementLevel = (typeof MICROBIAL_JUDGEMENTS)[number];

/** The server's judgement of a microbial result (core/verification/judge-microbial.ts). */
export const ZMicrobialJudgement = z.object({
  /** The limit (action level) in the kind's unit. */
  limit: z.number(),
  unit: z.string(),
  /** Where the limit came from: 'Grade B contact plate', 'Ungraded swab', 'Final rinse' … */
  limitSource: z.string(),
  alertLevelPercentage: z.number(),
  /** value / limit × 100 (a censored result: its bound's); null when the limit is 0 and the value not. */
  percentOfLimit: z.number().nullable(),
  censoredBelow: z.boolean(),
  judgement: z.enum(MICROBIAL_JUDGEMENTS),
  derivation: z.array(z.string()),
});
export type TMicrobialJudgement = z.infer<typeof ZMicrobialJudgement>;

export const ZMicrobialResultInput = z
  .object({
    key: z.string().trim().min(1).max(64),
    /** A location of the run's plan; null = the final rinse (rinse or endotoxin only). */
    samplingLocationId: ZId.nullable(),
    kind: ZMicrobialKind,
    /** A live microbial analytical method of the facility, when given. */
    microbialMethodId: ZId.nullable().optional(),
    censoring: ZMicrobialCensoring,
    /** The count (or the LOD / upper counting limit it is censored at), in the kind's unit. */
    rawValue: z.number().min(0).max(1e9),
    /** When the plate was read (after incubation). */
    readAt: z.iso.datetime({ offset: true }).nullable().optional(),
    repeats: z
      .object({ resultId: ZId, kind: z.enum(['retest', 'reswab']), reason: ZReason })
      .optional(),
  })
  .strict();
export type TMicrobialResultInput = z.infer<typeof ZMicrobialResultInput>;

export const ZMicrobialResultsBody = z
  .object({ results: z.array(ZMicrobialResultInput).min(1).max(200) })
  .strict();

/** A correction of a microbial result: what changes, why, from which version. */
export const ZMicrobialResultEdit = z
  .object({
    censoring: ZMicrobialCensoring.optional(),
    rawValue: z.number().min(0).max(1e9).optional(),
    readAt: z.iso.datetime({ offset: true }).nullable().optional(),
    reason: ZReason,
    version: ZVersion,
  })
  .strict();

export const ZMicrobialResult = z.object({
  id: z.number().int(),
  runId: z.number().int(),
  samplingLocationId: z.number().int().nullable(),
  /** The location's name, or 'Final rinse'. */
  samplingLocationName: z.string(),
  equipmentId: z.number().int().nullable(),
  equipmentName: z.string().nullable(),
  /** The equipment's room grade the surface limit was taken from (null: ungraded or a rinse). */
  roomGrade: z.string().nullable(),
  kind: ZMicrobialKind,
  microbialMethodId: z.number().int().nullable(),
  microbialMethodName: z.string().nullable(),
  censoring: ZMicrobialCensoring,
  rawValue: z.number(),
  unit: z.string(),
  judgement: ZMicrobialJudgement,
  repeats: z
    .object({ resultId: z.number().int(), kind: z.enum(['retest', 'reswab']), reason: z.string() })
    .nullable(),
  supersededBy: z.number().int().nullable(),
  /** The investigation (approved, assignable laboratory cause) that invalidated it, if any. */
  invalidatedBy: z.object({ investigationId: z.number().int(), number: z.string() }).nullable(),
  readAt: z.string().nullable(),
  enteredAt: z.string(),
  enteredByName: z.string().nullable(),
  version: z.number().int(),
});
export type TMicrobialResult = z.infer<typeof ZMicrobialResult>;

/** The microbial side of a run: the policy it is judged against and what the protocol plans. */
export const ZRunMicrobial = z.object({
  /** The microbial policy version pinned at run start; null until pinned (then: the one in force). */
  pinnedVersionNumber: z.number().int().nullable(),
  policy: z.object({
    versionNumber: z.number().int(),
    useMicrobialLimits: z.boolean(),
    useEndotoxinLimit: z.boolean(),
    alertLevelPercentage: z.number(),
  }),
  /** The protocol's microbial sampling, with each row's limit (room grade of its equipment). */
  plan: z.array(
    z.object({
      samplingLocationId: z.number().int().nullable(),
      samplingLocationName: z.string(),
      kind: ZMicrobialKind,
      microbialMethodId: z.number().int().nullable(),
      limit: z.number().nullable(),
      unit: z.string(),
      limitSource: z.string(),
    }),
  ),
  /** Every location a microbial result may be taken at (the run plan's), with its limits by kind. */
  locations: z.array(
    z.object({
      samplingLocationId: z.number().int().nullable(),
      samplingLocationName: z.string(),
      roomGrade: z.string().nullable(),
      /** The limit of each kind here (the final rinse: rinse and endotoxin), for the preview. */
      limits: z.array(
        z.object({
          kind: ZMicrobialKind,
          limit: z.number(),
          unit: z.string(),
          limitSource: z.string(),
        }),
      ),
    }),
  ),
  results: z.array(ZMicrobialResult),
});
export type TRunMicrobial = z.infer<typeof ZRunMicrobial>;
export const ZRunMicrobialResponse = z.object({ microbial: ZRunMicrobial });
