import { z } from 'zod';
import { ZId } from './common.schemas.ts';

/** A list filter given as repeated keys (?a=1&a=2) or comma-separated (?a=1,2). */
function listOf<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (value === undefined || value === '') return undefined;
    const values = Array.isArray(value) ? value : [value];
    return values
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  }, z.array(item).max(100).optional());
}

/** A calendar day (the facility's) or a full ISO moment. */
const ZDateBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'Use a date (YYYY-MM-DD) or an ISO date and time',
});

/** Spec §3 "Audit log filters"; each filter applies only when set (spec §5). */
export const ZAuditLogFilters = z.object({
  domains: listOf(z.string().trim().min(1).max(64)),
  actions: listOf(z.string().trim().min(1).max(64)),
  userIds: listOf(ZId),
  facilityId: ZId.optional(),
  startDate: ZDateBound.optional(),
  endDate: ZDateBound.optional(),
});
export type TAuditLogFilters = z.infer<typeof ZAuditLogFilters>;

export const ZAuditLogQuery = ZAuditLogFilters.extend({
  /** Whose calendar days date-only bounds mean, when no facilityId filter says it. */
  currentFacilityId: ZId.optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageLimit: z.coerce.number().int().min(1).max(200).default(10),
});

export const ZAuditLogExportQuery = ZAuditLogFilters.extend({
  /** The facility whose date and time settings the PDF uses; AuditLog Get is checked in it. */
  currentFacilityId: ZId,
});

export const ZAuditLogRow = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  facilityId: z.number().int().nullable(),
  facilityName: z.string().nullable(),
  domain: z.string(),
  action: z.string(),
  entityId: z.string().nullable(),
  reason: z.string().nullable(),
  oldValues: z.record(z.string(), z.unknown()).nullable(),
  newValues: z.record(z.string(), z.unknown()).nullable(),
});
export type TAuditLogRow = z.infer<typeof ZAuditLogRow>;

export const ZAuditLogPage = z.object({
  data: z.array(ZAuditLogRow),
  total: z.number().int(),
  pageNumber: z.number().int(),
  pageLimit: z.number().int(),
  /** Names of the records the rows are about or point to, by `entityKey:id`. */
  names: z.record(z.string(), z.string()),
});

/** A record's History: its audit rows, newest first, a page at a time. */
export const ZRecordHistoryQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageLimit: z.coerce.number().int().min(1).max(200).default(20),
});

export const ZAuditLogUsers = z.object({
  users: z.array(
    z.object({
      id: z.number().int(),
      firstName: z.string(),
      lastName: z.string(),
      username: z.string(),
    }),
  ),
});

export const ZAuditLogFilterOptions = z.object({
  domains: z.array(z.string()),
  actions: z.array(z.string()),
  facilities: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

/** The mail outbox (also a record an administrator reads): mails as stored, newest first. */
export const ZMailOutboxRow = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});

export const ZMailOutboxPage = z.object({
  data: z.array(ZMailOutboxRow),
  total: z.number().int(),
  pageNumber: z.number().int(),
  pageLimit: z.number().int(),
});

export const ZMailOutboxMessage = ZMailOutboxRow.extend({ text: z.string() });

/** A chain's last row: its sequence number and hash. */
export const ZChainHead = z.object({ seq: z.number(), hash: z.string() });

export const ZChainCheck = z.object({
  chain: z.string(),
  rows: z.number(),
  intact: z.boolean(),
  brokenSeq: z.number().nullable(),
  /** gap, prev_hash, hash, head, anchor (differs from a signed anchor), anchor_signature. */
  problem: z.string().nullable(),
  head: ZChainHead.nullable(),
  /** The latest signed anchor of the chain; null before the first one. */
  anchor: ZChainHead.extend({ at: z.string() }).nullable(),
});

/** The electronic signatures of the verified facilities, each checked as on every read. */
export const ZSignaturesCheck = z.object({
  checked: z.number(),
  invalid: z.array(
    z.object({
      id: z.number(),
      documentType: z.string(),
      documentId: z.number(),
      versionNumber: z.number(),
      /** record_changed, no_chain_entry (not bound into the audit trail), mac (wrong MAC). */
      problem: z.enum(['record_changed', 'no_chain_entry', 'mac']),
    }),
  ),
});

/** Controlled records whose version in force no longer matches what was approved. */
export const ZRecordsCheck = z.object({
  broken: z.array(
    z.object({
      documentType: z.string(),
      documentId: z.number().int(),
      versionNumber: z.number().int(),
      reason: z.string(),
    }),
  ),
});

export const ZAuditVerifyResult = z.object({
  /** False when a chain is broken, a signature is not valid or a record's integrity is broken. */
  intact: z.boolean(),
  chains: z.array(ZChainCheck),
  signatures: ZSignaturesCheck,
  records: ZRecordsCheck,
});

export const ZAuditAnchorResult = z.object({
  anchors: z.array(ZChainHead.extend({ chain: z.string(), at: z.string() })),
});
