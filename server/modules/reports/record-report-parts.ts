import {
  DEFAULT_DATE_TIME_SETTINGS,
  formatDateTime,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import type { TRecordStatus, TSignatureState } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { statusText } from '#server/records/record-pdf.ts';
import { integrityOf, shownState, type Integrity } from '#server/records/record-integrity.ts';
import { checkedSignatures } from '#server/records/signatures.read.ts';

/*
 * What the reports of one record (a change or cleaning assessment, a study, a run) share: the
 * record's controlled version and its signatures as they stood at the report's moment, and the
 * pdfmake pieces that print them. Whether those signatures are valid and the record intact is
 * checked as the PDF is drawn (recordCheck), not stored with the data: a record changed behind
 * the app after its report reads as broken in that report's PDF too.
 */

export interface RecordSignature {
  versionNumber: number;
  action: string;
  signerRole: string;
  meaning: string;
  printedName: string;
  signedAt: string;
  reason: string | null;
}

export interface RecordVersionAt {
  versionNumber: number;
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  content: Record<string, unknown>;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', ${ISO})`;

/** The record's latest controlled version as kept at `asOf`, or null when it had none then. */
export async function controlledAt(
  q: Queryable,
  facilityId: number,
  documentType: string,
  documentId: number,
  asOf: string,
): Promise<RecordVersionAt | null> {
  const [row] = await q.query<{
    version_number: number;
    status: TRecordStatus;
    signature_state: TSignatureState | null;
    content: Record<string, unknown>;
  }>(
    `select version_number, status, signature_state, content
       from ${tableAsOf('controlled_versions', 1, 2)}
      where document_type = $3 and document_id = $4
      order by version_number desc limit 1`,
    [facilityId, asOf, documentType, documentId],
  );
  if (!row) return null;
  return {
    versionNumber: row.version_number,
    status: row.status,
    signatureState: row.signature_state,
    content: row.content,
  };
}

/** The record's signatures given by `asOf`, oldest first (the table is append-only). */
export async function signaturesAt(
  q: Queryable,
  facilityId: number,
  documentType: string,
  documentId: number,
  asOf: string,
): Promise<RecordSignature[]> {
  return q.query<RecordSignature>(
    `select version_number as "versionNumber", action, signer_role as "signerRole", meaning,
            printed_name as "printedName", ${isoSql('signed_at')} as "signedAt", reason
       from signatures
      where facility_id = $1 and document_type = $2 and document_id = $3 and signed_at <= $4
      order by id`,
    [facilityId, documentType, documentId, asOf],
  );
}

/** A record's integrity and its signatures' validity now, as a report's PDF prints them. */
export interface RecordCheck {
  integrity: Integrity;
  /** Whether a signature the report's data lists is valid now (bound, MAC, content unchanged). */
  isValid(signature: RecordSignature): boolean;
  /** What the check found, as part of the key of the PDF's stored rendition. */
  stateKey: string;
}

/** The same signature in the data (microseconds) and in the table (a moment): to the ms. */
const signatureKeyOf = (s: {
  versionNumber: number;
  action: string;
  printedName: string;
  signedAt: string;
}) => `${s.versionNumber}|${s.action}|${s.printedName}|${new Date(s.signedAt).toISOString()}`;

/**
 * Checks the record a report shows, now: its integrity (record-integrity.ts), and each of its
 * signatures as GET signatures does. A signature of the data that no row answers any more (the
 * owner changed it), or that answers with a row not valid, prints as not valid.
 */
export async function recordCheck(
  q: Queryable,
  key: Buffer,
  facilityId: number,
  record: { documentType: string; documentId: number },
): Promise<RecordCheck> {
  const [signatures, integrity] = await Promise.all([
    checkedSignatures(q, key, { facilityIds: [facilityId], ...record }),
    integrityOf(q, key, { facilityId, documentType: record.documentType }, [record.documentId]),
  ]);
  const valid = new Map<string, boolean>();
  for (const s of signatures)
    valid.set(signatureKeyOf(s), (valid.get(signatureKeyOf(s)) ?? true) && s.valid);
  const shown = integrity(record.documentId);
  const invalid = signatures.filter((s) => !s.valid).map((s) => s.id);
  return {
    integrity: shown,
    isValid: (s) => valid.get(signatureKeyOf(s)) === true,
    stateKey: `${shown.integrity ?? ''}:${invalid.join(',')}`,
  };
}

export const th = (text: string) => ({ text, style: 'th' });

/** A table with a header row, rows kept whole across pages. */
export function table(widths: unknown[], header: string[], rows: unknown[][]): unknown {
  return {
    table: { headerRows: 1, dontBreakRows: true, widths, body: [header.map(th), ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 6],
  };
}

/** Label and value pairs, without borders. */
export function facts(rows: [string, string][]): unknown {
  return {
    table: {
      widths: [130, '*'],
      body: rows.map(([label, value]) => [{ text: label, bold: true }, value]),
    },
    layout: 'noBorders',
    margin: [0, 0, 0, 6],
  };
}

/** A moment in the facility's date and time format and time zone; '—' for none. */
export function when(iso: string | null | undefined, settings?: DateTimeSettings): string {
  if (!iso) return '—';
  const s = settings ?? DEFAULT_DATE_TIME_SETTINGS;
  return `${formatDateTime(iso, s)} (${s.timezone})`;
}

/**
 * The record's version at the report's moment and its status; with the record's integrity now,
 * never Approved when that is broken (21 CFR 11.10(b)), and the reason beside it.
 */
export function versionText(v: RecordVersionAt | null, check?: RecordCheck): string {
  if (!v) return '—';
  const { status } = shownState(v, check?.integrity);
  const text = `version ${v.versionNumber}, ${statusText(status, v.signatureState)}`;
  if (check?.integrity.integrity !== 'broken') return text;
  const reason = check.integrity.integrityReason ?? '';
  return status === 'IntegrityBroken'
    ? `${text}: ${reason}`
    : `${text} (integrity broken: ${reason})`;
}

/** The record's own signatures (not the report's, which the signature page lists). */
export function recordSignatures(
  signatures: readonly RecordSignature[],
  settings?: DateTimeSettings,
  check?: RecordCheck,
): unknown[] {
  const validity = (s: RecordSignature) => {
    if (!check) return '—';
    return check.isValid(s) ? 'Valid' : 'Not valid';
  };
  return [
    { text: 'Signatures of the record', style: 'h2' },
    signatures.length === 0
      ? { text: 'The record had no signatures at the time of the report.', italics: true }
      : table(
          [30, 100, 60, 55, '*', 120, 45],
          ['Version', 'Printed name', 'Role', 'Action', 'Meaning', 'Date and time', 'Valid'],
          signatures.map((s) => [
            String(s.versionNumber),
            s.printedName,
            s.signerRole,
            s.action,
            s.reason ? `${s.meaning}\nReason: ${s.reason}` : s.meaning,
            when(s.signedAt, settings),
            validity(s),
          ]),
        ),
  ];
}
