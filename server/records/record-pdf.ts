import { documentTypeLabel } from '#core/labels/enum-labels.ts';
import { formatDateTime, type DateTimeSettings } from '#core/datetime/format-date-time.ts';
import {
  SIGNATURE_STATE_LABELS,
  STATUS_LABELS,
  rejectionLabel,
} from '#core/records/status-labels.ts';
import type {
  TSignedDocumentType,
  TRecordStatus,
  TSignature,
  TSignatureState,
} from '#core/schemas/signatures.schemas.ts';
import type { SignatureProblem } from './signature-binding.ts';
import { landscapePage, renderPdfDocument } from '../util/pdf/render-pdf.ts';
import type { PrintedField } from './record-pdf-content.ts';

/*
 * One version of a controlled record as a PDF (Part 11 ES-1): what was signed, field by field,
 * and the signature manifest with each signer's printed name, the database's UTC time and the
 * meaning, exactly as the signatures API gives them.
 */

export interface RecordPdfInput {
  documentType: TSignedDocumentType;
  documentId: number;
  title: string;
  versionNumber: number;
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  /** The version's content, field by field (printableContent). */
  fields: PrintedField[];
  signatures: (TSignature & { problem?: SignatureProblem })[];
  facilityName: string;
  settings: DateTimeSettings;
  generatedBy: string;
  generatedAt: Date;
}

const th = (text: string) => ({ text, style: 'th' });

/** 'Active', or 'Being Built · Changes Requested' after a rejection. */
export function statusText(status: TRecordStatus, state: TSignatureState | null): string {
  const label = STATUS_LABELS[status];
  return state && state !== 'Signed' ? `${label} · ${SIGNATURE_STATE_LABELS[state]}` : label;
}

function actionText(signature: TSignature): string {
  if (signature.action !== 'Reject') return signature.action;
  const at = signature.signerRole === 'Reviewer' ? 'BeingReviewed' : 'BeingApproved';
  return rejectionLabel(at);
}

const NOT_VALID: Record<NonNullable<SignatureProblem>, string> = {
  record_changed: 'Not valid: the record changed since',
  no_chain_entry: 'Not valid: not in the audit trail',
  mac: 'Not valid: its MAC does not match',
};

function validityText(s: TSignature & { problem?: SignatureProblem }): string {
  if (s.valid) return 'Valid';
  return s.problem ? NOT_VALID[s.problem] : 'Not valid';
}

/** A signing moment to the millisecond, in UTC as the heading says, without the ISO 'T' and 'Z'. */
export function utcMoment(iso: string): string {
  return iso.replace('T', ' ').replace(/Z$/, '');
}

function manifest(signatures: (TSignature & { problem?: SignatureProblem })[]): unknown {
  if (signatures.length === 0)
    return { text: 'This version has no signatures yet.', italics: true };
  const body = signatures.map((s) => [
    s.printedName,
    s.signerRole,
    actionText(s),
    s.reason ? `${s.meaning}\nReason: ${s.reason}` : s.meaning,
    utcMoment(s.signedAt),
    validityText(s),
    { text: s.contentHash, fontSize: 6 },
  ]);
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [85, 50, 55, 100, 110, 55, '*'],
      body: [
        [
          th('Printed name'),
          th('Signer role'),
          th('Action'),
          th('Meaning'),
          th('Signed at (UTC)'),
          th('Valid'),
          th('Content hash (SHA-256)'),
        ],
        ...body,
      ],
    },
    layout: 'lightHorizontalLines',
  };
}

export function recordPdfDefinition(pdf: RecordPdfInput): Record<string, unknown> {
  const fields = pdf.fields;
  return {
    ...landscapePage(pdf.title, pdf.generatedBy, 8),
    content: [
      { text: pdf.title, style: 'title' },
      {
        table: {
          widths: [110, '*'],
          body: [
            ['Document type', documentTypeLabel(pdf.documentType)],
            ['Version', String(pdf.versionNumber)],
            ['Status', statusText(pdf.status, pdf.signatureState)],
            ['Facility', pdf.facilityName],
            [
              'Generated',
              `${formatDateTime(pdf.generatedAt, pdf.settings)} (${pdf.settings.timezone}) by ${pdf.generatedBy}`,
            ],
          ],
        },
        layout: 'noBorders',
        margin: [0, 6, 0, 4],
      },
      { text: `Content of version ${pdf.versionNumber}`, style: 'h2' },
      fields.length === 0
        ? { text: 'This version has no fields.', italics: true }
        : {
            table: {
              headerRows: 1,
              widths: [150, '*'],
              body: [[th('Field'), th('Value')], ...fields.map((f) => [f.label, f.text])],
            },
            layout: 'lightHorizontalLines',
          },
      { text: 'Signature manifest', style: 'h2' },
      manifest(pdf.signatures),
    ],
  };
}

export function renderRecordPdf(pdf: RecordPdfInput): Promise<Buffer> {
  return renderPdfDocument(
    recordPdfDefinition(pdf),
    // The record by its title: its database id means nothing to a reader (issue 30).
    `Carryover · ${pdf.title} · version ${pdf.versionNumber} · ${pdf.facilityName}`,
  );
}
