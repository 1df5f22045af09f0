/**
 * Four significant digits, as a reviewer reads a limit, without trailing zeros; very small and
 * very large values in scientific notation so 0.000000396 never shows as 0.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  // Above four digits every integer digit is kept: 210000 sqcm, not 2.1e5.
  if (magnitude >= 1e4 && magnitude < 1e15) return Math.round(value).toString();
  if (magnitude >= 1e-4) return Number(value.toPrecision(4)).toString();
  return value.toExponential(3).replace(/\.?0+e/, 'e');
}
