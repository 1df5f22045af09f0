import { CRITERION_KEYS } from '#core/limits/compile.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import { PAIR_FLAG_TEXTS, pairFlags } from '#core/limits/pair-flags.ts';
import type { TMacGrid } from '#core/schemas/mac-matrix.schemas.ts';
import { historyNote } from '#server/entities/entity-store.ts';
import type { MacMatrixState } from './mac-matrix-cache.ts';

const FLAG_TEXTS: string[] = Object.values(PAIR_FLAG_TEXTS);
const orNull = (value: number) => (Number.isFinite(value) ? value : null);

/** Every pair of the matrix in columns (ZMacGrid). Pairs come previous product by previous product. */
export function macGrid(
  state: Pick<MacMatrixState, 'compiled' | 'uncomputable' | 'historyStartsAt'>,
): TMacGrid {
  const m = state.compiled();
  const products = m.input.products;
  const actives: string[] = [];
  const activeIndex = new Map<string, number>();
  const counts = new Array<number>(m.productCount).fill(0);
  const grid: TMacGrid = {
    products: products.map((p) => p.id),
    actives,
    criteria: [...CRITERION_KEYS],
    flagTexts: FLAG_TEXTS,
    units: { maco: 'mg', sal: 'mg/sqcm' },
    rowStart: [0],
    next: [],
    maco: [],
    sal: [],
    governing: [],
    governingActive: [],
    salCapped: [],
    flags: [],
    uncomputable: state.uncomputable,
    // Last, as on the other views read as of a moment: a record read from before its history began.
    ...historyNote([state]),
  };
  runMatrix(m, (view) => {
    counts[view.previous] = (counts[view.previous] ?? 0) + 1;
    grid.next.push(view.next);
    grid.maco.push(orNull(view.maco));
    grid.sal.push(orNull(view.sal));
    grid.governing.push(view.governing);
    const active =
      view.governingActive === -1
        ? undefined
        : products[view.previous]?.actives[view.governingActive]?.id;
    let a = active === undefined ? -1 : (activeIndex.get(active) ?? -1);
    if (active !== undefined && a === -1) {
      a = actives.push(active) - 1;
      activeIndex.set(active, a);
    }
    grid.governingActive.push(a);
    grid.salCapped.push(view.salCapped ? 1 : 0);
    let bits = 0;
    for (const flag of pairFlags(view)) bits |= 1 << FLAG_TEXTS.indexOf(flag);
    grid.flags.push(bits);
  });
  counts.forEach((count, p) => grid.rowStart.push((grid.rowStart[p] ?? 0) + count));
  return grid;
}

/**
 * The grid as JSON text, written once per state of the facility's data and kept with it in the
 * matrix cache: formatting a million doubles is most of the work, and the text (about 60 bytes
 * a pair) is smaller than the arrays it comes from.
 */
export function macGridText(state: MacMatrixState): string {
  return state.derived('grid', () => JSON.stringify(macGrid(state)));
}
