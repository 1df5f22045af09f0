import { CRITERION_KEYS, compileLimits, type CompiledLimits } from '#core/limits/compile.ts';
import { evaluatePairAt, newPairView, runMatrix, type PairView } from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { pairFlags } from '#core/limits/pair-flags.ts';
import type { TCell } from '#core/schemas/custom-reports.schemas.ts';
import { IntList } from '../limits/mac-pairs.ts';
import type { ParsedFilter } from './table-sources.ts';

type Getter = (m: CompiledLimits, view: PairView) => TCell;

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
const productName = (m: CompiledLimits, index: number) => m.input.products[index]?.id ?? null;

/** Each pair column read off the engine's pair view, in the units of GET mac-matrix/pairs. */
const GETTERS: Record<string, Getter> = {
  previous: (m, v) => productName(m, v.previous),
  next: (m, v) => productName(m, v.next),
  sharedEquipment: (m, v) =>
    Array.from(v.shared.subarray(0, v.sharedCount), (e) => m.input.equipment[e]?.id ?? '').join(
      ', ',
    ),
  area: (_m, v) => finite(v.area),
  governing: (_m, v) => (v.governing === -1 ? null : (CRITERION_KEYS[v.governing] ?? null)),
  governingActive: (m, v) =>
    v.governingActive === -1
      ? null
      : (m.input.products[v.previous]?.actives[v.governingActive]?.id ?? null),
  maco: (_m, v) => finite(v.maco),
  sal: (_m, v) => finite(v.sal),
  salCapped: (_m, v) => v.salCapped,
  swabLimit: (m, v) => (m.input.sampling.swabArea ? finite(v.swabLimit) : null),
  rinseLimit: (m, v) => (m.input.sampling.rinseVolume ? finite(v.rinseLimit) : null),
  flags: (_m, v) => pairFlags(v).join('; ') || null,
};

/** The in-process twin of the SQL conditions of table-sources.ts; a missing value matches nothing. */
export function cellMatches(cell: TCell, filter: ParsedFilter): boolean {
  if (cell === null) return false;
  const wanted = filter.value;
  if (filter.operator === 'Contains') {
    return String(cell).toLowerCase().includes(String(wanted).toLowerCase());
  }
  const a = typeof cell === 'string' ? cell.toLowerCase() : cell;
  const b = typeof wanted === 'string' ? wanted.toLowerCase() : wanted;
  switch (filter.operator) {
    case 'EqualTo':
      return a === b;
    case 'LessThan':
      return a < b;
    case 'LessThanEqualTo':
      return a <= b;
    case 'GreaterThan':
      return a > b;
    case 'GreaterThanEqualTo':
      return a >= b;
  }
}

export interface PairRows {
  total: number;
  rows: Record<string, TCell>[];
}

/**
 * The matrix's pairs that pass every filter, in matrix order, and the rows from `offset` on (at
 * most `limit`). As in mac-pairs.ts, a match keeps only its two product indices, so a
 * 1,000-product facility is filtered without a million row objects.
 */
export function pairRows(
  input: LimitsInput,
  columns: readonly string[],
  filters: readonly ParsedFilter[],
  window: { offset: number; limit: number },
): PairRows {
  const m = compileLimits(input);
  const tests = filters.map((f) => ({ get: GETTERS[f.column.key], filter: f }));
  const prevs = new IntList();
  const nexts = new IntList();
  runMatrix(m, (view) => {
    for (const { get, filter } of tests) if (!get || !cellMatches(get(m, view), filter)) return;
    prevs.push(view.previous);
    nexts.push(view.next);
  });
  const view = newPairView(m.equipmentCount);
  const rows: Record<string, TCell>[] = [];
  const end = Math.min(prevs.length, window.offset + window.limit);
  for (let i = window.offset; i < end; i++) {
    evaluatePairAt(m, prevs.items[i] ?? 0, nexts.items[i] ?? 0, view);
    rows.push(Object.fromEntries(columns.map((key) => [key, GETTERS[key]?.(m, view) ?? null])));
  }
  return { total: prevs.length, rows };
}
