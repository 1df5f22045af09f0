import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '../db/db.ts';
import {
  canonicalJson,
  contentHash,
  documentTypeRegistration,
  type ControlledVersionState,
} from './controlled.ts';
import { bindingProblems, type BoundSignature } from './signature-binding.ts';
import {
  approvalByRecordProblem,
  sealedApprovals,
  type SealedApprovals,
} from './approval-binding.ts';

/*
 * Whether the version in force of a controlled record is still what was approved (21 CFR
 * 11.10(a) and 11.70, EU GMP Annex 11 §5 and §10). The database keeps an approved version's
 * content from the app role (migration 20261207100200), but the schema's owner can switch that
 * off; this check finds what was changed behind the app all the same:
 * - the version's signatures since its latest Submit must be bound to the audit trail (MAC with
 *   the key outside the database) and hash to the content as stored now, and one of them must
 *   be an Approve; a version approved by another record's signatures must match the content
 *   hash its audit entry names, and that entry's MAC must hold (approval-binding.ts);
 * - with no version in progress, the record's own row must say what the approved content says
 *   (the app writes both together; a difference means a write outside the app).
 * A record that fails either reads as broken integrity, never as Approved. A field declared
 * after the version was approved is not in its content, and so not compared.
 */

export interface BrokenRecord {
  documentType: string;
  documentId: number;
  versionNumber: number;
  reason: string;
}

/** What a read of a controlled record says of it: intact, or broken and why. */
export interface Integrity {
  integrity?: 'intact' | 'broken';
  integrityReason?: string | null;
}

/** The integrity of some records of a type, as a lookup by id for their reads. */
export async function integrityOf(
  q: Queryable,
  key: Buffer,
  ref: { facilityId: number; documentType: string },
  documentIds: readonly number[],
): Promise<(documentId: number) => Integrity> {
  const broken = await brokenRecords(q, key, ref.facilityId, {
    documentType: ref.documentType,
    documentIds,
  });
  return (documentId) => {
    const found = broken.get(keyOf(ref.documentType, documentId));
    return found
      ? { integrity: 'broken', integrityReason: found.reason }
      : { integrity: 'intact', integrityReason: null };
  };
}

/**
 * A state as a read shows it: a version in force whose integrity is broken is never shown as
 * Approved ('Active'), but as IntegrityBroken, with the reason beside it.
 */
export function shownState<S extends Pick<ControlledVersionState, 'status'>>(
  state: S,
  integrity: Integrity | undefined,
): S & Integrity {
  if (!integrity) return state;
  const broken = integrity.integrity === 'broken' && state.status === 'Approved';
  return { ...state, ...(broken ? { status: 'IntegrityBroken' as const } : {}), ...integrity };
}

/** Version 1 of these is approved as it is made (a facility's defaults, records migrated). */
const APPROVED_AT_CREATION = new Set(['CleaningLimitPolicy', 'CleaningInspectionSettings']);
// Equipment trains: migration 20261221103001 approved each train as it stood (issue 32).
const MIGRATED_APPROVED = new Set(['DocumentVersion', 'EquipmentTrain']);

interface InForceRow {
  document_type: string;
  document_id: number;
  version_number: number;
  content: Record<string, unknown>;
  latest: boolean;
}

type SignatureRow = BoundSignature & { document_type: string };

const keyOf = (documentType: string, documentId: number) => `${documentType}:${documentId}`;

/**
 * The broken records among the versions in force of a facility (of one type and some records
 * when asked), keyed by `documentType:documentId`.
 */
export async function brokenRecords(
  q: Queryable,
  key: Buffer,
  facilityId: number,
  only?: { documentType: string; documentIds: readonly number[] },
): Promise<Map<string, BrokenRecord>> {
  const filter = [facilityId, only?.documentType ?? null, only ? [...only.documentIds] : null];
  const versions = await q.query<InForceRow>(
    `select v.document_type, v.document_id, v.version_number, v.content,
            not exists (select 1 from controlled_versions l where l.facility_id = v.facility_id
              and l.document_type = v.document_type and l.document_id = v.document_id
              and l.version_number > v.version_number) as latest
       from controlled_versions v
      where v.facility_id = $1 and v.status = 'Approved'
        and ($2::text is null or v.document_type = $2) and ($3::int[] is null or v.document_id = any($3))`,
    filter,
  );
  const broken = new Map<string, BrokenRecord>();
  if (versions.length === 0) return broken;
  const [signatures, byRecord] = await Promise.all([
    q.query<SignatureRow>(
      `select s.id, s.facility_id, s.document_type, s.document_id, s.version_number, s.action,
              s.signer_role, s.meaning, s.printed_name, s.user_id, s.signed_at, s.content_hash,
              s.reason, s.limits_snapshot_id
         from signatures s join controlled_versions v on v.facility_id = s.facility_id
          and v.document_type = s.document_type and v.document_id = s.document_id
          and v.version_number = s.version_number and v.status = 'Approved'
        where s.facility_id = $1 and ($2::text is null or s.document_type = $2)
          and ($3::int[] is null or s.document_id = any($3))
        order by s.id`,
      filter,
    ),
    sealedApprovals(q, key, facilityId),
  ]);
  const bindings = await bindingProblems(q, key, signatures);
  const live = await liveContents(q, facilityId, versions);
  for (const v of versions) {
    const ref = {
      facilityId,
      documentType: v.document_type as TControlledDocumentType,
      documentId: v.document_id,
    };
    const own = signatures.filter(
      (s) =>
        s.document_type === v.document_type &&
        s.document_id === v.document_id &&
        s.version_number === v.version_number,
    );
    const hash = contentHash(ref, v.version_number, v.content);
    const reason =
      approvalProblem(v, hash, own, bindings, byRecord) ??
      (v.latest ? rowProblem(v.content, live.get(keyOf(v.document_type, v.document_id))) : null);
    if (reason)
      broken.set(keyOf(v.document_type, v.document_id), {
        documentType: v.document_type,
        documentId: v.document_id,
        versionNumber: v.version_number,
        reason,
      });
  }
  return broken;
}

/** Why the approval of a version in force does not hold, or null when it does. */
function approvalProblem(
  v: InForceRow,
  hash: string,
  own: readonly SignatureRow[],
  bindings: Map<number, 'no_chain_entry' | 'mac' | null>,
  byRecord: SealedApprovals,
): string | null {
  if (own.some((s) => bindings.get(s.id) !== null))
    return 'A signature of this version is not bound to the audit trail';
  const lastSubmit = own.map((s) => s.action).lastIndexOf('Submit');
  const round = own.slice(lastSubmit + 1);
  if (round.some((s) => s.action === 'Approve')) {
    return own.slice(Math.max(lastSubmit, 0)).every((s) => s.content_hash === hash)
      ? null
      : 'The approved content differs from what was signed';
  }
  const byAnother = approvalByRecordProblem(byRecord, {
    documentType: v.document_type,
    documentId: v.document_id,
    versionNumber: v.version_number,
    hash,
  });
  if (byAnother !== undefined) return byAnother;
  if (v.version_number === 1 && APPROVED_AT_CREATION.has(v.document_type)) return null;
  if (v.version_number === 1 && MIGRATED_APPROVED.has(v.document_type)) return null;
  return 'The version in force has no valid approval signature';
}

/** The records' own rows, as the content of a version would hold them, where a type says how. */
async function liveContents(
  q: Queryable,
  facilityId: number,
  versions: readonly InForceRow[],
): Promise<Map<string, Record<string, unknown>>> {
  const idsByType = new Map<string, number[]>();
  for (const v of versions)
    if (v.latest)
      idsByType.set(v.document_type, [...(idsByType.get(v.document_type) ?? []), v.document_id]);
  const found = new Map<string, Record<string, unknown>>();
  for (const [documentType, ids] of idsByType) {
    const read = documentTypeRegistration(documentType as TControlledDocumentType)?.liveContent;
    if (!read) continue;
    for (const [id, content] of await read(q, facilityId, ids))
      found.set(keyOf(documentType, id), content);
  }
  return found;
}

/** Whether the record's row says what the approved content says, field by field. */
export function rowProblem(
  approved: Record<string, unknown>,
  live: Record<string, unknown> | undefined,
): string | null {
  if (!live) return null;
  const differs = Object.keys(approved).filter(
    (field) => field in live && canonicalJson(approved[field]) !== canonicalJson(live[field]),
  );
  return differs.length === 0
    ? null
    : `The record differs from its approved version (${differs.join(', ')}): it was changed outside the application`;
}
