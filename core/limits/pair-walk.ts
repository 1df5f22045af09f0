import { CRITERION_COUNT, compileLimits } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { pairCriteria, runMatrix } from './matrix.ts';
import type { PairView } from './matrix.ts';
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

/** Every pair of the "before" matrix, at `previous × n + next` (n = before's product count). */
export interface BeforeLimits {
  readonly compiled: CompiledLimits;
  readonly n: number;
  readonly has: Uint8Array;
  readonly maco: Float64Array;
  readonly sal: Float64Array;
  readonly swab: Float64Array;
  readonly rinse: Float64Array;
  /** Governing criterion index (HEALTH … PRODUCT), -1 when none. */
  readonly governing: Int8Array;
  readonly pairCount: number;
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
  pairCriteria(b.compiled, Math.floor(k / b.n), k % b.n, then);
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
  const n = compiled.productCount;
  const has = new Uint8Array(n * n);
  const maco = new Float64Array(n * n).fill(Number.NaN);
  const sal = new Float64Array(n * n).fill(Number.NaN);
  const swab = new Float64Array(n * n).fill(Number.NaN);
  const rinse = new Float64Array(n * n).fill(Number.NaN);
  const governing = new Int8Array(n * n).fill(-1);
  let pairCount = 0;
  runMatrix(compiled, (view) => {
    const k = view.previous * n + view.next;
    has[k] = 1;
    maco[k] = view.maco;
    sal[k] = view.sal;
    swab[k] = view.swabLimit;
    rinse[k] = view.rinseLimit;
    governing[k] = view.governing;
    pairCount++;
    if (onBefore) onBefore(view, compiled);
  });
  return { compiled, n, has, maco, sal, swab, rinse, governing, pairCount };
}

/**
 * Runs both matrices once and hands each "after" pair to `walk.onPair` with its "before" index,
 * then each vanished "before" pair to `walk.onRemoved`. Products are matched by id, so products
 * added, removed or reordered are handled. Returns the before limits and the after side compiled.
 */
export function walkPairs(
  before: LimitsInput,
  after: LimitsInput,
  walk: PairWalk,
): { before: BeforeLimits; after: CompiledLimits } {
  const b = beforeLimits(before, walk.onBefore);
  const n = b.n;
  const ma = compileLimits(after);
  const toBefore = productPlaces(after, before);
  const seen = walk.onRemoved ? new Uint8Array(n * n) : undefined;
  runMatrix(ma, (view) => {
    const p = toBefore[view.previous] ?? -1;
    const q = toBefore[view.next] ?? -1;
    const k = p >= 0 && q >= 0 && b.has[p * n + q] === 1 ? p * n + q : -1;
    if (seen && k >= 0) seen[k] = 1;
    walk.onPair(view, k, b, ma);
  });
  if (seen && walk.onRemoved) {
    for (let k = 0; k < n * n; k++) if (b.has[k] === 1 && seen[k] === 0) walk.onRemoved(k, b);
  }
  return { before: b, after: ma };
}

/** For each product of `from`, its index in `to` (matched by id), -1 when `to` has no such product. */
export function productPlaces(from: LimitsInput, to: LimitsInput): Int32Array {
  const index = new Map(to.products.map((product, i) => [product.id, i]));
  return Int32Array.from(from.products, (product) => index.get(product.id) ?? -1);
}
