import type ExcelJS from 'exceljs';
import type {
  TImpactItem,
  TImpactPair,
  TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';
import { excelNumberFormat, unitLabel } from '#core/units/format-number.ts';
import { criteriaSentence, limitStays } from '#core/assessments/criteria-sentence.ts';
import { criterionName } from '#core/labels/enum-labels.ts';
import { styleHeader } from '../master/master-export.ts';
import {
  KIND_LABELS,
  decidedText,
  decisionLabel,
  metaRows,
  summaryRows,
  unitsOf,
} from './impact-export.ts';
import type { ImpactExportMeta } from './impact-export.ts';

type Limits = TImpactItem['before'];
const LIMITS = ['maco', 'sal', 'swab', 'rinse'] as const;
const LIMIT_NAMES = { maco: 'MACO', sal: 'SAL', swab: 'Swab limit', rinse: 'Rinse limit' };

/** 'MACO before (mg)', 'MACO after (mg)', … and the criterion before and after. */
function limitHeaders(units: TImpactItem['units']): string[] {
  return [
    ...LIMITS.flatMap((key) => [
      `${LIMIT_NAMES[key]} before (${unitLabel(units[key])})`,
      `${LIMIT_NAMES[key]} after (${unitLabel(units[key])})`,
    ]),
    'Criterion before',
    'Criterion after',
  ];
}

function limitCells(before: Limits, after: Limits): (number | string | null)[] {
  return [
    ...LIMITS.flatMap((key) => [before?.[key] ?? null, after?.[key] ?? null]),
    before?.criterion ? criterionName(before.criterion) : null,
    after?.criterion ? criterionName(after.criterion) : null,
  ];
}

/**
 * A sheet whose numbers keep their full value and show, through each cell's number format, the
 * rounding the screens and the PDF show (`digits` significant digits).
 */
function sheet(
  wb: ExcelJS.Workbook,
  name: string,
  headers: string[],
  rows: unknown[][],
  digits?: number,
) {
  const ws = wb.addWorksheet(name);
  ws.columns = headers.map((header) => ({ header, key: header }));
  for (const row of rows) {
    const added = ws.addRow(row);
    row.forEach((value, i) => {
      if (typeof value === 'number') added.getCell(i + 1).numFmt = excelNumberFormat(value, digits);
    });
  }
  styleHeader(ws);
  return ws;
}

/**
 * The impact of a change assessment as a workbook: Summary (the assessment, its staged changes,
 * the counts), Impact items (with their decisions and justifications) and Pairs (the pairs
 * listed, before and after). Numbers stay numbers, in the units named in the headers.
 */
export async function renderImpactXlsx(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
  pairs: readonly TImpactPair[],
  summary: TImpactSummary,
): Promise<Buffer> {
  // exceljs takes half a second to load: only the calls that need it pay for it.
  const { default: Excel } = await import('exceljs');
  const wb = new Excel.Workbook();
  wb.creator = 'Carryover';
  wb.created = new Date();
  const units = unitsOf(items);

  const summarySheet = sheet(
    wb,
    'Summary',
    ['Field', 'Value'],
    [
      ...metaRows(meta, items),
      [],
      ['Staged change', 'Reason'],
      ...meta.changes.map((change) => [change.label, change.reason]),
      [],
      ['Impact', 'Count'],
      ...summaryRows(summary),
    ],
  );
  summarySheet.getColumn(1).width = 50;
  summarySheet.getColumn(2).width = 80;

  sheet(
    wb,
    'Impact items',
    [
      'Key',
      'Kind',
      'Subject',
      'Summary',
      'Pairs',
      'Largest change (%)',
      'Tightened',
      ...limitHeaders(units),
      'Decision',
      'Justification',
      'Decided by',
    ],
    items.map((item) => [
      item.key,
      KIND_LABELS[item.kind],
      item.subject,
      item.summary,
      item.pairs,
      item.changePercent,
      item.tightened ? 'Yes' : 'No',
      ...limitCells(item.before, item.after),
      decisionLabel(item),
      item.decision?.justification ?? '',
      decidedText(item, meta.settings),
    ]),
    meta.settings?.significantDigits,
  );

  sheet(
    wb,
    'Pairs',
    [
      'Previous',
      'Next',
      ...limitHeaders(units),
      'MACO change (%)',
      'SAL change (%)',
      'Swab change (%)',
      'Rinse change (%)',
      'Status',
      'Criteria before → after',
    ],
    pairs.map((pair) => [
      pair.previous,
      pair.next,
      ...limitCells(pair.before, pair.after),
      pair.macoChange,
      pair.salChange,
      pair.swabChange,
      pair.rinseChange,
      pair.before === null
        ? 'New'
        : pair.after === null
          ? 'Removed'
          : limitStays(pair)
            ? 'Limit stays'
            : 'Changed',
      criteriaSentence(pair, meta.settings?.significantDigits) ?? '',
    ]),
    meta.settings?.significantDigits,
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
}
