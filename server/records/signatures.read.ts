import type {
  TApprovalStep,
  TControlledDocumentType,
  TPendingApproval,
  TRecordStatus,
  TSignAction,
  TSignature,
  TSignedDocumentType,
  TSignerRole,
} from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '../db/db.ts';
import { contentHash, type ControlledRef } from './controlled.ts';
import {
  bindingProblems,
  type BoundSignature,
  type SignatureProblem,
} from './signature-binding.ts';
import { signedActRegistration, signedActTypes } from './signature-write.ts';
import { stepProgress, whyNotEligible, type Signer } from './signature-steps.ts';

export interface SignatureRow extends BoundSignature {
  document_type: TSignedDocumentType;
  action: TSignAction;
  signer_role: TSignerRole;
}

const SIGNATURE_COLUMNS = `s.id, s.facility_id, s.document_type, s.document_id,
  s.version_number, s.action, s.signer_role, s.meaning, s.printed_name, s.user_id, s.signed_at,
  s.content_hash, s.reason, s.limits_snapshot_id`;

/** The signatures of one version of a record, oldest first. */
export async function signaturesOf(
  q: Queryable,
  ref: Omit<ControlledRef, 'planId'>,
  versionNumber: number,
): Promise<SignatureRow[]> {
  return q.query<SignatureRow>(
    `select ${SIGNATURE_COLUMNS} from signatures s
      where s.facility_id = $1 and s.document_type = $2 and s.document_id = $3
        and s.version_number = $4 order by s.id`,
    [ref.facilityId, ref.documentType, ref.documentId, versionNumber],
  );
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export type CheckedSignature = TSignature & { problem: SignatureProblem };

/**
 * Signatures checked again on every read (21 CFR 11.70): `valid` only when the version as
 * stored now still hashes to what was signed, and a chain entry with the right MAC binds the
 * signature (a row written into the table by other means has none).
 */
export async function checkedSignatures(
  q: Queryable,
  key: Buffer,
  where: { facilityIds: number[]; documentType?: string; documentId?: number },
): Promise<CheckedSignature[]> {
  const rows = await q.query<SignatureRow & { content: unknown }>(
    `select ${SIGNATURE_COLUMNS}, v.content from signatures s
       left join controlled_versions v on v.facility_id = s.facility_id
        and v.document_type = s.document_type and v.document_id = s.document_id
        and v.version_number = s.version_number
      where s.facility_id = any($1::int[])
        and ($2::text is null or s.document_type = $2)
        and ($3::int is null or s.document_id = $3)
      order by s.id`,
    [where.facilityIds, where.documentType ?? null, where.documentId ?? null],
  );
  const bindings = await bindingProblems(q, key, rows);
  const acts = await signedActContents(q, where.facilityIds, rows);
  const checked: CheckedSignature[] = rows.map((row) => {
    const ref = {
      facilityId: row.facility_id,
      documentType: row.document_type,
      documentId: row.document_id,
    };
    const content = row.content ?? acts.get(row.id) ?? null;
    const problem: SignatureProblem =
      content === null || contentHash(ref, row.version_number, content) !== row.content_hash
        ? 'record_changed'
        : (bindings.get(row.id) ?? null);
    return { ...toSignature(row), valid: problem === null, problem };
  });
  // Made before the signatures kept them, they come before every kept one: oldest first.
  return [...(await earlierSignatures(q, where)), ...checked];
}

/** The signatures signed acts made before the signatures kept them (signature-write.ts). */
async function earlierSignatures(
  q: Queryable,
  where: { facilityIds: number[]; documentType?: string; documentId?: number },
): Promise<CheckedSignature[]> {
  const found: CheckedSignature[] = [];
  for (const type of signedActTypes()) {
    const earlier = signedActRegistration(type)?.earlierSignatures;
    if (!earlier || (where.documentType !== undefined && where.documentType !== type)) continue;
    found.push(...(await earlier(q, where.facilityIds, where.documentId ?? null)));
  }
  return found;
}

/** What the signatures of signed acts (no record versions) signed, by signature id. */
async function signedActContents(
  q: Queryable,
  facilityIds: readonly number[],
  rows: readonly (SignatureRow & { content: unknown })[],
): Promise<Map<number, unknown>> {
  const byType = new Map<string, number[]>();
  for (const row of rows)
    if (row.content === null)
      byType.set(row.document_type, [...(byType.get(row.document_type) ?? []), row.id]);
  const contents = new Map<number, unknown>();
  for (const [type, ids] of byType) {
    const act = signedActRegistration(type);
    if (act)
      for (const [id, content] of await act.signedContent(q, facilityIds, ids))
        contents.set(id, content);
  }
  return contents;
}

/** Every signature of a record or a signed act, oldest first, each checked again. */
export async function listSignatures(
  q: Queryable,
  key: Buffer,
  ref: { facilityId: number; documentType: TSignedDocumentType; documentId: number },
): Promise<TSignature[]> {
  const checked = await checkedSignatures(q, key, {
    facilityIds: [ref.facilityId],
    documentType: ref.documentType,
    documentId: ref.documentId,
  });
  return checked.map(({ problem: _, ...signature }) => signature);
}

/** A signature as the API gives it, without `valid` (which the caller decides). */
export function toSignature(row: SignatureRow): Omit<TSignature, 'valid'> {
  return {
    id: row.id,
    documentType: row.document_type,
    documentId: row.document_id,
    versionNumber: row.version_number,
    action: row.action,
    signerRole: row.signer_role,
    meaning: row.meaning,
    printedName: row.printed_name,
    userId: row.user_id,
    signedAt: iso(row.signed_at),
    contentHash: row.content_hash,
    reason: row.reason,
    limitsSnapshotId: row.limits_snapshot_id,
  };
}

interface WaitingRow {
  document_type: TControlledDocumentType;
  document_id: number;
  version_number: number;
  title: string;
  status: TRecordStatus;
  approval_steps: TApprovalStep[] | null;
  allow_self_approval: boolean | null;
  signed: { action: TSignAction; userId: number; name: string; at: string }[];
}

/** The versions in this facility waiting for this signer's signature (My approvals). */
export async function pendingApprovals(
  q: Queryable,
  facilityId: number,
  signer: Signer,
): Promise<TPendingApproval[]> {
  if (!signer.maySign) return [];
  const rows = await q.query<WaitingRow>(
    `select v.document_type, v.document_id, v.version_number, v.title, v.status,
            v.approval_steps, v.allow_self_approval,
            coalesce((select json_agg(json_build_object('action', s.action, 'userId', s.user_id,
                        'name', s.printed_name, 'at', s.signed_at) order by s.id)
                        from signatures s
                       where s.facility_id = v.facility_id and s.document_type = v.document_type
                         and s.document_id = v.document_id
                         and s.version_number = v.version_number), '[]') as signed
       from controlled_versions v
      where v.facility_id = $1 and v.status in ('BeingReviewed', 'BeingApproved')
      order by v.submitted_at, v.id`,
    [facilityId],
  );
  const items: TPendingApproval[] = [];
  for (const row of rows) {
    const steps = row.approval_steps ?? [];
    const progress = stepProgress(steps, row.signed);
    if (whyNotEligible(steps, progress, row.allow_self_approval === true, signer)) continue;
    const submit = [...row.signed].reverse().find((s) => s.action === 'Submit');
    items.push({
      documentType: row.document_type,
      documentId: row.document_id,
      versionNumber: row.version_number,
      title: row.title,
      status: row.status,
      action: row.status === 'BeingReviewed' ? 'Review' : 'Approve',
      submittedBy: submit?.name ?? '',
      submittedAt: submit ? iso(submit.at) : '',
    });
  }
  return items;
}
