import { z } from 'zod';
import { POD_TYPES } from '../hbel/monograph-pde.ts';
import { isUnit, kindOf, type UnitKind } from '../units/units.ts';
import { ZId, ZReason, ZVersion } from './common.schemas.ts';
import { requireSignerProof, ZSsoProof } from './signer.schemas.ts';
import { ZRecordStatus, ZSignatureState } from './signatures.schemas.ts';

/*
 * The plan's HBEL library (issue 32): monographs of health-based exposure limits as the EMA
 * guideline (EMA/CHMP/CVMP/SWP/169430/2012) derives them, read plan-wide under
 * `/api/v2/plans/{plan}/hbel-library`, and the link of a facility's active to one.
 */

const unitOf = (kind: UnitKind, words: string) =>
  z
    .string()
    .trim()
    .refine((u) => isUnit(u) && kindOf(u) === kind, { message: `must be a unit of ${words}` });

const positive = z.number().positive().finite();
const factor = positive.max(1_000_000);
/** A bioavailability: a fraction above 0 and at most 1. */
const fraction = z.number().gt(0).max(1);

export const ZPodType = z.enum(POD_TYPES);

export const ZPointOfDeparture = z.object({
  type: ZPodType,
  value: positive,
  /** Per kg body weight per day (toxicity units of core/units: mg/kg, g/kg). */
  unit: unitOf('toxicity', 'dose per body weight (mg/kg)'),
  species: z.string().trim().min(1).max(100),
  route: z.string().trim().min(1).max(100),
  studyReference: z.string().trim().min(1).max(1000),
  /** The study report, an attachment of the plan's records (attachments). */
  attachmentId: ZId.nullable().default(null),
});

/** OEL units: airborne concentration (no such kind in core/units; kept with its unit). */
export const OEL_UNITS = ['ug/m3', 'mg/m3'] as const;

export const ZHbelMonographContent = z
  .object({
    substance: z.string().trim().min(1).max(200),
    casNumber: z.string().trim().max(30).nullable().default(null),
    pointOfDeparture: ZPointOfDeparture,
    factors: z.object({ f1: factor, f2: factor, f3: factor, f4: factor, f5: factor }),
    modifyingFactor: factor.default(1),
    pkFactor: factor.default(1),
    bodyWeight: z
      .object({ value: positive, unit: unitOf('mass', 'mass (kg)') })
      .default({ value: 50, unit: 'kg' }),
    /** Route-to-route correction (PDE × from / to), null when the study route is the patient's. */
    bioavailability: z.object({ from: fraction, to: fraction }).nullable().default(null),
    oel: z
      .object({ value: positive, unit: z.enum(OEL_UNITS) })
      .nullable()
      .default(null),
    ade: z
      .object({ value: positive, unit: unitOf('mass', 'mass per day (mg)') })
      .nullable()
      .default(null),
    rationale: z.string().trim().max(5000).default(''),
  })
  .strict();
export type THbelMonographContent = z.output<typeof ZHbelMonographContent>;
export type THbelMonographInput = z.input<typeof ZHbelMonographContent>;

export const ZCreateHbelMonograph = ZHbelMonographContent.extend({
  /** The facility of the plan whose approval policy (its toxicologist step) signs the monograph. */
  signingFacilityId: ZId,
}).strict();

export const ZNewHbelVersion = ZHbelMonographContent.extend({
  version: ZVersion,
  reason: ZReason,
}).strict();

export const ZHbelParams = z.object({ plan: ZId, id: ZId });

const ZMgPerDay = z.object({ value: z.number(), unit: z.literal('mg') });

export const ZDerivation = z.object({
  quantity: z.string(),
  formula: z.string(),
  reference: z.string(),
  inputs: z.array(
    z.object({
      symbol: z.string(),
      name: z.string(),
      given: z.object({ value: z.number(), unit: z.string() }),
      value: z.number(),
      unit: z.string(),
      source: z.string(),
    }),
  ),
  steps: z.array(
    z.object({
      symbol: z.string(),
      expression: z.string(),
      value: z.number().nullable(),
      unit: z.string(),
    }),
  ),
  result: z.object({ value: z.number(), unit: z.string() }).nullable(),
  note: z.string().optional(),
});

/** A version of a monograph as its signers saw it, with the PDE computed from it. */
export const ZHbelVersion = z.object({
  versionNumber: z.number().int(),
  status: ZRecordStatus,
  signatureState: ZSignatureState.nullable(),
  approvedAt: z.string().nullable(),
  monograph: ZHbelMonographContent,
  pde: ZMgPerDay.nullable(),
  derivation: ZDerivation,
});
export type THbelVersion = z.infer<typeof ZHbelVersion>;

export const ZHbelMonograph = z.object({
  id: z.number().int(),
  /** HBEL-0001: how the library names it. */
  number: z.string(),
  planId: z.number().int(),
  signingFacilityId: z.number().int(),
  substance: z.string(),
  /** The version in force (approved), or null before any approval. */
  inForce: ZHbelVersion.nullable(),
  /** The latest version (being built, reviewed or approved). */
  draft: ZHbelVersion,
  status: ZRecordStatus,
  signatureState: ZSignatureState.nullable(),
  versionNumber: z.number().int(),
  inForceVersionNumber: z.number().int().nullable(),
  draftVersionNumber: z.number().int().nullable(),
  version: z.number().int(),
});
export type THbelMonograph = z.infer<typeof ZHbelMonograph>;

export const ZHbelLibrary = z.object({ items: z.array(ZHbelMonograph), count: z.number().int() });

export const ZHbelVersions = z.object({ versions: z.array(ZHbelVersion) });

export const ZHbelWhereUsed = z.object({
  usedBy: z.array(
    z.object({
      facilityId: z.number().int(),
      facilityName: z.string(),
      activeId: z.number().int(),
      activeName: z.string(),
      versionNumber: z.number().int(),
      override: z.object({ value: z.number(), unit: z.string() }).nullable(),
    }),
  ),
});

/**
 * `PUT {F}/apis/{id}/hbel-link`: link the active to a library entry (its approved version), and
 * optionally override the PDE at this site, only with a justification the signer signs (their
 * password or single sign-on proof, 21 CFR 11.200(a)). `monographId: null` unlinks.
 */
export const ZHbelLinkRequest = z
  .object({
    monographId: ZId.nullable(),
    pdeOverride: z
      .object({ value: positive, unit: unitOf('mass', 'mass per day (mg)') })
      .nullable()
      .default(null),
    justification: z.string().trim().max(5000).nullable().default(null),
    /** An override is signed: the signer's own password, or a single sign-on proof. */
    password: z.string().max(1000).optional(),
    ssoProof: ZSsoProof.optional(),
    version: ZVersion,
    reason: ZReason,
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.pdeOverride)
      requireSignerProof('Please enter your password to sign the override')(body, ctx);
    if (body.pdeOverride && !body.justification)
      ctx.addIssue({
        code: 'custom',
        path: ['justification'],
        message: 'A site override of the PDE needs a justification',
      });
    if (!body.monographId && body.pdeOverride)
      ctx.addIssue({
        code: 'custom',
        path: ['pdeOverride'],
        message: 'Only an active linked to a library entry takes an override',
      });
  });
export type THbelLinkRequest = z.output<typeof ZHbelLinkRequest>;

/** Where an active's PDE comes from, shown on the active's read. */
export const ZHbelLineage = z.object({
  monographId: z.number().int(),
  number: z.string(),
  substance: z.string(),
  versionNumber: z.number().int(),
  libraryPde: ZMgPerDay.nullable(),
  override: z.object({ value: z.number(), unit: z.string() }).nullable(),
  justification: z.string().nullable(),
  /** The PDE the limits use: the override where given, else the library's. */
  pde: z.object({ value: z.number(), unit: z.string() }).nullable(),
  /** The override's electronic signature: who signed it and when (null without an override). */
  overrideSignature: z
    .object({
      id: z.number().int(),
      signedBy: z.string(),
      signedAt: z.string(),
      meaning: z.string(),
    })
    .nullable(),
  /**
   * The site override signed against an earlier version of the entry, ended when a later
   * version reached the site (the site signs again against the new PDE); null when none ended.
   */
  endedOverride: z
    .object({
      pde: z.object({ value: z.number(), unit: z.string() }),
      justification: z.string(),
      /** The entry's version the override was signed against. */
      versionNumber: z.number().int(),
      signedBy: z.string().nullable(),
    })
    .nullable(),
});
export type THbelLineage = z.infer<typeof ZHbelLineage>;

export const ZActiveHbelLink = z.object({
  activeId: z.number().int(),
  version: z.number().int(),
  lineage: ZHbelLineage.nullable(),
});

/**
 * A change assessment's staged change that moves a linked active to a new approved version of
 * its library entry (entity `hbelLink`, recordId the active): opened in each facility that uses
 * the entry when the version is approved, applied only when the assessment is.
 */
export const HBEL_LINK_TARGET = 'hbelLink';
export const ZHbelRelinkValues = z
  .object({ monographId: ZId, versionNumber: z.number().int().positive() })
  .strict();
