import type ExcelJS from 'exceljs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { CRITERION_KEYS, FORMULA, PRODUCT, compileLimits } from '#core/limits/compile.ts';
import type { CompiledLimits } from '#core/limits/compile.ts';
import { matrixPairs, newSummary } from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { pairFlags } from '#core/limits/pair-flags.ts';
import { criterionLabel } from '#core/labels/enum-labels.ts';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import {
  DEFAULT_SIGNIFICANT_DIGITS,
  excelNumberFormat,
  unitLabel,
} from '#core/units/format-number.ts';
import { macInputRows } from './mac-matrix-inputs.ts';

export interface MacXlsxMeta {
  facilityName: string;
  productionName: string | null;
  exportedBy: string;
  exportedAt: Date;
  /** The moment the data and policy were read as of (`asOf`); the export itself when absent. */
  asOf?: string | undefined;
  /** Products and equipment left out because their data cannot be computed, and why. */
  uncomputable?: readonly TUncomputable[];
  /** The facility's significant digits, which the cells' number formats show. */
  significantDigits?: number | undefined;
}

/**
 * Up to this many products each number carries the number format that rounds it as the screens
 * do (its value stays whole). A style per cell doubles the time per cell, so a larger matrix is
 * written unstyled: full values in Excel's General format, said on the Inputs sheet.
 */
const STYLED_PRODUCTS = 200;

/** Adds a row whose numbers show at `digits` significant digits, when `digits` is given. */
function addRow(sheet: ExcelJS.Worksheet, values: (string | number | null)[], digits?: number) {
  const row = sheet.addRow(values);
  if (digits !== undefined) {
    values.forEach((value, i) => {
      if (typeof value === 'number') row.getCell(i + 1).numFmt = excelNumberFormat(value, digits);
    });
  }
  row.commit();
}

/** Excel's last row; a larger matrix continues on "Pairs (2)", "Pairs (3)" … */
const MAX_ROWS = 1_048_576;
const CRITERION_HEADERS: Record<string, string> = {
  health: 'Health-based MACO (mg)',
  dose: 'Dose-based MACO (mg)',
  ld50: 'LD50-based MACO (mg)',
  arl: 'General limit (ARL) MACO (mg)',
  product: 'Product limit MACO (mg)',
  formula: 'MAC formula MACO (mg)',
};
const finite = (v: number) => (Number.isFinite(v) ? v : null);

/** Bytes a stream holds, read from its state: archiver's streams (readable-stream 2) have no writableLength. */
interface StreamState {
  _writableState?: { length?: number };
  _readableState?: { length?: number };
}
const held = (s: StreamState) => (s._writableState?.length ?? 0) + (s._readableState?.length ?? 0);

/**
 * exceljs's streaming writer ignores back-pressure: each sheet is piped into the zip archive,
 * which buffers what the socket has not taken yet. Waiting whenever that buffer passes a few
 * megabytes keeps memory flat for a slow reader. The pipe is exceljs's own, hence the cast.
 */
async function keepPace(sheet: ExcelJS.Worksheet, isGone: () => boolean): Promise<void> {
  const stream = (sheet as unknown as { stream?: { pipes?: StreamState[] } }).stream;
  const pending = () => (stream?.pipes ?? []).reduce((sum, p) => sum + held(p), 0);
  // Yield either way, so a large export never holds the event loop (other requests, and the
  // zip's own compression, run in between).
  if (pending() < 4_000_000) return new Promise((resolve) => setImmediate(resolve));
  while (pending() > 1_000_000 && !isGone()) await sleep(2);
}

function header(sheet: ExcelJS.Worksheet, titles: string[]): void {
  sheet.addRow(titles).commit();
}

async function matrixSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  m: CompiledLimits,
  isGone: () => boolean,
  digits: number | undefined,
): Promise<void> {
  const products = m.input.products;
  const sheet = wb.addWorksheet('MAC Matrix', {
    views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }],
  });
  sheet.columns = [
    { key: 'previous', width: 28 },
    ...products.map((_p, i) => ({ key: `n${i}`, width: 14 })),
  ];
  header(sheet, ['Previous ↓ · Next → · governing MACO (mg)', ...products.map((p) => p.id)]);
  const cells = new Array<number | string | null>(products.length);
  let written = 0;
  const writeRowsUpTo = async (last: number, current: number) => {
    for (; written <= last; written++) {
      if (written !== current) cells.fill(null);
      addRow(sheet, [products[written]?.id ?? '', ...cells], digits);
      await keepPace(sheet, isGone);
    }
  };
  let current = -1;
  cells.fill(null);
  for (const view of matrixPairs(m, newSummary(m))) {
    if (isGone()) return;
    if (view.previous !== current) {
      if (current >= 0) await writeRowsUpTo(current, current);
      await writeRowsUpTo(view.previous - 1, -1);
      current = view.previous;
      cells.fill(null);
    }
    // A pair that shares equipment but has no criterion is not "no limit needed".
    cells[view.next] = finite(view.maco) ?? 'no limit';
  }
  if (current >= 0) await writeRowsUpTo(current, current);
  await writeRowsUpTo(products.length - 1, -1);
  sheet.commit();
}

async function pairsSheets(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  m: CompiledLimits,
  isGone: () => boolean,
  digits: number | undefined,
): Promise<number> {
  const { products, equipment, sampling } = m.input;
  // The criteria the pairs carry: the product limit where the policy uses it, the facility's
  // approved MAC formulas where it has any (the lowest of them, as the engine takes it).
  const criteria = CRITERION_KEYS.map((key, index) => ({ key, index })).filter(
    ({ index }) =>
      index < PRODUCT ||
      (index === PRODUCT && m.useProductLimit) ||
      (index === FORMULA && m.macFormulas !== null),
  );
  const titles = [
    'Previous product',
    'Next product',
    'Shared equipment',
    `Shared area (${unitLabel('sqcm')})`,
    ...criteria.map(({ key }) => CRITERION_HEADERS[key] ?? key),
    'Governing criterion',
    'Governing active',
    'MACO (mg)',
    `SAL (${unitLabel('mg/sqcm')})`,
    'SAL capped at residue limit',
    'Swab limit (mg/swab)',
    'Rinse limit (mg/ml)',
    'Flags',
  ];
  let sheet: ExcelJS.Worksheet | null = null;
  let sheetNumber = 0;
  let rows = 0;
  let pairs = 0;
  const open = () => {
    sheet?.commit();
    sheetNumber++;
    sheet = wb.addWorksheet(sheetNumber === 1 ? 'Pairs' : `Pairs (${sheetNumber})`, {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    sheet.columns = titles.map((t, i) => ({
      key: `c${i}`,
      width: i < 3 ? 24 : Math.max(12, Math.min(t.length, 22)),
    }));
    header(sheet, titles);
    rows = 1;
    return sheet;
  };
  let current: ExcelJS.Worksheet = open();
  for (const view of matrixPairs(m, newSummary(m))) {
    if (isGone()) return pairs;
    if (rows >= MAX_ROWS) current = open();
    const shared: string[] = [];
    for (let i = 0; i < view.sharedCount; i++)
      shared.push(equipment[view.shared[i] ?? 0]?.id ?? '');
    const previous = products[view.previous];
    addRow(
      current,
      [
        previous?.id ?? '',
        products[view.next]?.id ?? '',
        shared.join(', '),
        finite(view.area),
        ...criteria.map(({ index }) => finite(view.criteria[index] ?? Number.NaN)),
        view.governing === -1 ? null : criterionLabel(CRITERION_KEYS[view.governing] ?? ''),
        view.governingActive === -1 ? null : (previous?.actives[view.governingActive]?.id ?? null),
        finite(view.maco),
        finite(view.sal),
        view.salCapped ? 'yes' : 'no',
        sampling.swabArea ? finite(view.swabLimit) : null,
        sampling.rinseVolume ? finite(view.rinseLimit) : null,
        pairFlags(view).join('; ') || null,
      ],
      digits,
    );
    rows++;
    pairs++;
    if (pairs % 256 === 0) await keepPace(current, isGone);
  }
  (current as ExcelJS.Worksheet).commit();
  return pairs;
}

/**
 * The MAC matrix as an xlsx workbook streamed into `out`: "MAC Matrix" (previous × next,
 * governing MACO), "Pairs" (every criterion, limit and flag of each pair) and "Inputs" (the
 * policy, units, date and who exported). The matrix runs once per sheet instead of being kept,
 * so memory does not grow with the number of pairs. Resolves with the number of pairs.
 */
export async function writeMacMatrixXlsx(
  input: LimitsInput,
  meta: MacXlsxMeta,
  out: Writable,
  isGone: () => boolean,
): Promise<number> {
  // exceljs takes half a second to load: only the calls that need it pay for it.
  const { default: Excel } = await import('exceljs');
  // Styles double the time per cell, and a 1,000-product matrix has millions of cells: only a
  // matrix of up to STYLED_PRODUCTS products carries number formats.
  const styled = input.products.length <= STYLED_PRODUCTS;
  const digits = styled ? (meta.significantDigits ?? DEFAULT_SIGNIFICANT_DIGITS) : undefined;
  const wb = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: styled });
  wb.creator = 'Carryover';
  wb.created = meta.exportedAt;
  const m = compileLimits(input);
  await matrixSheet(wb, m, isGone, digits);
  const pairs = await pairsSheets(wb, m, isGone, digits);
  if (!isGone()) {
    const inputs = wb.addWorksheet('Inputs');
    inputs.columns = [
      { key: 'field', width: 36 },
      { key: 'value', width: 40 },
      { key: 'unit', width: 14 },
    ];
    inputs.addRow(['Field', 'Value', 'Unit']).commit();
    for (const row of macInputRows(input, meta, pairs)) inputs.addRow(row).commit();
    if (!styled)
      inputs
        .addRow([
          'Number format',
          `Full values in Excel's General format: a matrix of more than ${STYLED_PRODUCTS} products is written without rounding formats`,
          null,
        ])
        .commit();
    for (const u of meta.uncomputable ?? [])
      inputs.addRow([`Left out: ${u.kind} ${u.id}`, u.reason, null]).commit();
    inputs.commit();
  }
  // A reader that leaves mid-way never lets the workbook finish: 'close' ends the wait.
  await new Promise<void>((resolve, reject) => {
    const closed = () => {
      (wb as unknown as { zip: { abort(): void } }).zip.abort();
      resolve();
    };
    if (isGone()) return closed();
    out.once('close', closed);
    wb.commit().then(() => {
      out.off('close', closed);
      resolve();
    }, reject);
  });
  return pairs;
}
