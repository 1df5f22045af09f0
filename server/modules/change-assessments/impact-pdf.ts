import type {
  TImpactItem,
  TImpactPair,
  TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';
import { criteriaSentence, limitStays } from '#core/assessments/criteria-sentence.ts';
import { criterionName } from '#core/labels/enum-labels.ts';
import { DEFAULT_DATE_TIME_SETTINGS } from '#core/datetime/format-date-time.ts';
import { dataHashOf, renderControlledPdf } from '../reports/controlled-pdf.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { KIND_LABELS, decidedText, decisionLabel, metaRows, summaryRows } from './impact-export.ts';
import type { ImpactExportMeta } from './impact-export.ts';

// Roboto, the font pdfmake embeds, has no arrows.
const plain = (text: string) => text.replaceAll('→', '->');
const th = (text: string) => ({ text, style: 'th' });

function limitsText(item: TImpactItem, digits: number | undefined): string {
  const side = (limits: TImpactItem['before']) =>
    limits === null
      ? '—'
      : [
          limits.maco === null
            ? null
            : `MACO ${formatQuantity(limits.maco, item.units.maco, digits)}`,
          limits.sal === null ? null : `SAL ${formatQuantity(limits.sal, item.units.sal, digits)}`,
          limits.swab === null
            ? null
            : `swab ${formatQuantity(limits.swab, item.units.swab, digits)}`,
          limits.rinse === null
            ? null
            : `rinse ${formatQuantity(limits.rinse, item.units.rinse, digits)}`,
          limits.criterion === null ? null : `criterion ${criterionName(limits.criterion)}`,
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

/** Pairs whose limit stays that the PDF explains; the workbook lists them all. */
export const STAYING_PAIRS_SHOWN = 50;

/**
 * Why the limits stay (issue 30): the listed pairs whose limit stays while a criterion that does
 * not govern moved, each with its criteria before → after and the one that governs.
 */
function stayingPairs(pairs: readonly TImpactPair[], digits: number | undefined): unknown[] {
  const staying = pairs.filter(limitStays);
  if (staying.length === 0) return [];
  const shown = staying.slice(0, STAYING_PAIRS_SHOWN);
  return [
    { text: 'Why the limits stay', style: 'h2' },
    table(
      [80, 80, '*'],
      ['Previous product', 'Next product', 'Criteria before -> after'],
      shown.map((pair) => [pair.previous, pair.next, plain(criteriaSentence(pair, digits) ?? '')]),
    ),
    ...(staying.length > shown.length
      ? [
          {
            text: `The first ${shown.length} of ${staying.length} such pairs are shown; the workbook lists them all.`,
            italics: true,
          },
        ]
      : []),
  ];
}

/**
 * The impact of a change assessment as controlled-document content: the assessment and its
 * staged changes, the counts, then every impact item with its limits before and after, its
 * decision and the justification, for the record a reviewer signs. The change-assessment report
 * (server/modules/reports) prints the same.
 */
export function impactPdfContent(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
  summary: TImpactSummary,
  pairs: readonly TImpactPair[] = [],
): unknown[] {
  return [
    {
      table: { widths: [110, '*'], body: metaRows(meta, items) },
      layout: 'noBorders',
      margin: [0, 0, 0, 4],
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
            limitsText(item, meta.settings?.significantDigits),
            String(item.pairs),
            item.decision
              ? `${decisionLabel(item)}\n${decidedText(item, meta.settings)}`
              : { text: decisionLabel(item), italics: true, color: '#b00020' },
            item.decision?.justification ?? '',
          ]),
        ),
    ...stayingPairs(pairs, meta.settings?.significantDigits),
  ];
}

/**
 * The impact as it is now, in the controlled-document layout but not stored: 'Preview', under
 * the DRAFT watermark. The controlled copy is the change-assessment report.
 */
export function renderImpactPdf(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
  summary: TImpactSummary,
  generated: { by: string; at: Date } = { by: meta.evaluatedByName, at: new Date() },
  pairs: readonly TImpactPair[] = [],
): Promise<Buffer> {
  // The hash covers all the document shows: the pairs explained under "Why the limits stay" too.
  const data = { meta: { ...meta, settings: undefined }, items, summary, pairs };
  return renderControlledPdf({
    facilityName: meta.facilityName,
    title: `${meta.number} · Impact of the change`,
    number: 'Preview',
    versionNumber: 1,
    status: 'BeingBuilt',
    signatureState: null,
    settings: meta.settings ?? DEFAULT_DATE_TIME_SETTINGS,
    generatedBy: generated.by,
    generatedAt: generated.at,
    dataHash: dataHashOf(data),
    files: [],
    limitsSnapshotName: null,
    parameters: { kind: 'change-assessment', number: meta.number },
    asOf: generated.at.toISOString(),
    signatures: [],
    content: impactPdfContent(meta, items, summary, pairs),
  });
}
