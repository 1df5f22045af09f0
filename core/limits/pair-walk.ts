import { CRITERION_COUNT, compileLimits } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { matrixRowWalk, matrixRows, pairCriteria, runMatrix } from './matrix.ts';
import type { MatrixSummary, PairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';

/**
 * The one mechanism that compares the limits of two inputs pair by pair (what-if, archive impact,
 * change assessments). The "after" matrix streams past, each of its rows against the same row of
 * the "before" matrix, evaluated again into arrays of one row (no object per pair, and no array
 * of every pair).
 */

/** Relative difference below which two limits count as equal (float noise of the formulas). */
export const SAME = 1e-9;

/** True when two limits differ by more than float noise; NaN on one side only is a move. */
export function moved(before: number, after: number): boolean {
  if (Number.isNaN(before) || Number.isNaN(after))
    return Number.isNaN(before) !== Number.isNaN(after);
  return Math.abs(after - before) > SAME * Math.max(Math.abs(before), Math.abs(after));
}

/**
 * Percent change, NaN when either side has none or the old value is 0 (finite sides give a
 * number, never NaN). For a walk over every pair: a `number | null` is boxed on the heap each
 * time it holds a number, even in optimised code (issue 34).
 */
export function percentOrNaN(before: number, after: number): number {
  return Number.isFinite(before) && Number.isFinite(after) && before !== 0
    ? ((after - before) / before) * 100
    : Number.NaN;
}

/** Percent change, null when either side has none or the old value is 0. */
export function percent(before: number, after: number): number | null {
  const change = percentOrNaN(before, after);
  return Number.isNaN(change) ? null : change;
}

/**
 * The "before" matrix as the walk knows it: compiled, where each previous product's pairs start
 * in the matrix's order (pair `k` of previous product p is one of `rowStart[p] .. rowStart[p + 1]`)
 * and its run's summary. Its pairs' limits are not kept: a 5,000-product facility has 1.5 million
 * pairs, and their limits in flat arrays took 62 MB of every evaluation that the collector got
 * back only at its next full collection, so that one evaluation after another held ever more
 * (issue 34). The walk evaluates a before row again when it needs it (BeforeRow).
 */
export interface BeforeLimits {
  readonly compiled: CompiledLimits;
  readonly rowStart: Int32Array;
  readonly pairCount: number;
  /** The run's product-wise and equipment-wise worst cases (what `runMatrix` returns). */
  readonly summary: MatrixSummary;
}

/**
 * One pair of the "before" matrix as the walk hands it on: one object reused pair after pair, so
 * a consumer that keeps a pair copies what it needs. `previous` and `next` are before's product
 * indices, `k` the pair's place in the matrix's order.
 */
export interface BeforePair {
  k: number;
  previous: number;
  next: number;
  maco: number;
  sal: number;
  swab: number;
  rinse: number;
  /** Governing criterion index (HEALTH … PRODUCT), -1 when none. */
  governing: number;
}

/** One side's compiled input and its matrix's summary: what a consumer of one run reuses. */
export interface MatrixRun {
  compiled: CompiledLimits;
  summary: MatrixSummary;
}

/**
 * Whether a criterion of the before pair `then` differs from `now` (the same pair's criteria
 * after), as for a pair whose limits stay while a criterion that does not govern moves (issue 30).
 * Before's criteria are left in `out` (CRITERION_COUNT long), recomputed for this pair only.
 */
export function criteriaMovedAt(
  b: BeforeLimits,
  then: BeforePair,
  now: Float64Array,
  out: Float64Array,
): boolean {
  pairCriteria(b.compiled, then.previous, then.next, out);
  for (let c = 0; c < CRITERION_COUNT; c++) {
    if (moved(out[c] ?? Number.NaN, now[c] ?? Number.NaN)) return true;
  }
  return false;
}

export interface PairWalk {
  /** Every pair of the "after" matrix, with its pair in `before` (null when the pair is new). */
  onPair(
    view: PairView,
    then: BeforePair | null,
    before: BeforeLimits,
    after: CompiledLimits,
  ): void;
  /** Every pair of "before" the after matrix does not have (a product or shared item gone). */
  onRemoved?(then: BeforePair, before: BeforeLimits): void;
  /** Every pair of "before", as it is recorded (its previous and next are before's indices). */
  onBefore?(view: PairView, before: CompiledLimits): void;
}

/**
 * One previous product's pairs of the "before" matrix at a time, by next product: what the walk
 * compares an after row with. Arrays of one row (a product's count), reused row after row.
 */
class BeforeRow {
  private readonly walkRow: ReturnType<typeof matrixRowWalk>;
  /** Per next product of the row loaded, its place in the row; -1 when no pair. */
  private readonly slot: Int32Array;
  private readonly next: Int32Array;
  private readonly maco: Float64Array;
  private readonly sal: Float64Array;
  private readonly swab: Float64Array;
  private readonly rinse: Float64Array;
  private readonly governing: Int8Array;
  private readonly pair: BeforePair = {
    k: -1,
    previous: -1,
    next: -1,
    maco: Number.NaN,
    sal: Number.NaN,
    swab: Number.NaN,
    rinse: Number.NaN,
    governing: -1,
  };
  private count = 0;
  private previous = -1;
  private start = 0;

  constructor(private readonly b: BeforeLimits) {
    const n = b.compiled.productCount;
    this.walkRow = matrixRowWalk(b.compiled);
    this.slot = new Int32Array(n).fill(-1);
    this.next = new Int32Array(n);
    this.maco = new Float64Array(n);
    this.sal = new Float64Array(n);
    this.swab = new Float64Array(n);
    this.rinse = new Float64Array(n);
    this.governing = new Int8Array(n);
  }

  /** Evaluates previous product p's pairs (none for -1). */
  load(p: number): void {
    if (p === this.previous) return;
    for (let i = 0; i < this.count; i++) this.slot[this.next[i] ?? 0] = -1;
    this.count = 0;
    this.previous = p;
    if (p < 0) return;
    this.start = this.b.rowStart[p] ?? 0;
    this.walkRow(p, (view) => {
      const i = this.count++;
      this.slot[view.next] = i;
      this.next[i] = view.next;
      this.maco[i] = view.maco;
      this.sal[i] = view.sal;
      this.swab[i] = view.swabLimit;
      this.rinse[i] = view.rinseLimit;
      this.governing[i] = view.governing;
    });
  }

  /** The loaded row's pair with next product q, null when there is none. */
  with(q: number): BeforePair | null {
    const i = q < 0 ? -1 : (this.slot[q] ?? -1);
    return i < 0 ? null : this.at(i);
  }

  /** The loaded row's pair k (in the matrix's order). */
  byK(k: number): BeforePair {
    return this.at(k - this.start);
  }

  private at(i: number): BeforePair {
    const pair = this.pair;
    pair.k = this.start + i;
    pair.previous = this.previous;
    pair.next = this.next[i] ?? -1;
    pair.maco = this.maco[i] ?? Number.NaN;
    pair.sal = this.sal[i] ?? Number.NaN;
    pair.swab = this.swab[i] ?? Number.NaN;
    pair.rinse = this.rinse[i] ?? Number.NaN;
    pair.governing = this.governing[i] ?? -1;
    return pair;
  }
}

/**
 * Runs the before matrix (handing each pair to `walk.onBefore`), then the after matrix, handing
 * each after pair to `walk.onPair` with its before pair, then each vanished before pair to
 * `walk.onRemoved` in the matrix's order. Products are matched by id, so products added, removed
 * or reordered are handled. The before pairs are evaluated again one row at a time as the after
 * rows need them: a third run of the matrix, in place of keeping every before pair. Returns the
 * before side, the after side compiled and its matrix's summary (a consumer of the summaries
 * needs no run of its own).
 */
export function walkPairs(
  before: LimitsInput,
  after: LimitsInput,
  walk: PairWalk,
): { before: BeforeLimits; after: CompiledLimits; afterSummary: MatrixSummary } {
  const compiled = compileLimits(before);
  const rowStart = matrixRows(compiled);
  const onBefore = walk.onBefore;
  const b: BeforeLimits = {
    compiled,
    rowStart,
    pairCount: rowStart[compiled.productCount] ?? 0,
    summary: runMatrix(compiled, onBefore && ((view) => onBefore(view, compiled))),
  };
  const ma = compileLimits(after);
  const toBefore = productPlaces(after, before);
  const row = new BeforeRow(b);
  // One bit a before pair: met by an after pair.
  const seen = walk.onRemoved ? new Int32Array((b.pairCount + 31) >>> 5) : undefined;
  let current = -1;
  const afterSummary = runMatrix(ma, (view) => {
    if (view.previous !== current) {
      current = view.previous;
      row.load(toBefore[current] ?? -1);
    }
    const then = row.with(toBefore[view.next] ?? -1);
    if (seen && then) seen[then.k >>> 5] = (seen[then.k >>> 5] ?? 0) | (1 << (then.k & 31));
    walk.onPair(view, then, b, ma);
  });
  if (seen && walk.onRemoved) {
    for (let p = 0; p < compiled.productCount; p++) {
      for (let k = rowStart[p] ?? 0; k < (rowStart[p + 1] ?? 0); k++) {
        if (((seen[k >>> 5] ?? 0) & (1 << (k & 31))) !== 0) continue;
        row.load(p);
        walk.onRemoved(row.byK(k), b);
      }
    }
  }
  return { before: b, after: ma, afterSummary };
}

/** For each product of `from`, its index in `to` (matched by id), -1 when `to` has no such product. */
export function productPlaces(from: LimitsInput, to: LimitsInput): Int32Array {
  const index = new Map(to.products.map((product, i) => [product.id, i]));
  return Int32Array.from(from.products, (product) => index.get(product.id) ?? -1);
}
