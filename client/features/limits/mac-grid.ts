import type { TMacGrid, TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';

export type GridMeasure = 'maco' | 'sal';

const numbers = (values: readonly (number | null)[]) =>
  Float64Array.from(values, (v) => (v === null ? Number.NaN : v));

/**
 * The answer of GET {F}/mac-matrix/grid in typed arrays, with the grid's axis: the products
 * that have at least one pair, in the matrix's order, as rows and as columns (two products that
 * share equipment make a pair both ways, so the rows and the columns are the same products).
 */
export class MacGridData {
  readonly products: string[];
  readonly actives: string[];
  readonly criteria: string[];
  readonly flagTexts: string[];
  readonly uncomputable: TUncomputable[];
  readonly rowStart: Int32Array;
  readonly next: Int32Array;
  readonly maco: Float64Array;
  readonly sal: Float64Array;
  readonly governing: Int32Array;
  readonly governingActive: Int32Array;
  readonly salCapped: Uint8Array;
  readonly flags: Int32Array;
  /** Product index at each row (and column) of the grid. */
  readonly axis: Int32Array;
  /** Row (and column) of each product, -1 for a product without pairs. */
  readonly position: Int32Array;

  constructor(grid: TMacGrid) {
    this.products = grid.products;
    this.actives = grid.actives;
    this.criteria = grid.criteria;
    this.flagTexts = grid.flagTexts;
    this.uncomputable = grid.uncomputable;
    this.rowStart = Int32Array.from(grid.rowStart);
    this.next = Int32Array.from(grid.next);
    this.maco = numbers(grid.maco);
    this.sal = numbers(grid.sal);
    this.governing = Int32Array.from(grid.governing);
    this.governingActive = Int32Array.from(grid.governingActive);
    this.salCapped = Uint8Array.from(grid.salCapped);
    this.flags = Int32Array.from(grid.flags);
    const axis: number[] = [];
    this.position = new Int32Array(this.products.length).fill(-1);
    for (let p = 0; p < this.products.length; p++) {
      if (this.rowEnd(p) > this.rowFirst(p)) this.position[p] = axis.push(p) - 1;
    }
    this.axis = Int32Array.from(axis);
  }

  get pairCount(): number {
    return this.next.length;
  }

  rowFirst(p: number): number {
    return this.rowStart[p] ?? 0;
  }

  rowEnd(p: number): number {
    return this.rowStart[p + 1] ?? 0;
  }

  /** The first pair of previous product p whose next product is n or after it. */
  firstFrom(p: number, n: number): number {
    let lo = this.rowFirst(p);
    let hi = this.rowEnd(p);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.next[mid] ?? 0) < n) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The pair previous p → next n, or -1 when the two share no equipment. */
  pairAt(p: number, n: number): number {
    const i = this.firstFrom(p, n);
    return i < this.rowEnd(p) && this.next[i] === n ? i : -1;
  }

  governingKey(i: number): string | null {
    return this.criteria[this.governing[i] ?? -1] ?? null;
  }

  governingActiveName(i: number): string | null {
    return this.actives[this.governingActive[i] ?? -1] ?? null;
  }

  flagsOf(i: number): string[] {
    const bits = this.flags[i] ?? 0;
    return this.flagTexts.filter((_text, bit) => (bits & (1 << bit)) !== 0);
  }
}

/** Shades from the lowest limit (the strictest, darkest) to the highest. */
export const SHADES = ['#08306b', '#2171b5', '#4292c6', '#6baed6', '#9ecae1', '#deebf7'];

/** Shading bins spread evenly over the decades the values span (limits span many). */
export interface ShadeScale {
  /** Ascending bin edges: bin b holds values from bounds[b] to bounds[b + 1]. */
  bounds: number[];
  low: number;
  high: number;
}

/** The scale of the finite, positive values, in at most `bins` bins; null when there are none. */
export function shadeScale(values: Float64Array, bins: number): ShadeScale | null {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const v of values) {
    if (!(v > 0) || !Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max === 0) return null;
  const low = Math.log10(min);
  const high = Math.log10(max);
  const count = high === low ? 1 : bins;
  const bounds = Array.from({ length: count + 1 }, (_v, b) =>
    b === 0 ? min : b === count ? max : 10 ** (low + ((high - low) * b) / count),
  );
  return { bounds, low, high };
}

/** The bin of a value, or -1 when it has none (no limit). */
export function shadeOf(scale: ShadeScale, value: number): number {
  if (!Number.isFinite(value)) return -1;
  const bins = scale.bounds.length - 1;
  if (bins === 1 || !(value > 0)) return 0;
  const b = Math.floor(((Math.log10(value) - scale.low) / (scale.high - scale.low)) * bins);
  return Math.min(Math.max(b, 0), bins - 1);
}
