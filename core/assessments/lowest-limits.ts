import { isLower } from '../limits/compile.ts';

/**
 * The lowest MACO, SAL, swab and rinse limit per subject (a product, a train…) over the pairs
 * folded in, and the governing criterion of the lowest-MACO pair; NaN = none. Typed arrays, so a
 * side of a 1,000-product facility is five small arrays.
 */
export class LowestLimits {
  readonly maco: Float64Array;
  readonly sal: Float64Array;
  readonly swab: Float64Array;
  readonly rinse: Float64Array;
  readonly governing: Int8Array;
  readonly pairs: Int32Array;

  constructor(size: number) {
    this.maco = new Float64Array(size).fill(Number.NaN);
    this.sal = new Float64Array(size).fill(Number.NaN);
    this.swab = new Float64Array(size).fill(Number.NaN);
    this.rinse = new Float64Array(size).fill(Number.NaN);
    this.governing = new Int8Array(size).fill(-1);
    this.pairs = new Int32Array(size);
  }

  /**
   * Folds one pair's limits (MACO, SAL, swab, rinse, in `limits[0..3]`) into subject `i`; the
   * first pair wins a tie (within 1e-12). The limits come in an array the caller reuses: a number
   * passed to a call the compiler does not inline is boxed, and a change's walk folds each of
   * 1.5 million pairs at 5,000 products twice or more (issue 34).
   */
  fold(i: number, limits: Float64Array, governing: number) {
    this.pairs[i] = (this.pairs[i] ?? 0) + 1;
    if (isLower(limits[0] ?? Number.NaN, this.maco[i] ?? Number.NaN)) {
      this.maco[i] = limits[0] ?? Number.NaN;
      this.governing[i] = governing;
    }
    if (isLower(limits[1] ?? Number.NaN, this.sal[i] ?? Number.NaN))
      this.sal[i] = limits[1] ?? Number.NaN;
    if (isLower(limits[2] ?? Number.NaN, this.swab[i] ?? Number.NaN))
      this.swab[i] = limits[2] ?? Number.NaN;
    if (isLower(limits[3] ?? Number.NaN, this.rinse[i] ?? Number.NaN))
      this.rinse[i] = limits[3] ?? Number.NaN;
  }

  /** Subject `i`'s four lowest limits into `out` (NaN = none). */
  read(i: number, out: Float64Array): Float64Array {
    out[0] = this.maco[i] ?? Number.NaN;
    out[1] = this.sal[i] ?? Number.NaN;
    out[2] = this.swab[i] ?? Number.NaN;
    out[3] = this.rinse[i] ?? Number.NaN;
    return out;
  }
}
