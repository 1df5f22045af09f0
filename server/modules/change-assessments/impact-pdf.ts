import type {
  TImpactItem,
  TImpactSummary,
} from '../../../core/schemas/change-assessments.schemas.ts';
import { landscapePage, renderPdfDocument } from '../audit/audit-pdf.ts';
import { formatLimit } from '../limits/mac-production-pdf.ts';
import { KIND_LABELS, decidedText, decisionLabel, metaRows, summaryRows } from './impact-export.ts';
import type { ImpactExportMeta } from './impact-export.ts';

// Roboto, the font pdfmake embeds, has no arrows.
const plain = (text: string) => text.replaceAll('→', '->');
const th = (text: string) => ({ text, style: 'th' });

function limitsText(item: TImpactItem): string {
  const side = (limits: TImpactItem['before']) =>
    limits === null
      ? '—'
      : [
          limits.maco === null ? null : `MACO ${formatLimit(limits.maco, item.units.maco)}`,
          limits.sal === null ? null : `SAL ${formatLimit(limits.sal, item.units.sal)}`,
          limits.swab === null ? null : `swab ${formatLimit(limits.swab, item.units.swab)}`,
          limits.rinse === null ? null : `rinse ${formatLimit(limits.rinse, item.units.rinse)}`,
          limits.criterion === null ? null : `criterion ${limits.criterion}`,
        ]
          .filter(Boolean)
          .join('\n');
  return `Before:\n${side(item.before)}\nAfter:\n${side(item.after)}`;
}

function table(widths: unknown[], header: string[], rows: unknown[][]): unknown {
  return {
    table: { headerRows: 1, dontBreakRows: true, widths, body: [header.map(th), ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 6],
  };
}

/**
 * The impact of a change assessment as a pdfmake document: the assessment and its staged
 * changes, the counts, then every impact item with its limits before and after, its decision
 * and the justification, for the record a reviewer signs.
 */
export function impactPdfDefinition(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
  summary: TImpactSummary,
): Record<string, unknown> {
  const title = `${meta.number} · Impact of the change`;
  return {
    ...landscapePage(title, meta.evaluatedByName, 8),
    content: [
      { text: title, style: 'title' },
      {
        table: { widths: [110, '*'], body: metaRows(meta, items) },
        layout: 'noBorders',
        margin: [0, 6, 0, 4],
      },
      { text: 'Staged changes', style: 'h2' },
      meta.changes.length === 0
        ? { text: 'No changes are staged.', italics: true }
        : table(
            [20, '*', '*'],
            ['#', 'Change', 'Reason'],
            meta.changes.map((change, i) => [String(i + 1), plain(change.label), change.reason]),
          ),
      { text: 'Summary', style: 'h2' },
      table(
        [250, 60],
        ['', 'Count'],
        summaryRows(summary).map(([label, count]) => [label, String(count)]),
      ),
      { text: 'Impact items', style: 'h2' },
      items.length === 0
        ? { text: 'The change moves no limit: there is nothing to decide.', italics: true }
        : table(
            [70, 80, '*', 120, 35, 70, '*'],
            ['Kind', 'Subject', 'What moves', 'Limits', 'Pairs', 'Decision', 'Justification'],
            items.map((item) => [
              KIND_LABELS[item.kind],
              plain(item.subject),
              plain(item.summary),
              limitsText(item),
              String(item.pairs),
              item.decision
                ? `${decisionLabel(item)}\n${decidedText(item, meta.settings)}`
                : { text: decisionLabel(item), italics: true, color: '#b00020' },
              item.decision?.justification ?? '',
            ]),
          ),
    ],
  };
}

export function renderImpactPdf(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
  summary: TImpactSummary,
): Promise<Buffer> {
  return renderPdfDocument(
    impactPdfDefinition(meta, items, summary),
    `Carryover · ${meta.number} · Impact of the change · ${meta.facilityName}`,
  );
}
