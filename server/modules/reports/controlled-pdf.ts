import { createHash } from 'node:crypto';
import { formatDateTime, type DateTimeSettings } from '#core/datetime/format-date-time.ts';
import type {
  TRecordStatus,
  TSignature,
  TSignatureState,
} from '#core/schemas/signatures.schemas.ts';
import { statusText } from '#server/records/record-pdf.ts';
import { labelFromName } from '#core/entities/labels.ts';
import { canonicalJson } from '#server/records/controlled.ts';
import {
  landscapePage,
  renderPdfDocument,
  renderPdfFile,
  type PdfFile,
} from '#server/util/pdf/render-pdf.ts';

/*
 * The one layout of every report PDF (server/modules/reports/README.md "The controlled-document
 * PDF"): on each page a header (facility, title, report number and version, status) and a footer
 * (who generated it and when, in the facility's time zone, 'Page x of y' and a short hash); a
 * DRAFT watermark until the record is approved; after the content a signature page and a last
 * page with the full hashes, the limits snapshot and the parameters to regenerate it.
 */

export interface ControlledPdfInput {
  facilityName: string;
  title: string;
  /** The report number, e.g. RPT-0003, or 'Preview' for a file that is not a stored report. */
  number: string;
  versionNumber: number;
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  settings: DateTimeSettings;
  generatedBy: string;
  generatedAt: Date;
  /** SHA-256 of the report data's canonical JSON. */
  dataHash: string;
  /** The other files stored with the report (the xlsx), with their SHA-256. */
  files: { format: string; sha256: string }[];
  /** The limits snapshot the data was read against, by name (never its id). */
  limitsSnapshotName: string | null;
  /** The kind and its parameters as stored, and the moment the data was read. */
  parameters: Record<string, unknown>;
  asOf: string | null;
  /** Some records that existed at `asOf` are kept only from this later moment (computeReport). */
  historyStartsAt?: string | null | undefined;
  signatures: TSignature[];
  /** The report's own pdfmake content. */
  content: unknown[];
  /** Font size of the body (7 for wide tables). */
  fontSize?: number;
}

/** What the layout around a report's content shows. */
type ControlledLayoutInput = Omit<ControlledPdfInput, 'content'>;

export const DRAFT_WATERMARK = 'DRAFT';

export const sha256 = (bytes: string | Uint8Array) =>
  createHash('sha256').update(bytes).digest('hex');

/** The SHA-256 of a report's data: of its canonical JSON (keys sorted at every level). */
export const dataHashOf = (data: unknown) => sha256(canonicalJson(data));

/** A controlled document is a draft until its version is approved (or replaced after that). */
export function isDraft(status: TRecordStatus): boolean {
  return status !== 'Approved' && status !== 'Deprecated';
}

/** The first 12 hex digits: enough to match a printout to its record by eye. */
export const shortHash = (hash: string) => hash.slice(0, 12);

/** A table header cell. */
export const th = (text: string) => ({ text, style: 'th' });

/** A table of a report's content: one header row, light lines, repeated on each page. */
export function reportTable(headers: string[], widths: (number | string)[], rows: unknown[][]) {
  return {
    table: { headerRows: 1, widths, body: [headers.map(th), ...rows] },
    layout: 'lightHorizontalLines',
  };
}

function signaturePage(input: ControlledLayoutInput): unknown[] {
  const when = (iso: string) =>
    `${formatDateTime(iso, input.settings)} (${input.settings.timezone})`;
  return [
    { text: 'Signatures', style: 'h2', pageBreak: 'before' },
    input.signatures.length === 0
      ? { text: 'This version has no signatures yet.', italics: true }
      : {
          table: {
            headerRows: 1,
            dontBreakRows: true,
            widths: [110, 60, 55, '*', 120, 45],
            body: [
              [
                th('Printed name'),
                th('Role'),
                th('Action'),
                th('Meaning'),
                th('Date and time'),
                th('Valid'),
              ],
              ...input.signatures.map((s) => [
                s.printedName,
                s.signerRole,
                s.action,
                s.reason ? `${s.meaning}\nReason: ${s.reason}` : s.meaning,
                when(s.signedAt),
                s.valid ? 'Valid' : 'Not valid',
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
        },
  ];
}

/**
 * Said first, where a reader starts: records that existed at the report's moment but are kept
 * only from later are shown as first kept, not as they were then (21 CFR 11.10(b): a copy says
 * what it cannot show accurately).
 */
function historyStartNote(input: ControlledLayoutInput): unknown[] {
  if (!input.historyStartsAt) return [];
  const from = formatDateTime(new Date(input.historyStartsAt), input.settings);
  return [
    {
      text: `History of some records begins after this moment: records that existed then and were changed before versions were kept are shown as first kept, on ${from} (${input.settings.timezone}), not as they were at the moment of the data.`,
      bold: true,
      margin: [0, 0, 0, 8],
    },
  ];
}

function regenerationPage(input: ControlledLayoutInput): unknown[] {
  const rows: [string, string][] = [
    ['Report', `${input.number} version ${input.versionNumber}`],
    ['Data SHA-256', input.dataHash],
    ...input.files.map((f): [string, string] => [`${f.format} file SHA-256`, f.sha256]),
    ['Limits snapshot', input.limitsSnapshotName ?? 'none'],
    ['Data as of (UTC)', input.asOf ? exactUtc(input.asOf) : '—'],
    ...(input.historyStartsAt
      ? [
          ['History of some records begins (UTC)', exactUtc(input.historyStartsAt)] as [
            string,
            string,
          ],
        ]
      : []),
    ['Parameters', parametersText(input.parameters)],
  ];
  return [
    { text: 'Hashes and parameters to regenerate this report', style: 'h2', pageBreak: 'before' },
    {
      text: 'Regenerating the report from these parameters as of this date gives data with the same SHA-256.',
      margin: [0, 0, 0, 6],
    },
    {
      table: {
        widths: [110, '*'],
        body: rows.map(([label, value]) => [{ text: label, bold: true }, value]),
      },
      layout: 'lightHorizontalLines',
    },
  ];
}

/**
 * The moment to the millisecond, as regeneration needs it, written for a reader:
 * "2026-12-05 21:58:09.359 UTC" rather than the ISO form.
 */
function exactUtc(iso: string): string {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  return `${moment.toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

/** A stored value in words: codes by their labels, lists joined, nested values by their names. */
function parameterValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(parameterValue).join(', ');
  if (typeof value === 'object') return parametersText(value as Record<string, unknown>);
  if (typeof value === 'string' && /[a-z][A-Z]/.test(value)) return labelFromName(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** The parameters a report was generated from, one "Name: value" per key in key order. */
function parametersText(parameters: Record<string, unknown>): string {
  return Object.keys(parameters)
    .sort()
    .map((key) => `${labelFromName(key)}: ${parameterValue(parameters[key])}`)
    .join('; ');
}

/** The controlled layout around a report's content: what comes before it and after it. */
function controlledLayout(input: ControlledLayoutInput) {
  const status = statusText(input.status, input.signatureState);
  const when = `${formatDateTime(input.generatedAt, input.settings)} (${input.settings.timezone})`;
  const doc: Record<string, unknown> = {
    ...landscapePage(input.title, input.generatedBy, input.fontSize ?? 8),
    pageMargins: [30, 36, 30, 36],
  };
  if (isDraft(input.status))
    doc.watermark = { text: DRAFT_WATERMARK, color: '#b00020', opacity: 0.12, bold: true };
  return {
    doc,
    before: [
      { text: input.title, style: 'title' },
      {
        text: `${input.facilityName} · ${input.number} version ${input.versionNumber} · ${status}`,
        margin: [0, 2, 0, 8],
      },
      ...historyStartNote(input),
    ],
    after: () => [...signaturePage(input), ...regenerationPage(input)],
    frame: {
      header: {
        left: `${input.facilityName} · ${input.title}`,
        right: `${input.number} v${input.versionNumber} · ${status}`,
      },
      footer: `Generated by ${input.generatedBy} on ${when}`,
      footerRight: `Data ${shortHash(input.dataHash)}`,
    },
  };
}

/** The pdfmake document and the page frame of a controlled report. */
export function controlledPdfDefinition(input: ControlledPdfInput) {
  const { doc, before, after, frame } = controlledLayout(input);
  return { doc: { ...doc, content: [...before, ...input.content, ...after()] }, frame };
}

export function renderControlledPdf(input: ControlledPdfInput): Promise<Buffer> {
  const { doc, frame } = controlledPdfDefinition(input);
  return renderPdfDocument(doc, frame);
}

/**
 * A stored report's PDF, written to a file: its content comes as parts, each built only when
 * the layout reaches it (`ReportKind.pdfParts`), so a report of 5,000 products is never held
 * whole, as content or as bytes (issue 34).
 */
export function renderControlledPdfFile(
  input: ControlledLayoutInput & { parts: Iterable<unknown[]> },
): Promise<PdfFile> {
  const { doc, before, after, frame } = controlledLayout(input);
  function* content() {
    yield before;
    yield* input.parts;
    yield after();
  }
  return renderPdfFile(doc, frame, content());
}

/**
 * A file drawn on request and not stored (a sampling sheet, a MAC matrix preview): the same
 * layout, numbered 'Preview', a draft, its hash that of the data it shows.
 */
export function renderPreviewPdf(preview: {
  facilityName: string;
  title: string;
  settings: DateTimeSettings;
  generatedBy: string;
  generatedAt: Date;
  data: unknown;
  parameters: Record<string, unknown>;
  content: unknown[];
  fontSize?: number;
}): Promise<Buffer> {
  return renderControlledPdf({
    facilityName: preview.facilityName,
    title: preview.title,
    number: 'Preview',
    versionNumber: 1,
    status: 'BeingBuilt',
    signatureState: null,
    settings: preview.settings,
    generatedBy: preview.generatedBy,
    generatedAt: preview.generatedAt,
    dataHash: dataHashOf(preview.data),
    files: [],
    limitsSnapshotName: null,
    parameters: preview.parameters,
    asOf: preview.generatedAt.toISOString(),
    signatures: [],
    content: preview.content,
    ...(preview.fontSize ? { fontSize: preview.fontSize } : {}),
  });
}
