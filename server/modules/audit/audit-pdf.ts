import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { formatDateTime, type DateTimeSettings } from '../../../core/datetime/format-date-time.ts';
import {
  auditActionLabel,
  auditChangeLines,
  auditSubject,
  type AuditNames,
} from '../../../core/audit/audit-format.ts';
import type { TAuditLogRow } from '../../../core/schemas/audit.schemas.ts';

const require = createRequire(import.meta.url);
const PDFMAKE = require.resolve('pdfmake');
const FONTS = require.resolve('pdfmake/fonts/Roboto.js');

/**
 * pdfmake lays a document out in one synchronous pass (about 2 s for 3,000 rows), so it runs
 * in a worker thread and the server keeps answering meanwhile. The worker is plain CommonJS
 * given as source, so it runs the same under tsx, Vitest and the bundled server. Fonts are the
 * only local files it may read, and it fetches nothing from the network.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pdfmake = require(workerData.pdfmake);
pdfmake.setFonts(require(workerData.fonts));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => path.startsWith(workerData.fontDir));
const doc = workerData.doc;
const frame = workerData.frame;
if (frame.header) {
  doc.header = () => ({
    columns: [
      { text: frame.header.left, fontSize: 7, bold: true },
      { text: frame.header.right, alignment: 'right', fontSize: 7 },
    ],
    margin: [30, 12, 30, 0],
  });
}
doc.footer = (page, pages) => ({
  columns: [
    { text: frame.footer, fontSize: 7, color: '#555555' },
    {
      text: 'Page ' + page + ' of ' + pages + (frame.footerRight ? ' · ' + frame.footerRight : ''),
      alignment: 'right',
      fontSize: 7,
    },
  ],
  margin: [30, 8, 30, 0],
});
pdfmake.createPdf(doc).getBuffer().then(
  (buffer) => parentPort.postMessage(buffer),
  (error) => parentPort.postMessage({ error: String(error && error.stack || error) }),
);
`;

export interface AuditPdfInput {
  rows: TAuditLogRow[];
  /** Names of the records the rows are about or point to (auditNames). */
  names: AuditNames;
  facilityName: string;
  settings: DateTimeSettings;
  generatedBy: string;
  generatedAt: Date;
  /** The filters in words, e.g. 'Actions: Update; Users: Jane Doe'. */
  filterSummary: string;
  /** The head of each chain the export reads from, to compare with the signed anchors. */
  chainHeads: { chain: string; seq: number; hash: string }[];
}

function whatText(row: TAuditLogRow, names: AuditNames): string {
  return `${auditSubject(row, names)}\n${auditActionLabel(row.action)}`;
}

/**
 * The rows as a table (the export, and the audit-log report): who, what, when, why, and each
 * changed field as "label: was old, now new", formatted as the audit screen formats them.
 */
export function auditRowsTable(
  rows: readonly TAuditLogRow[],
  settings: DateTimeSettings,
  names: AuditNames = {},
) {
  if (rows.length === 0) return { text: 'No audit rows match these filters.', italics: true };
  const format = { names, formatDateTime: (iso: string) => formatDateTime(iso, settings) };
  const header = ['When', 'Who', 'Facility', 'What', 'Why', 'Changes'].map((text) => ({
    text,
    style: 'th',
  }));
  const body = rows.map((row) => [
    formatDateTime(row.at, settings),
    row.userName ?? '—',
    row.facilityName ?? 'Plan-wide',
    whatText(row, names),
    row.reason ?? '',
    auditChangeLines(row, format, true).join('\n'),
  ]);
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [80, 70, 60, 100, 110, '*'],
      body: [header, ...body],
    },
    layout: 'lightHorizontalLines',
  };
}

export function auditPdfDefinition(input: AuditPdfInput): Record<string, unknown> {
  return {
    ...landscapePage('Audit Logs', input.generatedBy, 7),
    content: [
      { text: 'Audit Logs', style: 'title' },
      {
        text: [
          `${input.facilityName} · generated ${formatDateTime(input.generatedAt, input.settings)} (${input.settings.timezone}) by ${input.generatedBy}\n`,
          `Filters: ${input.filterSummary || 'none'} · ${input.rows.length} rows`,
        ],
        margin: [0, 4, 0, 4],
      },
      {
        text: input.chainHeads.length
          ? input.chainHeads
              .map((h) => `Chain head ${h.chain}: seq ${h.seq}, hash ${h.hash}`)
              .join('\n')
          : 'Chain head: no audit rows yet',
        fontSize: 6,
        color: '#555555',
        margin: [0, 0, 0, 10],
      },
      auditRowsTable(input.rows, input.settings, input.names),
    ],
  };
}

/** Renders the audit log PDF off the main thread. */
export function renderAuditPdf(input: AuditPdfInput): Promise<Buffer> {
  const doc = auditPdfDefinition(input);
  return renderPdfDocument(doc, `Carryover · Audit Logs · ${input.facilityName}`);
}

/** The page set-up every export shares: landscape A4, the document's metadata, fonts and styles. */
export function landscapePage(title: string, author: string, fontSize: number) {
  return {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [30, 30, 30, 36],
    info: { title, author, creator: 'Carryover' },
    defaultStyle: { fontSize },
    styles: {
      title: { fontSize: 16, bold: true, color: '#0b6e4f' },
      h2: { fontSize: 11, bold: true, margin: [0, 10, 0, 4] },
      th: { bold: true, fillColor: '#e8f0ec' },
    },
  };
}

/**
 * What every page carries besides the content: the footer's text, then 'Page x of y' and
 * `footerRight` on its right; a header line when given (controlled documents,
 * server/modules/reports/controlled-pdf.ts).
 */
export interface PdfFrame {
  footer: string;
  footerRight?: string;
  header?: { left: string; right: string };
}

/** Renders any pdfmake document off the main thread, with its frame on each page. */
export function renderPdfDocument(
  doc: Record<string, unknown>,
  frame: string | PdfFrame,
): Promise<Buffer> {
  const pageFrame = typeof frame === 'string' ? { footer: frame } : frame;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        pdfmake: PDFMAKE,
        fonts: FONTS,
        fontDir: dirname(FONTS),
        doc,
        frame: pageFrame,
      },
    });
    worker.once('message', (message: Uint8Array | { error: string }) => {
      void worker.terminate();
      if (message instanceof Uint8Array) resolve(Buffer.from(message));
      else reject(new Error(`PDF rendering failed: ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`PDF worker exited with ${code}`));
    });
  });
}
