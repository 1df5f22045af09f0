import type {
  TSignAction,
  TSignedDocumentType,
  TSignerRole,
} from '#core/schemas/signatures.schemas.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';
import type { Queryable } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { bindingValues } from './signature-binding.ts';
import { contentHash, type VersionRow } from './controlled.ts';
import type { CheckedSignature, SignatureRow } from './signatures.read.ts';

/** What one signature says: who signs is the actor, named as they are now. */
export interface SignatureInput {
  documentType: TSignedDocumentType;
  documentId: number;
  versionNumber: number;
  action: TSignAction;
  signerRole: TSignerRole;
  meaning: string;
  contentHash: string;
  reason: string | null;
  limitsSnapshotId: number | null;
}

/**
 * Writes one electronic signature and its entry in the audit hash chain (what it binds, with its
 * MAC; signature-binding.ts), in the caller's transaction: the one way every signature is made,
 * a controlled record's (signatures.service.ts) as an equipment release's. `auditValues` are what
 * the chain entry says besides.
 */
export async function writeSignature(
  tx: Queryable,
  actor: Actor,
  key: Buffer,
  scope: { planId: number; facilityId: number },
  input: SignatureInput,
  auditValues: Record<string, unknown> = {},
): Promise<SignatureRow> {
  const [signature] = await tx.query<SignatureRow>(
    `insert into signatures (facility_id, document_type, document_id, version_number, action,
       signer_role, meaning, printed_name, user_id, content_hash, reason, limits_snapshot_id)
     select $1, $2, $3, $4, $5, $6, $7, u.first_name || ' ' || u.last_name, u.id, $8, $9, $10
       from users u where u.id = $11
     returning id, facility_id, document_type, document_id, version_number, action,
               signer_role, meaning, printed_name, user_id, signed_at, content_hash, reason,
               limits_snapshot_id`,
    [
      scope.facilityId,
      input.documentType,
      input.documentId,
      input.versionNumber,
      input.action,
      input.signerRole,
      input.meaning,
      input.contentHash,
      input.reason,
      input.limitsSnapshotId,
      actor.userId,
    ],
  );
  await writeAudit(tx, actor, {
    planId: scope.planId,
    facilityId: scope.facilityId,
    domain: 'ElectronicSignature',
    action: input.action,
    entityId: input.documentId,
    reason: input.reason,
    newValues: { ...bindingValues(key, signature!), ...auditValues },
  });
  return signature!;
}

/**
 * The signature of a one-time signed act (an equipment release, a site PDE override): the act's
 * next signature of its document (`versionNumber` counting them; the caller holds the document's
 * row locked, so the count holds), an Approver's with the act's fixed meaning, signing `content`
 * as the act's own kept row will rebuild it (SignedActRegistration.signedContent).
 */
export async function writeActSignature(
  tx: Queryable,
  actor: Actor,
  key: Buffer,
  scope: { planId: number; facilityId: number },
  act: {
    documentType: TSignedDocumentType;
    documentId: number;
    meaning: string;
    content: unknown;
    reason: string | null;
    /** The act's number among the document's acts, when they are counted elsewhere too. */
    versionNumber?: number;
  },
  auditValues: Record<string, unknown> = {},
): Promise<SignatureRow> {
  const ref = {
    facilityId: scope.facilityId,
    documentType: act.documentType,
    documentId: act.documentId,
  };
  const versionNumber = act.versionNumber ?? (await signedActCount(tx, ref)) + 1;
  return writeSignature(
    tx,
    actor,
    key,
    scope,
    {
      ...ref,
      versionNumber,
      action: 'Approve',
      signerRole: 'Approver',
      meaning: act.meaning,
      contentHash: contentHash(ref, versionNumber, act.content),
      reason: act.reason,
      limitsSnapshotId: null,
    },
    auditValues,
  );
}

async function signedActCount(
  tx: Queryable,
  ref: { facilityId: number; documentType: TSignedDocumentType; documentId: number },
): Promise<number> {
  const [{ count }] = (await tx.query<{ count: number }>(
    `select count(*)::int as count from signatures
      where facility_id = $1 and document_type = $2 and document_id = $3`,
    [ref.facilityId, ref.documentType, ref.documentId],
  )) as [{ count: number }];
  return count;
}

/**
 * A signed act without versions of its own (SIGNED_DOCUMENT_TYPES beyond the controlled ones):
 * the permission that reads its signatures, and what each signature signed, rebuilt from the
 * act's own stored row, so that a reading checks it again as it checks a record version.
 */
export interface SignedActRegistration {
  resource: GuardResource;
  signedContent: (
    q: Queryable,
    facilityIds: readonly number[],
    signatureIds: readonly number[],
  ) => Promise<Map<number, unknown>>;
  /**
   * The act's signatures made before the signatures kept them (no row of their own), each
   * checked as strictly as what was kept of it allows; of one act (`documentId`) or all.
   */
  earlierSignatures?: (
    q: Queryable,
    facilityIds: readonly number[],
    documentId: number | null,
  ) => Promise<CheckedSignature[]>;
  /**
   * The act's `versionNumber`-th signing (the latest when none is given) as a version of a
   * signed record, for `GET signatures/pdf`; a NotFoundError when there is none.
   */
  printedVersion?: (
    q: Queryable,
    facilityId: number,
    documentId: number,
    versionNumber: number | undefined,
  ) => Promise<VersionRow>;
}

const acts = new Map<TSignedDocumentType, SignedActRegistration>();

/** Declares a signed act's type; again replaces. */
export function registerSignedAct(
  type: TSignedDocumentType,
  registration: SignedActRegistration,
): void {
  acts.set(type, registration);
}

export function signedActRegistration(type: string): SignedActRegistration | undefined {
  return acts.get(type as TSignedDocumentType);
}

/** The signed acts' types, as registered. */
export function signedActTypes(): TSignedDocumentType[] {
  return [...acts.keys()];
}
