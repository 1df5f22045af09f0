/**
 * An area as a reviewer checks it against the equipment list: every significant digit up to
 * ten (15184.516 sqcm stays 15184.516), never rounded to four digits as limits are.
 */
export function formatArea(area: { value: number; unit: string } | null | undefined): string {
  if (!area) return '—';
  return `${Number(area.value.toPrecision(10))} ${area.unit}`;
}

/** The change a draft makes to a saved total, signed: "+64.516 sqcm", "−120 sqcm". */
export function formatAreaChange(before: number, after: number, unit: string): string {
  const delta = Number((after - before).toPrecision(10));
  if (delta === 0) return `no change`;
  return `${delta > 0 ? '+' : '−'}${Math.abs(delta)} ${unit}`;
}
