import { formatNumber, unitLabel } from '#core/units/format-number.ts';

/** Ten significant digits: a summed area keeps what its equipment's areas hold. */
const AREA_DIGITS = 10;

/**
 * An area as a reviewer checks it against the equipment list: every significant digit up to
 * ten (15,184.516 cm² stays 15,184.516), never rounded to four digits as limits are.
 */
export function formatArea(area: { value: number; unit: string } | null | undefined): string {
  if (!area) return '—';
  return `${formatNumber(area.value, AREA_DIGITS)} ${unitLabel(area.unit)}`;
}

/** The change a draft makes to a saved total, signed: "+64.516 cm²", "−120 cm²". */
export function formatAreaChange(before: number, after: number, unit: string): string {
  const delta = Number((after - before).toPrecision(AREA_DIGITS));
  if (delta === 0) return `no change`;
  return `${delta > 0 ? '+' : '−'}${formatNumber(Math.abs(delta), AREA_DIGITS)} ${unitLabel(unit)}`;
}
