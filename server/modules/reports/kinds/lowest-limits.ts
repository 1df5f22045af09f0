import { LIMIT_UNITS } from '#core/schemas/limit-reports.schemas.ts';
import { formatQuantity, unitLabel } from '#core/units/format-number.ts';
import { cellNumber, type XlsxCell } from './report-xlsx.ts';

/*
 * The lowest MACO, SAL, swab and rinse limits of the limits reports (equipment limits, the
 * production limits of every production) and the pair that set each, as PDF cells and as xlsx
 * cells: the same columns in both files.
 */

type Key = keyof typeof LIMIT_UNITS;
const KEYS = ['maco', 'sal', 'swab', 'rinse'] as const satisfies readonly Key[];

/** A lowest limit as the reports hold it: no value (null or NaN) when no pair gives one. */
interface Lowest {
  value: number | null;
  pair: readonly [string, string] | null;
}
export type LowestOf = Record<Key, Lowest>;

/** Each limit's heading and the heading of the pair that set it, in the order of the cells. */
export const lowestHeaders = (labels: Record<Key, string>): string[] =>
  KEYS.flatMap((key) => [
    `${labels[key]} (${unitLabel(LIMIT_UNITS[key])})`,
    `${labels[key]} set by`,
  ]);

/** PDF column widths: each limit's value `width` wide, its pair taking what is left. */
export const lowestWidths = (width: number): (number | string)[] =>
  KEYS.flatMap(() => [width, '*']);

// Roboto, the font pdfmake embeds, has no arrows: pairs read 'A -> B' in the PDF.
const pairText = (pair: Lowest['pair'], arrow: string) =>
  pair ? `${pair[0]}${arrow}${pair[1]}` : null;

/** The PDF cells: each limit at the facility's significant digits ('—' for none), its pair. */
export const lowestPdfCells = (l: LowestOf, digits?: number): string[] =>
  KEYS.flatMap((key) => [
    formatQuantity(l[key].value, LIMIT_UNITS[key], digits),
    pairText(l[key].pair, ' -> ') ?? '—',
  ]);

/** The xlsx cells: each limit at full precision (an empty cell for none), its pair. */
export const lowestXlsxCells = (l: LowestOf): XlsxCell[] =>
  KEYS.flatMap((key) => [cellNumber(l[key].value), pairText(l[key].pair, ' → ')]);
