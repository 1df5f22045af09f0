import type { AuditFormat } from '#core/audit/audit-format.ts';
import { createHash, createHmac } from 'node:crypto';
import { AppError, type ErrorName, type PropertyError } from '#core/errors/errors.ts';
import type {
  TControlledDocumentType,
  TRecordStatus,
  TSignatureState,
  TSignedDocumentType,
} from '#core/schemas/signatures.schemas.ts';
import type { Db, Queryable, RecordedAfterRollback } from '../db/db.ts';
import { tableAsOf, type AsOfOptions } from '../entities/entity-history.ts';
import { NOW, updateVersioned, type Assigned } from '../entities/versioned-update.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';

/*
 * Controlled records (server/records/README.md): every version of a record of a controlled
 * document type, its status and what the signers saw. Called in the caller's transaction.
 */

/** Which record: a document type's record in a facility. */
export interface ControlledRef {
  planId: number;
  facilityId: number;
  documentType: TControlledDocumentType;
  documentId: number;
}

export interface ControlledVersionState {
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  versionNumber: number;
}

export interface ApprovedContext {
  actor: Actor;
  ref: ControlledRef;
  versionNumber: number;
  content: Record<string, unknown>;
  /** The signatures' MAC key (signature-binding.ts), for what the approval seals besides. */
  key: Buffer;
}

/** What an approval is about to put in force: by its own signatures, or by another record's. */
export interface ApprovingContext extends ApprovedContext {
  /** The record whose approval puts it in force (a change assessment); null: its signatures. */
  by: ApprovedBy | null;
}

export interface DocumentTypeRegistration {
  /** The permission (spec §6) that edits a record of the type, and so may Submit it. */
  resource: GuardResource;
  action: string;
  /** The title My approvals shows, from a version's content. */
  title?: (content: Record<string, unknown>) => string;
  /** Whether the record is archived: an archived record is not signed until it is restored. */
  isArchived?: (q: Queryable, ref: ControlledRef) => Promise<boolean>;
  /** The record's optimistic-lock counter, when the record lives in a table of its own. */
  recordVersion?: (q: Queryable, ref: ControlledRef) => Promise<number | null>;
  /**
   * What an approval does besides, in the signature's transaction, before the signature is
   * written: returns the limits snapshot the approval put in force, or null.
   */
  onApproved?: (tx: Queryable, context: ApprovedContext) => Promise<number | null>;
  /**
   * What a Submit needs besides the permission, in the signature's transaction: throws (a
   * ControlledRefusal, audited after the rollback) to refuse it.
   */
  beforeSubmit?: (tx: Queryable, context: ApprovedContext) => Promise<void>;
  /**
   * What an approval needs besides the steps, checked on every path that puts a version in force
   * (the last signature its steps need; approveByRecord), in that transaction before anything is
   * written: throws (a ControlledRefusal) to refuse it, so a version that reached approval some
   * other way than the checks of its saves (submitted before a check existed, written by other
   * means) is not put in force unchecked.
   */
  beforeApprove?: (tx: Queryable, context: ApprovingContext) => Promise<void>;
  /**
   * Its approval moves limits: in a facility with change control a version is put in force only
   * by a change assessment, never submitted or approved by its own signatures
   * (core/records/change-controlled.ts). `pluralLabel` names the records in the refusal.
   */
  changeControlled?: { pluralLabel: string };
  /**
   * A version's content as its signed PDF prints it, line by line, for content a reader cannot
   * take in field by field (a whole assessment); without it each field prints under its label.
   * `format` names the records the content points to and writes dates as the facility does.
   */
  printContent?: (
    content: Record<string, unknown>,
    format: AuditFormat,
  ) => { label: string; text: string }[];
  /**
   * Who raised the record: without self-approval in the policy they may not review or approve
   * it either, as the submitter may not (a deviation's author, 21 CFR 211.192).
   */
  authorOf?: (q: Queryable, ref: ControlledRef) => Promise<number | null>;
  /**
   * The records' own rows as a version's content holds them, for the integrity check
   * (record-integrity.ts): with no version in progress they must say what the approved one says.
   */
  liveContent?: (
    q: Queryable,
    facilityId: number,
    documentIds: readonly number[],
  ) => Promise<Map<number, Record<string, unknown>>>;
}

const registry = new Map<TControlledDocumentType, DocumentTypeRegistration>();

/** Declares how records of a type are edited and what their approval does; again replaces. */
export function registerDocumentType(
  type: TControlledDocumentType,
  registration: DocumentTypeRegistration,
): void {
  registry.set(type, registration);
}

export function documentTypeRegistration(
  type: TControlledDocumentType,
): DocumentTypeRegistration | undefined {
  return registry.get(type);
}

/** Canonical JSON: object keys sorted at every level, so equal content hashes alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a signature binds: this content of this version of this record, nothing else. */
export function contentHash(
  ref: { facilityId: number; documentType: TSignedDocumentType; documentId: number },
  versionNumber: number,
  content: unknown,
): string {
  const canonical = canonicalJson({
    documentType: ref.documentType,
    documentId: ref.documentId,
    facilityId: ref.facilityId,
    versionNumber,
    content,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

export interface VersionRow {
  id: number;
  version_number: number;
  status: TRecordStatus;
  signature_state: TSignatureState | null;
  content: Record<string, unknown>;
  title: string;
  approval_steps: unknown;
  allow_self_approval: boolean | null;
  version: number;
}

const VERSION_COLUMNS = `id, version_number, status, signature_state, content, title,
  approval_steps, allow_self_approval, version`;

/** A record's latest version read locked earlier in the transaction (undefined: none saved yet). */
export interface KnownLatest {
  row: VersionRow | undefined;
}

/** The latest version of a record (locked when asked), or undefined before its first save. */
export async function latestVersion(
  q: Queryable,
  ref: ControlledRef,
  lock = false,
): Promise<VersionRow | undefined> {
  const [row] = await q.query<VersionRow>(
    `select ${VERSION_COLUMNS} from controlled_versions
      where facility_id = $1 and document_type = $2 and document_id = $3
      order by version_number desc limit 1 ${lock ? 'for update' : ''}`,
    [ref.facilityId, ref.documentType, ref.documentId],
  );
  return row;
}

/**
 * A version's own change, through the one versioned UPDATE of every record (its lock counter,
 * who and when), at the version it was read and locked at.
 */
export function updateVersion(
  tx: Queryable,
  actor: Actor,
  ref: Pick<ControlledRef, 'facilityId'>,
  row: Pick<VersionRow, 'id' | 'version'>,
  set: Readonly<Record<string, Assigned>>,
): Promise<Record<string, unknown>> {
  return updateVersioned(
    tx,
    {
      table: 'controlled_versions',
      ownerColumn: 'facility_id',
      ownerId: ref.facilityId,
      id: row.id,
      version: row.version,
    },
    actor.userId,
    set,
  );
}

/** The version in force before an approval becomes Deprecated (DB-3: one in force at a time). */
export async function deprecateInForce(tx: Queryable, actor: Actor, ref: ControlledRef) {
  const [inForce] = await tx.query<Pick<VersionRow, 'id' | 'version'>>(
    `select id, version from controlled_versions
      where facility_id = $1 and document_type = $2 and document_id = $3 and status = 'Approved'
      for update`,
    [ref.facilityId, ref.documentType, ref.documentId],
  );
  if (inForce)
    await updateVersion(tx, actor, ref, inForce, { status: 'Deprecated', deprecated_at: NOW });
}

/**
 * A refused action on a controlled record: the error the client sees, and an audit row written
 * once the refused transaction has rolled back (the owner of the transaction calls it).
 */
export class ControlledRefusal extends AppError implements RecordedAfterRollback {
  constructor(
    name: ErrorName,
    message: string,
    readonly actor: Actor,
    readonly ref: ControlledRef,
    readonly attempted: string,
    /** The fields of the record at fault, for a refusal of what it holds (DataValidationError). */
    errors?: PropertyError[],
  ) {
    super(name, message, errors ? { errors } : {});
  }

  async recordAfterRollback(db: Db): Promise<void> {
    await db.transaction((tx) =>
      writeAudit(tx, this.actor, {
        planId: this.ref.planId,
        facilityId: this.ref.facilityId,
        domain: 'ElectronicSignature',
        action: 'SignatureRefused',
        entityId: this.ref.documentId,
        newValues: {
          documentType: this.ref.documentType,
          documentId: this.ref.documentId,
          attempted: this.attempted,
          refusal: this.errName,
          why: this.message,
        },
      }),
    );
  }
}

/**
 * Records a save of a controlled record's working content: its first save is version 1 Being
 * Built; an edit replaces a Being Built version's content, starts version N+1 after an Approved
 * one (which stays in force), and is refused while the version is being reviewed or approved.
 */
export async function recordEdit(
  tx: Queryable,
  actor: Actor,
  ref: ControlledRef,
  content: Record<string, unknown>,
  title: string,
  /** The latest version as the caller read it locked in this transaction: not read again. */
  known?: KnownLatest,
): Promise<ControlledVersionState> {
  const latest = known ? known.row : await latestVersion(tx, ref, true);
  if (latest && (latest.status === 'BeingReviewed' || latest.status === 'BeingApproved')) {
    throw new ControlledRefusal(
      'TransactionLocked',
      `This record is locked while version ${latest.version_number} is ${latest.status === 'BeingReviewed' ? 'being reviewed' : 'being approved'}; reject it to edit it again.`,
      actor,
      ref,
      'Edit',
    );
  }
  if (latest && latest.status === 'BeingBuilt') {
    await updateVersion(tx, actor, ref, latest, { content: JSON.stringify(content), title });
    return {
      status: 'BeingBuilt',
      signatureState: latest.signature_state,
      versionNumber: latest.version_number,
    };
  }
  const versionNumber = (latest?.version_number ?? 0) + 1;
  await tx.query(
    `insert into controlled_versions (facility_id, document_type, document_id, version_number,
       status, content, title, created_by)
     values ($1, $2, $3, $4, 'BeingBuilt', $5, $6, $7)`,
    [
      ref.facilityId,
      ref.documentType,
      ref.documentId,
      versionNumber,
      JSON.stringify(content),
      title,
      actor.userId,
    ],
  );
  return { status: 'BeingBuilt', signatureState: null, versionNumber };
}

/** The status, signature state and number of a record's latest version; null before any save. */
export async function controlledState(
  q: Queryable,
  ref: Omit<ControlledRef, 'planId'>,
  options: AsOfOptions = {},
): Promise<ControlledVersionState | null> {
  const states = await controlledStates(q, ref, [ref.documentId], options);
  return states.get(ref.documentId) ?? null;
}

/** The same for many records of a type at once (list reads). */
export async function controlledStates(
  q: Queryable,
  ref: Pick<ControlledRef, 'facilityId' | 'documentType'>,
  documentIds: readonly number[],
  options: AsOfOptions = {},
): Promise<Map<number, ControlledVersionState>> {
  if (documentIds.length === 0) return new Map();
  // As of a moment: the versions as they were then, kept by record_versions.
  const { asOf } = options;
  const source = asOf ? tableAsOf('controlled_versions', 1, 4) : 'controlled_versions';
  const rows = await q.query<{
    document_id: number;
    status: TRecordStatus;
    signature_state: TSignatureState | null;
    version_number: number;
  }>(
    `select distinct on (document_id) document_id, status, signature_state, version_number
       from ${source}
      where facility_id = $1 and document_type = $2 and document_id = any($3::int[])
      order by document_id, version_number desc`,
    asOf
      ? [ref.facilityId, ref.documentType, documentIds, asOf]
      : [ref.facilityId, ref.documentType, documentIds],
  );
  return new Map(rows.map((r) => [r.document_id, versionState(r)]));
}

/** The controlled state a version row stands for. */
export function versionState(
  row: Pick<VersionRow, 'status' | 'signature_state' | 'version_number'>,
): ControlledVersionState {
  return {
    status: row.status,
    signatureState: row.signature_state,
    versionNumber: row.version_number,
  };
}

/** The content in force (at `asOf`): the version approved then, or null before any approval. */
export async function approvedContent(
  q: Queryable,
  ref: Omit<ControlledRef, 'planId'>,
  options: { asOf?: string | Date | undefined } = {},
): Promise<Record<string, unknown> | null> {
  const asOf = options.asOf ?? null;
  const [row] = await q.query<{ content: Record<string, unknown> }>(
    `select content from controlled_versions
      where facility_id = $1 and document_type = $2 and document_id = $3
        and approved_at is not null
        and ($4::timestamptz is null or approved_at <= $4::timestamptz)
        and ($4::timestamptz is not null and (deprecated_at is null or deprecated_at > $4::timestamptz)
             or $4::timestamptz is null and status = 'Approved')
      order by version_number desc limit 1`,
    [ref.facilityId, ref.documentType, ref.documentId, asOf],
  );
  return row?.content ?? null;
}

/** A version of a controlled record with its content, as a read answers it. */
export interface ControlledVersion<T = Record<string, unknown>> extends ControlledVersionState {
  content: T;
}

/**
 * The version in force now, or at `asOf` (approved then and not yet deprecated), with its
 * content; null when none was ever approved. Before the first approval known (asOf older than
 * the record's version 1, data older than controlled records) the first approved version, the
 * earliest state known. A plain read of a controlled record answers this version: the signed
 * content is the one that governs (EU GMP Annex 11 §10, 21 CFR 211.100(a): an unapproved
 * change is not in force); the version being built is the separate, labelled draft read.
 */
export async function versionInForce<T = Record<string, unknown>>(
  q: Queryable,
  ref: Omit<ControlledRef, 'planId'>,
  options: { asOf?: string | Date | undefined } = {},
): Promise<ControlledVersion<T> | null> {
  const found = await versionsInForce(q, ref, [ref.documentId], options);
  return (found.get(ref.documentId) as ControlledVersion<T> | undefined) ?? null;
}

/**
 * Which versions a read names besides the one it answers: the one in force (null before any
 * approval) and a later one not in force yet (null when none is in progress).
 */
export function versionNumbers(
  latest: ControlledVersionState,
  inForce: Pick<ControlledVersionState, 'versionNumber'> | null | undefined,
): { inForceVersionNumber: number | null; draftVersionNumber: number | null } {
  return {
    inForceVersionNumber: inForce?.versionNumber ?? null,
    draftVersionNumber:
      isDraftStatus(latest.status) && latest.versionNumber !== inForce?.versionNumber
        ? latest.versionNumber
        : null,
  };
}

/**
 * The same for many records of a type at once (list reads); records never approved are absent.
 * `strict`: as of a moment before a record's first approval, none (what a record added later must
 * answer, a criterion of the limits), instead of the earliest state known.
 */
export async function versionsInForce(
  q: Queryable,
  ref: Pick<ControlledRef, 'facilityId' | 'documentType'>,
  documentIds: readonly number[],
  options: { asOf?: string | Date | undefined; strict?: boolean } = {},
): Promise<Map<number, ControlledVersion>> {
  if (documentIds.length === 0) return new Map();
  const asOf = options.asOf ?? null;
  const strict = options.strict === true;
  const rows = await q.query<{
    document_id: number;
    content: Record<string, unknown>;
    version_number: number;
    status: TRecordStatus;
    signature_state: TSignatureState | null;
  }>(
    asOf
      ? `select distinct on (v.document_id) v.document_id, v.content, v.version_number, v.status,
                v.signature_state
           from controlled_versions v
          where v.facility_id = $1 and v.document_type = $2 and v.document_id = any($3::int[])
            and v.approved_at is not null
            and (v.approved_at <= $4 and (v.deprecated_at is null or v.deprecated_at > $4)
                 or not $5::boolean and not exists (select 1 from controlled_versions e
                      where e.facility_id = $1 and e.document_type = $2
                        and e.document_id = v.document_id and e.approved_at <= $4))
          order by v.document_id, v.approved_at`
      : `select distinct on (document_id) document_id, content, version_number, status,
                signature_state
           from controlled_versions
          where facility_id = $1 and document_type = $2 and document_id = any($3::int[])
            and status = 'Approved'
          order by document_id, version_number desc`,
    asOf
      ? [ref.facilityId, ref.documentType, documentIds, asOf, strict]
      : [ref.facilityId, ref.documentType, documentIds],
  );
  return new Map(
    rows.map((r) => [
      r.document_id,
      {
        content: r.content,
        versionNumber: r.version_number,
        // As of a moment the version was in force then, whatever became of it later.
        status: asOf ? 'Approved' : r.status,
        signatureState: r.signature_state,
      },
    ]),
  );
}

/** A status of a version not (yet) in force: being built, reviewed or approved. */
export const isDraftStatus = (status: TRecordStatus) =>
  status === 'BeingBuilt' || status === 'BeingReviewed' || status === 'BeingApproved';

/** The record whose approval put a version in force without signatures of its own. */
export interface ApprovedBy {
  documentType: TControlledDocumentType;
  documentId: number;
  /** How the audit row names it, e.g. 'CA-0003'. */
  label: string;
}

/** What an approval by another record puts in force, as its audit entry states it. */
export interface RecordApproval {
  facilityId: number;
  documentType: string;
  documentId: number;
  versionNumber: number;
  contentHash: string;
  approvedBy: ApprovedBy;
}

/**
 * The HMAC-SHA-256 of an approval by another record, with the signatures' key (outside the
 * database, signature-binding.ts). Its audit entry stands in for the version's signatures, so
 * it is sealed as they are (21 CFR 11.70): one inserted by other means than the approval, or
 * copied onto another version, has no MAC that matches.
 */
export function approvalMac(key: Buffer, a: RecordApproval): string {
  const fields = canonicalJson({
    kind: 'ApprovedByRecord',
    facilityId: a.facilityId,
    documentType: a.documentType,
    documentId: a.documentId,
    versionNumber: a.versionNumber,
    contentHash: a.contentHash,
    approvedBy: a.approvedBy,
  });
  return createHmac('sha256', key).update(fields).digest('hex');
}

/**
 * Puts the latest version of a record in force at once, approved by another record's signatures
 * (a policy edit applied by an approved change assessment): the version being built (an edit
 * just recorded by recordEdit) becomes Approved and the one in force before it Deprecated, in
 * the caller's transaction, with an audit row that names the approving record.
 */
export async function approveByRecord(
  tx: Queryable,
  actor: Actor,
  ref: ControlledRef,
  by: ApprovedBy,
  /** The signatures' MAC key, which seals the approval's audit entry. */
  key: Buffer,
): Promise<ControlledVersionState> {
  const latest = await latestVersion(tx, ref, true);
  if (!latest || latest.status !== 'BeingBuilt')
    throw new ControlledRefusal(
      'TransactionLocked',
      `${ref.documentType} ${ref.documentId} has no version being built to put in force`,
      actor,
      ref,
      'Approve',
    );
  await registry.get(ref.documentType)?.beforeApprove?.(tx, {
    actor,
    ref,
    versionNumber: latest.version_number,
    content: latest.content,
    key,
    by,
  });
  await deprecateInForce(tx, actor, ref);
  await updateVersion(tx, actor, ref, latest, {
    status: 'Approved',
    signature_state: 'Signed',
    approved_at: NOW,
  });
  // What was put in force, for the integrity check of the version (record-integrity.ts).
  const approval: RecordApproval = {
    facilityId: ref.facilityId,
    documentType: ref.documentType,
    documentId: ref.documentId,
    versionNumber: latest.version_number,
    contentHash: contentHash(ref, latest.version_number, latest.content),
    approvedBy: by,
  };
  await writeAudit(tx, actor, {
    planId: ref.planId,
    facilityId: ref.facilityId,
    domain: 'ElectronicSignature',
    action: 'ApprovedByRecord',
    entityId: ref.documentId,
    reason: `Approved with ${by.label}`,
    newValues: { ...approval, status: 'Approved', mac: approvalMac(key, approval) },
  });
  return { status: 'Approved', signatureState: 'Signed', versionNumber: latest.version_number };
}
