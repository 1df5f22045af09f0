import { CRITERION_COUNT, compileLimits } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { matrixRows, pairCriteria, runMatrix } from './matrix.ts';
import type { MatrixSummary, PairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';

/**
 * The one mechanism that compares the limits of two inputs pair by pair (what-if, archive impact,
 * change assessments). The "before" matrix goes into flat arrays indexed by product positions (no
 * object per pair); the "after" matrix streams past against them. A 1,000-product facility costs
 * two matrix runs and some 40 MB, not a million objects.
 */

/** Relative difference below which two limits count as equal (float noise of the formulas). */
export const SAME = 1e-9;

/** True when two limits differ by more than float noise; NaN on one side only is a move. */
export function moved(before: number, after: number): boolean {
  if (Number.isNaN(before) || Number.isNaN(after))
    return Number.isNaN(before) !== Number.isNaN(after);
  return Math.abs(after - before) > SAME * Math.max(Math.abs(before), Math.abs(after));
}

/** Percent change, null when either side has none or the old value is 0. */
export function percent(before: number, after: number): number | null {
  return Number.isFinite(before) && Number.isFinite(after) && before !== 0
    ? ((after - before) / before) * 100
    : null;
}

/**
 * Every pair of the "before" matrix, sparse, in the matrix's order (previous, then next, both
 * ascending): pair `k` is `previous[k]` → `next[k]` (before's product indices), and the pairs of
 * previous product p are `rowStart[p] .. rowStart[p + 1]`. Only the pairs that exist are kept:
 * trains share equipment with a few products, so a dense n × n grid of a 5,000-product facility
 * (25 million cells, some 900 MB) would be nineteen twentieths empty.
 */
export interface BeforeLimits {
  readonly compiled: CompiledLimits;
  readonly rowStart: Int32Array;
  readonly previous: Int32Array;
  readonly next: Int32Array;
  readonly maco: Float64Array;
  readonly sal: Float64Array;
  readonly swab: Float64Array;
  readonly rinse: Float64Array;
  /** Governing criterion index (HEALTH … PRODUCT), -1 when none. */
  readonly governing: Int8Array;
  readonly pairCount: number;
  /** The run's product-wise and equipment-wise worst cases (what `runMatrix` returns). */
  readonly summary: MatrixSummary;
}

/** One side's compiled input and its matrix's summary: what a consumer of one run reuses. */
export interface MatrixRun {
  compiled: CompiledLimits;
  summary: MatrixSummary;
}

/**
 * Whether a criterion of before's pair `k` differs from `now` (the same pair's criteria after),
 * as for a pair whose limits stay while a criterion that does not govern moves (issue 30).
 * Before's criteria are left in `then` (CRITERION_COUNT long), recomputed for this pair only.
 */
export function criteriaMovedAt(
  b: BeforeLimits,
  k: number,
  now: Float64Array,
  then: Float64Array,
): boolean {
  pairCriteria(b.compiled, b.previous[k] ?? 0, b.next[k] ?? 0, then);
  for (let c = 0; c < CRITERION_COUNT; c++) {
    if (moved(then[c] ?? Number.NaN, now[c] ?? Number.NaN)) return true;
  }
  return false;
}

export interface PairWalk {
  /** Every pair of the "after" matrix, with its place in `before` (-1 when the pair is new). */
  onPair(view: PairView, k: number, before: BeforeLimits, after: CompiledLimits): void;
  /** Every pair of "before" the after matrix does not have (a product or shared item gone). */
  onRemoved?(k: number, before: BeforeLimits): void;
  /** Every pair of "before", as it is recorded (its previous and next are before's indices). */
  onBefore?(view: PairView, before: CompiledLimits): void;
}

export function beforeLimits(
  input: LimitsInput,
  onBefore?: (view: PairView, before: CompiledLimits) => void,
): BeforeLimits {
  const compiled = compileLimits(input);
  const rowStart = matrixRows(compiled);
  const count = rowStart[compiled.productCount] ?? 0;
  const previous = new Int32Array(count);
  const next = new Int32Array(count);
  const maco = new Float64Array(count);
  const sal = new Float64Array(count);
  const swab = new Float64Array(count);
  const rinse = new Float64Array(count);
  const governing = new Int8Array(count);
  let k = 0;
  const summary = runMatrix(compiled, (view) => {
    previous[k] = view.previous;
    next[k] = view.next;
    maco[k] = view.maco;
    sal[k] = view.sal;
    swab[k] = view.swabLimit;
    rinse[k] = view.rinseLimit;
    governing[k] = view.governing;
    k++;
    if (onBefore) onBefore(view, compiled);
  });
  const pairCount = k;
  return {
    compiled,
    rowStart,
    previous,
    next,
    maco,
    sal,
    swab,
    rinse,
    governing,
    pairCount,
    summary,
  };
}

/**
 * Runs both matrices once and hands each "after" pair to `walk.onPair` with its "before" index,
 * then each vanished "before" pair to `walk.onRemoved`. Products are matched by id, so products
 * added, removed or reordered are handled. Returns the before limits, the after side compiled and
 * its matrix's summary (a consumer of the summaries needs no run of its own).
 */
export function walkPairs(
  before: LimitsInput,
  after: LimitsInput,
  walk: PairWalk,
): { before: BeforeLimits; after: CompiledLimits; afterSummary: MatrixSummary } {
  const b = beforeLimits(before, walk.onBefore);
  const ma = compileLimits(after);
  const toBefore = productPlaces(after, before);
  const seen = walk.onRemoved ? new Uint8Array(b.pairCount) : undefined;
  // The after matrix comes previous product by previous product: the before pairs of the
  // current one are spread out by next product (slot[q] = k), so each pair is found in one step.
  const slot = new Int32Array(b.compiled.productCount).fill(-1);
  let row = -1;
  let rowBefore = -1;
  const afterSummary = runMatrix(ma, (view) => {
    if (view.previous !== row) {
      for (let k = b.rowStart[rowBefore] ?? 0; k < (b.rowStart[rowBefore + 1] ?? 0); k++)
        slot[b.next[k] ?? 0] = -1;
      row = view.previous;
      rowBefore = toBefore[row] ?? -1;
      for (let k = b.rowStart[rowBefore] ?? 0; k < (b.rowStart[rowBefore + 1] ?? 0); k++)
        slot[b.next[k] ?? 0] = k;
    }
    const q = toBefore[view.next] ?? -1;
    const k = rowBefore >= 0 && q >= 0 ? (slot[q] ?? -1) : -1;
    if (seen && k >= 0) seen[k] = 1;
    walk.onPair(view, k, b, ma);
  });
  if (seen && walk.onRemoved) {
    for (let k = 0; k < b.pairCount; k++) if (seen[k] === 0) walk.onRemoved(k, b);
  }
  return { before: b, after: ma, afterSummary };
}

/** For each product of `from`, its index in `to` (matched by id), -1 when `to` has no such product. */
export function productPlaces(from: LimitsInput, to: LimitsInput): Int32Array {
  const index = new Map(to.products.map((product, i) => [product.id, i]));
  return Int32Array.from(from.products, (product) => index.get(product.id) ?? -1);
}
