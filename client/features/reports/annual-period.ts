/**
 * The period an annual summary is offered for: the year that follows the latest summary's end,
 * so consecutive reviews leave no gap (21 CFR 211.180(e): records reviewed at least annually);
 * with no summary yet, the twelve months ending today. Never a period ending after today.
 * Dates are whole UTC days, 'YYYY-MM-DD'.
 */
export function nextAnnualPeriod(
  previousEnds: readonly string[],
  today: string,
): { start: string; end: string } {
  const latest = previousEnds
    .filter((end) => /^\d{4}-\d{2}-\d{2}$/.test(end))
    .sort()
    .at(-1);
  if (!latest || latest >= today) {
    const start = addDays(yearBefore(today), 1);
    return { start, end: today };
  }
  const start = addDays(latest, 1);
  const end = addDays(yearAfter(start), -1);
  return { start, end: end < today ? end : today };
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The same day a year before (29 February to 28 February in a common year). */
function yearBefore(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y - 1, m, 0)).getUTCDate();
  return new Date(Date.UTC(y - 1, m - 1, Math.min(d, last))).toISOString().slice(0, 10);
}

/** The same day a year on (29 February to 1 March in a common year, so a year is whole). */
function yearAfter(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10);
}
