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

  /** Folds one pair's limits into subject `i`; the first pair wins a tie (within 1e-12). */
  fold(i: number, maco: number, sal: number, swab: number, rinse: number, governing: number) {
    this.pairs[i] = (this.pairs[i] ?? 0) + 1;
    if (isLower(maco, this.maco[i] ?? Number.NaN)) {
      this.maco[i] = maco;
      this.governing[i] = governing;
    }
    if (isLower(sal, this.sal[i] ?? Number.NaN)) this.sal[i] = sal;
    if (isLower(swab, this.swab[i] ?? Number.NaN)) this.swab[i] = swab;
    if (isLower(rinse, this.rinse[i] ?? Number.NaN)) this.rinse[i] = rinse;
  }
}
