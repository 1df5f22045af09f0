import { timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import type { AuditEntry } from '../db/audit-write.ts';
import type { OutsideKeyConfig } from '../db/outside-key.ts';
import { approvalMac, contentHash, type ApprovedBy, type RecordApproval } from './controlled.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import { BINDING_ACTOR, oncePerDatabase, signatureKey } from './signature-binding.ts';

/*
 * A version put in force by another record's signatures (a policy edit applied by an approved
 * change assessment, controlled.ts approveByRecord) has no signatures of its own: its
 * `ElectronicSignature` / `ApprovedByRecord` audit entry stands in for them. Whoever may insert
 * audit rows could write one, so it carries a MAC under the signatures' key (outside the
 * database), as a signature's chain entry does (21 CFR 11.70, EU GMP Annex 11 §14); entries
 * written before that are bound once at start, from the list their migration froze.
 */

/** An approval entry's values as stored (its facility is the row's). */
type StoredApproval = Omit<RecordApproval, 'facilityId'> & { mac?: string; auditId?: string };

const macMatches = (given: string | undefined, expected: string) => {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const versionKey = (documentType: string, documentId: number, versionNumber: number) =>
  `${documentType}:${documentId}:${versionNumber}`;

export interface SealedApprovals {
  /** The content hashes each version was put in force with, by `type:id:version`. */
  sealed: Map<string, Set<string>>;
  /** Versions with an approval entry whose MAC does not hold (none that does). */
  unsealed: Set<string>;
}

/** The approvals by another record of a facility, split by whether their MAC holds. */
export async function sealedApprovals(
  q: Queryable,
  key: Buffer,
  facilityId: number,
): Promise<SealedApprovals> {
  const rows = await q.query<{ values: StoredApproval }>(
    `select new_values as values from audit_log
      where facility_id = $1 and domain = 'ElectronicSignature'
        and (action = 'ApprovedByRecord' or (action = 'Bind' and new_values ? 'approvedBy'))
      order by id`,
    [facilityId],
  );
  const sealed = new Map<string, Set<string>>();
  const unsealed = new Set<string>();
  for (const { values: v } of rows) {
    const at = versionKey(v.documentType, v.documentId, v.versionNumber);
    const expected = approvalMac(key, { ...v, facilityId });
    if (macMatches(v.mac, expected))
      sealed.set(at, (sealed.get(at) ?? new Set()).add(v.contentHash));
    else unsealed.add(at);
  }
  for (const at of sealed.keys()) unsealed.delete(at);
  return { sealed, unsealed };
}

/** Whether an approval by another record holds for a version: null when it does, else why not. */
export function approvalByRecordProblem(
  approvals: SealedApprovals,
  version: { documentType: string; documentId: number; versionNumber: number; hash: string },
): string | null | undefined {
  const at = versionKey(version.documentType, version.documentId, version.versionNumber);
  const hashes = approvals.sealed.get(at);
  if (hashes)
    return hashes.has(version.hash)
      ? null
      : 'The approved content differs from what the approving record put in force';
  if (approvals.unsealed.has(at))
    return 'The approval by another record is not bound to the audit trail (its MAC does not match)';
  return undefined;
}

/**
 * Binds the approvals by another record written before their entries had a MAC (the list
 * migration 20261208140100 froze), once per database: a `Bind` entry with the approval's values
 * and its MAC. The content hash is the one the entry named, or for the oldest entries, which
 * named none, that of the version's content as the version lock has kept it since.
 */
export async function bindEarlierApprovals(
  db: Db,
  config: OutsideKeyConfig,
  warn: (message: string) => void,
): Promise<number> {
  const key = await signatureKey(config, warn);
  return oncePerDatabase(db, config, 'approvals-bound', () =>
    db.transaction(async (tx) => {
      const rows = await tx.query<{
        id: string;
        plan_id: number;
        facility_id: number;
        values: StoredApproval & { approvedBy: ApprovedBy };
        content: Record<string, unknown> | null;
      }>(
        `select a.id::text as id, a.plan_id, a.facility_id, a.new_values as values, v.content
           from audit_log a
           left join controlled_versions v on v.facility_id = a.facility_id
            and v.document_type = a.new_values ->> 'documentType'
            and v.document_id = (a.new_values ->> 'documentId')::int
            and v.version_number = (a.new_values ->> 'versionNumber')::int
          where a.id = any(approvals_by_record_before_mac())
            and a.domain = 'ElectronicSignature' and a.action = 'ApprovedByRecord'
          order by a.id`,
      );
      const entries: AuditEntry[] = rows.flatMap((row) => {
        const v = row.values;
        const ref = {
          facilityId: row.facility_id,
          documentType: v.documentType as TControlledDocumentType,
          documentId: v.documentId,
        };
        const hash =
          v.contentHash ??
          (row.content ? contentHash(ref, v.versionNumber, row.content) : undefined);
        if (!hash) return [];
        const approval: RecordApproval = {
          ...ref,
          versionNumber: v.versionNumber,
          contentHash: hash,
          approvedBy: v.approvedBy,
        };
        return [
          {
            planId: row.plan_id,
            facilityId: row.facility_id,
            domain: 'ElectronicSignature',
            action: 'Bind',
            entityId: v.documentId,
            newValues: { ...approval, auditId: row.id, mac: approvalMac(key, approval) },
          },
        ];
      });
      await writeAuditMany(tx, BINDING_ACTOR, entries);
      return entries.length;
    }),
  );
}
