import {
  COVERAGE_LABELS,
  COVERAGE_STATES,
  type TCoverageCell,
  type TCoverageState,
} from '#core/schemas/cleaning-assessments.schemas.ts';

export interface CoverageFilter {
  /** The states to show; empty or absent shows every state. */
  states?: readonly TCoverageState[];
  /** Part of a product's or a train's name. */
  text?: string;
}

export interface CoverageTrain {
  id: number;
  name: string;
}

export interface CoverageRow {
  productId: number;
  product: string;
  /** One entry per train of the layout, in its order; null where the product is not made. */
  cells: (TCoverageCell | null)[];
}

export interface CoverageLayout {
  trains: CoverageTrain[];
  rows: CoverageRow[];
  /** The cells the filter keeps, by state. */
  counts: Record<TCoverageState, number>;
}

// Numbers in names sort as numbers: Train 2 before Train 10.
const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true });

/**
 * The coverage matrix as a grid: a row per product, a column per train, both by name. A filter
 * keeps the cells whose state it names and whose product or train matches the text, and only the
 * rows and trains that keep a cell, so "gaps only" on a 1,000-product facility lists the gaps.
 */
export function layoutCoverage(
  cells: readonly TCoverageCell[],
  filter: CoverageFilter = {},
): CoverageLayout {
  const states = filter.states?.length ? new Set(filter.states) : null;
  const needle = filter.text?.trim().toLowerCase() ?? '';
  const kept = cells.filter(
    (cell) =>
      (!states || states.has(cell.state)) &&
      (!needle ||
        cell.product.toLowerCase().includes(needle) ||
        cell.train.toLowerCase().includes(needle)),
  );

  const trainNames = new Map<number, string>();
  const productNames = new Map<number, string>();
  const counts = Object.fromEntries(COVERAGE_STATES.map((s) => [s, 0])) as Record<
    TCoverageState,
    number
  >;
  for (const cell of kept) {
    trainNames.set(cell.trainId, cell.train);
    productNames.set(cell.productId, cell.product);
    counts[cell.state] += 1;
  }
  const trains = [...trainNames].map(([id, name]) => ({ id, name })).sort(byName);
  const column = new Map(trains.map((train, index) => [train.id, index]));
  const rows = new Map<number, CoverageRow>(
    [...productNames]
      .map(([id, name]) => ({ id, name }))
      .sort(byName)
      .map(({ id, name }) => [
        id,
        { productId: id, product: name, cells: trains.map((): TCoverageCell | null => null) },
      ]),
  );
  for (const cell of kept) {
    const row = rows.get(cell.productId);
    const index = column.get(cell.trainId);
    if (row && index !== undefined) row.cells[index] = cell;
  }
  return { trains, rows: [...rows.values()], counts };
}

/** The tooltip of a cell: what covers it, and on what. */
export function cellSummary(cell: TCoverageCell): string {
  const head = `${cell.product} on ${cell.train}: ${COVERAGE_LABELS[cell.state]}`;
  if (cell.state === 'representative' && cell.representative)
    return `${head} (${cell.representative})`;
  const evidence = cell.evidence[0];
  if (evidence && (cell.state === 'study' || cell.state === 'tightened'))
    return `${head} (${evidence.name}${cell.evidence.length > 1 ? ` and ${cell.evidence.length - 1} more` : ''})`;
  return head;
}

/** A cell needs a qualification task: not covered, or covered at a limit since tightened. */
export function isGap(state: TCoverageState): boolean {
  return state === 'notCovered' || state === 'tightened';
}

/** The colour of a state in the matrix and its legend. */
export const COVERAGE_COLOURS: Record<TCoverageState, string> = {
  study: '#52c41a',
  representative: '#95de64',
  tightened: '#faad14',
  notCovered: '#ff4d4f',
};

/** A one-letter mark in each cell, so the matrix reads without colour too. */
export const COVERAGE_MARKS: Record<TCoverageState, string> = {
  study: 'S',
  representative: 'R',
  tightened: 'T',
  notCovered: '✕',
};
