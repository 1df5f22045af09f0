import { formatDateTime, type DateTimeSettings } from '#core/datetime/format-date-time.ts';
import {
  auditActionLabel,
  auditChangeLines,
  auditSubject,
  type AuditNames,
} from '#core/audit/audit-format.ts';
import type { TAuditLogRow } from '#core/schemas/audit.schemas.ts';
import { landscapePage, renderPdfDocument } from '#server/util/pdf/render-pdf.ts';

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
