import { formatDateTime, type DateTimeSettings } from '../../../core/datetime/format-date-time.ts';
import type { TAuditLogRow } from '../../../core/schemas/audit.schemas.ts';
import { landscapePage, renderPdfDocument } from '../../util/pdf/render-pdf.ts';

export interface AuditPdfInput {
  rows: TAuditLogRow[];
  facilityName: string;
  settings: DateTimeSettings;
  generatedBy: string;
  generatedAt: Date;
  /** The filters in words, e.g. 'Actions: Update; Users: Jane Doe'. */
  filterSummary: string;
  /** The head of each chain the export reads from, to compare with the signed anchors. */
  chainHeads: { chain: string; seq: number; hash: string }[];
}

/** 'field: value' per line; JSON for what is not a plain value. */
export function valuesText(values: Record<string, unknown> | null): string {
  if (!values) return '';
  return Object.entries(values)
    .map(([field, value]) => {
      const text =
        value === null || value === undefined
          ? '—'
          : typeof value === 'string'
            ? value
            : JSON.stringify(value);
      return `${field}: ${text}`;
    })
    .join('\n');
}

function whatText(row: TAuditLogRow): string {
  return [`${row.domain} · ${row.action}`, row.entityId ? `Entity ${row.entityId}` : null]
    .filter(Boolean)
    .join('\n');
}

/** The rows as a table (the export, and the audit-log report): who, what, when, why. */
export function auditRowsTable(rows: readonly TAuditLogRow[], settings: DateTimeSettings) {
  if (rows.length === 0) return { text: 'No audit rows match these filters.', italics: true };
  const header = ['When', 'Who', 'Facility', 'What', 'Why', 'Old values', 'New values'].map(
    (text) => ({ text, style: 'th' }),
  );
  const body = rows.map((row) => [
    formatDateTime(row.at, settings),
    row.userName ?? '—',
    row.facilityName ?? 'Plan-wide',
    whatText(row),
    row.reason ?? '',
    valuesText(row.oldValues),
    valuesText(row.newValues),
  ]);
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [80, 70, 60, 90, 100, '*', '*'],
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
      auditRowsTable(input.rows, input.settings),
    ],
  };
}

/** Renders the audit log PDF off the main thread. */
export function renderAuditPdf(input: AuditPdfInput): Promise<Buffer> {
  const doc = auditPdfDefinition(input);
  return renderPdfDocument(doc, `Carryover · Audit Logs · ${input.facilityName}`);
}
