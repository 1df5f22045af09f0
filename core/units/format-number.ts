/*
 * The one number formatter of every screen, PDF and xlsx (issue 30): a fixed count of
 * significant digits (the facility's, 4 by default), thousands separators, never e-notation and
 * never a non-zero value rounded away to 0. 21 CFR 211.194(a) asks for records a reviewer can
 * check: the same value reads the same on the screen, in the PDF and in the workbook.
 */

export const DEFAULT_SIGNIFICANT_DIGITS = 4;
export const MIN_SIGNIFICANT_DIGITS = 2;
export const MAX_SIGNIFICANT_DIGITS = 8;

/** A facility's setting made safe: whole, within 2–8, the default when absent. */
export function significantDigits(digits: number | null | undefined): number {
  if (typeof digits !== 'number' || !Number.isFinite(digits)) return DEFAULT_SIGNIFICANT_DIGITS;
  return Math.min(MAX_SIGNIFICANT_DIGITS, Math.max(MIN_SIGNIFICANT_DIGITS, Math.round(digits)));
}

/** Groups of three with commas: '79100' → '79,100'. */
function group(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The digits and decimal point of |value| at `digits` significant digits, as a plain decimal:
 * toPrecision gives the rounding (it never rounds a non-zero value to 0), and its e-notation,
 * when it uses one, is written out here.
 */
function plainDecimal(magnitude: number, digits: number): string {
  const precise = magnitude.toPrecision(digits);
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(precise);
  if (!match) return precise;
  const mantissa = `${match[1] ?? ''}${match[2] ?? ''}`;
  const exponent = Number(match[3]);
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${mantissa}`;
  const whole = exponent + 1;
  return whole >= mantissa.length
    ? mantissa + '0'.repeat(whole - mantissa.length)
    : `${mantissa.slice(0, whole)}.${mantissa.slice(whole)}`;
}

/**
 * A number as people read it: 0.0003057, 5.602, 2,006, 79,100, 0.00000174. Integer digits above
 * the significant ones are kept (210,000 cm², not 2.1e5); trailing zeros are dropped.
 */
export function formatNumber(value: number, digits: number = DEFAULT_SIGNIFICANT_DIGITS): string {
  if (Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  // The facility's setting is 2–8 (significantDigits); a caller may ask for more where every
  // digit matters (a production's summed area), up to what a double holds.
  const n = Number.isFinite(digits) ? Math.min(15, Math.max(1, Math.round(digits))) : 4;
  // Above the significant digits every integer digit stays: rounding 79,146 to 79,150 would
  // write a figure nobody measured.
  if (magnitude >= 10 ** n) {
    const integer = magnitude < Number.MAX_SAFE_INTEGER ? Math.round(magnitude) : magnitude;
    return sign + group(BigInt(integer).toString());
  }
  const [integer = '0', fraction = ''] = plainDecimal(magnitude, n).split('.');
  const kept = fraction.replace(/0+$/, '');
  return sign + group(integer) + (kept ? `.${kept}` : '');
}

/*
 * Units as people write them: the catalogue's keys (core/units/units.ts) are ASCII ('sqcm',
 * 'ug/sqcm'); screens and documents show mg/cm², µg/swab.
 */
const UNIT_WORDS: Record<string, string> = {
  sqcm: 'cm²',
  sqdm: 'dm²',
  sqm: 'm²',
  sqin: 'in²',
  sqft: 'ft²',
  ug: 'µg',
  percent: '%',
};

/** 'mg/sqcm' → 'mg/cm²', 'ug' → 'µg'; a unit outside the catalogue as it is. */
export function unitLabel(unit: string): string {
  return unit
    .split('/')
    .map((part) => part.replace(/^\s*(\S+)/, (_all, word: string) => UNIT_WORDS[word] ?? word))
    .join('/');
}

/** A value with its unit: '0.0003057 mg/swab', '79,100 cm²'; '—' with no value. */
export function formatQuantity(
  value: number | null | undefined,
  unit: string,
  digits: number = DEFAULT_SIGNIFICANT_DIGITS,
): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  const label = unitLabel(unit);
  const number = formatNumber(value, digits);
  return label === '%' ? `${number} %` : label ? `${number} ${label}` : number;
}

/**
 * The Excel number format that shows a cell as formatNumber shows it: the cell keeps the full
 * value (a reviewer can recompute from it), the format only rounds what is displayed.
 */
export function excelNumberFormat(
  value: number,
  digits: number = DEFAULT_SIGNIFICANT_DIGITS,
): string {
  const decimals = formatNumber(value, digits).split('.')[1]?.length ?? 0;
  return decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`;
}
