import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import type { XlsxCell } from './report-xlsx.ts';

/** What the engine left out of a limits report, and why: a PDF section (none when nothing). */
export function leftOutContent(uncomputable: readonly TUncomputable[]): unknown[] {
  if (uncomputable.length === 0) return [];
  return [
    { text: 'Left out: their data cannot be computed', style: 'h2' },
    { ul: uncomputable.map((u) => `${u.kind} ${u.id}: ${u.reason}`) },
  ];
}

/** The same as an xlsx sheet. */
export function leftOutSheet(uncomputable: readonly TUncomputable[]) {
  const rows: XlsxCell[][] = [
    ['Kind', 'Name', 'Reason'],
    ...uncomputable.map((u) => [u.kind, u.id, u.reason]),
  ];
  return { name: 'Left out', rows };
}
