import { z } from 'zod';
import { ZReason } from './common.schemas.ts';
import { requireSignerProof, ZSsoProof } from './signer.schemas.ts';

/*
 * Controlled records, approval policies and electronic signatures, exactly as
 * shared/contracts/signatures-api.md gives them.
 */

export const CONTROLLED_DOCUMENT_TYPES = [
  'CleaningLimitPolicy',
  'CleaningInspectionSettings',
  'SOP',
  'DocumentVersion',
  'ChangeAssessment',
  'CleaningAssessment',
  'Protocol',
  'Study',
  'Run',
  'ReportDocument',
  'AnnualSummary',
  'Investigation',
  'Deviation',
  'HbelMonograph',
  'MacFormula',
  'EquipmentTrain',
] as const;
export const ZControlledDocumentType = z.enum(CONTROLLED_DOCUMENT_TYPES);
export type TControlledDocumentType = z.infer<typeof ZControlledDocumentType>;
export const isControlledDocumentType = (type: string): type is TControlledDocumentType =>
  (CONTROLLED_DOCUMENT_TYPES as readonly string[]).includes(type);

/**
 * What a signature may sign: a controlled record's version, or a one-time signed act that has no
 * versions or approval steps of its own, kept in the same signatures (issue 31): the release of
 * an item of equipment after its cleaning, whose `documentId` is the item and whose
 * `versionNumber` counts its releases; the site override of a linked active's PDE (issue 32),
 * whose `documentId` is the active and whose `versionNumber` counts its overrides; a site's choice
 * of another worst-case product for an equipment train (`TrainWorstProductOverride`, `documentId`
 * the train) or an item of equipment (`documentId` the item), `versionNumber` counting the
 * target's overrides (issue 32). `WorstProductOverride` holds the overrides signed while they were
 * keyed by the production (`documentId` the production): a signature's type and id are part of
 * what it signed, so those keep theirs, and the train's get a type of their own so that a train
 * whose id is an old production's never shares its signatures or its count (21 CFR 11.70).
 */
export const SIGNED_DOCUMENT_TYPES = [
  ...CONTROLLED_DOCUMENT_TYPES,
  'EquipmentRelease',
  'HbelOverride',
  'WorstProductOverride',
  'TrainWorstProductOverride',
  'EquipmentWiseWorstProduct',
] as const;
export const ZSignedDocumentType = z.enum(SIGNED_DOCUMENT_TYPES);
export type TSignedDocumentType = z.infer<typeof ZSignedDocumentType>;

export const RECORD_STATUSES = [
  'BeingBuilt',
  'BeingReviewed',
  'BeingApproved',
  'Approved',
  'Deprecated',
  // Never stored: how a read shows a version in force whose content no longer matches what was
  // approved (server/records/record-integrity.ts), instead of Approved.
  'IntegrityBroken',
] as const;
export const ZRecordStatus = z.enum(RECORD_STATUSES);
export type TRecordStatus = z.infer<typeof ZRecordStatus>;

export const SIGNATURE_STATES = ['PendingApproval', 'Signed', 'ChangesRequested'] as const;
export const ZSignatureState = z.enum(SIGNATURE_STATES);
export type TSignatureState = z.infer<typeof ZSignatureState>;

export const SIGN_ACTIONS = ['Submit', 'Review', 'Approve', 'Reject'] as const;
export const ZSignAction = z.enum(SIGN_ACTIONS);
export type TSignAction = z.infer<typeof ZSignAction>;

export const SIGNER_ROLES = ['Submitter', 'Reviewer', 'Approver'] as const;
export const ZSignerRole = z.enum(SIGNER_ROLES);
export type TSignerRole = z.infer<typeof ZSignerRole>;

/**
 * Whether the version in force is still what was approved: 'broken' (with the reason) when its
 * content, its signatures or the record's own row were changed behind the application.
 */
export const ZIntegrity = {
  integrity: z.enum(['intact', 'broken']).optional(),
  integrityReason: z.string().nullable().optional(),
};

/** What every read of a controlled record carries besides its own fields. */
export const ZControlledState = z.object({
  status: ZRecordStatus,
  signatureState: ZSignatureState.nullable(),
  versionNumber: z.number().int().positive(),
  version: z.number().int(),
});
export type TControlledState = z.infer<typeof ZControlledState>;

export const ZApprovalStep = z.object({
  order: z.number().int().min(1).max(20),
  signerRole: z.enum(['Reviewer', 'Approver']),
  roleIds: z
    .array(z.number().int().positive())
    .max(100)
    .describe(
      'Roles whose holders may sign this step; empty means any role with ApprovalPolicy Sign',
    ),
  minSignatures: z.number().int().min(1).max(10),
});
export type TApprovalStep = z.infer<typeof ZApprovalStep>;

const ZSteps = z
  .array(ZApprovalStep)
  .min(1, 'A policy needs at least one step')
  .max(20)
  .describe('Steps run in order; the last Approver step puts the version in force');

export const ZApprovalPolicyBody = z.object({
  documentType: ZControlledDocumentType,
  steps: ZSteps,
  allowSelfApproval: z
    .boolean()
    .describe(
      'Whether one person may sign two steps of the same version (segregation of duties: false)',
    ),
  version: z.number().int().min(0),
});
export type TApprovalPolicyBody = z.infer<typeof ZApprovalPolicyBody>;

export const ZApprovalPolicyQuery = z.object({ documentType: ZControlledDocumentType });
export const ZApprovalPolicyResponse = z.object({ approvalPolicy: ZApprovalPolicyBody });
export const ZApprovalPolicyRequest = z
  .object({
    documentType: ZControlledDocumentType,
    steps: ZSteps,
    allowSelfApproval: z.boolean(),
    reason: ZReason,
    version: z.number().int().min(0),
  })
  .strict();
export type TApprovalPolicyRequest = z.infer<typeof ZApprovalPolicyRequest>;

export const DEFAULT_APPROVAL_STEPS: TApprovalStep[] = [
  { order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
];

export const ZSignRequest = z
  .object({
    documentType: ZControlledDocumentType,
    documentId: z.number().int().positive(),
    action: ZSignAction,
    password: z.string().max(200).optional(),
    /** In place of the password, for a single sign-on user: the provider's fresh proof. */
    ssoProof: ZSsoProof.optional(),
    /** The action's fixed meaning (meaningOf), which may be repeated but never replaced. */
    meaning: z.string().trim().min(1).max(200).optional(),
    reason: z.string().trim().min(1).max(2000).optional(),
  })
  .strict()
  .superRefine(requireSignerProof('Enter your password to sign'))
  .superRefine((value, ctx) => {
    const fixed = meaningOf(value.documentType, value.action);
    if (value.meaning !== undefined && value.meaning !== fixed) {
      ctx.addIssue({
        code: 'custom',
        path: ['meaning'],
        message: `A ${value.action} signature of this record means '${fixed}'`,
      });
    }
  });
export type TSignRequest = z.infer<typeof ZSignRequest>;

export const ZSignature = z.object({
  id: z
    .number()
    .int()
    .describe(
      'The signature’s id; an equipment release signed before the signatures kept releases has no row of its own and is listed with the negated id of its logbook entry',
    ),
  documentType: ZSignedDocumentType,
  documentId: z.number().int(),
  versionNumber: z.number().int(),
  action: ZSignAction,
  signerRole: ZSignerRole,
  meaning: z.string(),
  printedName: z.string(),
  userId: z.number().int(),
  signedAt: z.string().describe('The database’s UTC time, ISO 8601'),
  contentHash: z.string().describe('SHA-256 (hex) of the canonical content of the signed version'),
  valid: z
    .boolean()
    .describe(
      'False when the stored version no longer hashes to contentHash, or no audit-trail entry binds the signature with the right MAC',
    ),
  reason: z.string().nullable(),
  limitsSnapshotId: z
    .number()
    .int()
    .nullable()
    .describe('The limits snapshot this approval put in force, when it changed limits'),
});
export type TSignature = z.infer<typeof ZSignature>;

export const ZSignResponse = z.object({
  signature: ZSignature,
  document: z.object({ id: z.number().int() }).extend(ZControlledState.shape),
});
export type TSignResponse = z.infer<typeof ZSignResponse>;

export const ZSignaturesQuery = z.object({
  documentType: ZSignedDocumentType,
  documentId: z.coerce.number().int().positive(),
});
export const ZSignaturesResponse = z.object({ signatures: z.array(ZSignature) });
/** One controlled record (its signing eligibility, its PDF). */
export const ZRecordQuery = ZSignaturesQuery.extend({ documentType: ZControlledDocumentType });
/**
 * The PDF of one version of a record: the latest unless `versionNumber` names another: a
 * controlled record's version, or a signed act's n-th signing where the act prints
 * (SignedActRegistration.printedVersion: an equipment item's release).
 */
export const ZRecordPdfQuery = ZSignaturesQuery.extend({
  versionNumber: z.coerce.number().int().positive().optional(),
});

/**
 * The signature a record's current version waits for from the signed-in user: `action` Review or
 * Approve (Reject may be signed beside it), or null with the `reason` it does not wait for theirs
 * (null too when the version is not in review or approval).
 */
export const ZSignEligibility = z.object({
  versionNumber: z.number().int(),
  action: z.enum(['Review', 'Approve']).nullable(),
  reason: z.string().nullable(),
});
export type TSignEligibility = z.infer<typeof ZSignEligibility>;

/** One record version waiting for the signed-in user's signature (My approvals). */
export const ZPendingApproval = z.object({
  documentType: ZControlledDocumentType,
  documentId: z.number().int(),
  versionNumber: z.number().int(),
  title: z.string(),
  status: ZRecordStatus,
  action: z.enum(['Review', 'Approve']),
  submittedBy: z.string(),
  submittedAt: z.string(),
});
export type TPendingApproval = z.infer<typeof ZPendingApproval>;
export const ZPendingApprovalsResponse = z.object({
  items: z.array(ZPendingApproval),
  count: z.number().int(),
});

export const DEFAULT_MEANINGS: Record<TSignAction, string> = {
  Submit: 'Submitted for review',
  Review: 'Reviewed',
  Approve: 'Approved',
  Reject: 'Rejected',
};

/**
 * What an action means for a document type whose signature says more than the default: QA's
 * approval of a laboratory investigation concludes it (FDA OOS guidance 2006/2022); QA's approval
 * of a deviation's closure reviews its root cause and conclusion (21 CFR 211.192).
 */
const TYPE_MEANINGS: Partial<Record<TSignedDocumentType, Partial<Record<TSignAction, string>>>> = {
  Investigation: { Approve: 'Approve investigation' },
  Deviation: { Submit: 'Closure proposed', Approve: 'Approve closure', Reject: 'Closure rejected' },
  // 21 CFR 211.67 and 211.182: the cleaned item's release for its next use.
  EquipmentRelease: { Approve: 'Release equipment' },
  // EMA HBEL guideline §7: a site's deviation from the library's PDE, justified and signed.
  HbelOverride: { Approve: 'Approve site PDE override' },
  // EU GMP Annex 15 §10.12: a worst case other than the computed one, justified and signed.
  WorstProductOverride: { Approve: 'Approve worst-case override' },
  TrainWorstProductOverride: { Approve: 'Approve worst-case override' },
  EquipmentWiseWorstProduct: { Approve: 'Approve worst-case override' },
};

/**
 * The meaning a signature of `action` on a record of `type` carries, fixed per action and type:
 * 21 CFR 11.50(a)(3) asks for the meaning of every signature in its manifest, and a meaning the
 * signer could type would let one signature claim another's (an 'Approved' on a Review).
 */
export function meaningOf(type: TSignedDocumentType, action: TSignAction): string {
  return TYPE_MEANINGS[type]?.[action] ?? DEFAULT_MEANINGS[action];
}

/** Every meaning a signature of each action can carry (the database allows only these). */
const meaningsOf = (action: TSignAction): readonly string[] => [
  ...new Set(SIGNED_DOCUMENT_TYPES.map((type) => meaningOf(type, action))),
];
export const SIGNATURE_MEANINGS: Record<TSignAction, readonly string[]> = {
  Submit: meaningsOf('Submit'),
  Review: meaningsOf('Review'),
  Approve: meaningsOf('Approve'),
  Reject: meaningsOf('Reject'),
};
