import { describe, expect, it } from 'vitest';
import { percent, percentOrNaN } from '../limits/pair-walk.ts';
import { LowestLimits } from './lowest-limits.ts';

describe('LowestLimits', () => {
  it('keeps each limit’s lowest over the pairs folded, the MACO’s criterion, and counts them', () => {
    const lowest = new LowestLimits(2);
    const limits = new Float64Array(4);
    const fold = (i: number, four: number[], governing: number) => {
      limits.set(four);
      lowest.fold(i, limits, governing);
    };
    fold(0, [5, 0.2, Number.NaN, 3], 1);
    fold(0, [4, 0.3, 7, Number.NaN], 2);
    // A tie within 1e-12 keeps the first pair's criterion.
    fold(0, [4 * (1 - 1e-14), 0.1, 8, 2], 3);
    const out = new Float64Array(4);
    expect([...lowest.read(0, out)]).toEqual([4, 0.1, 7, 2]);
    expect(lowest.governing[0]).toBe(2);
    expect(lowest.pairs[0]).toBe(3);
    // No pair: every limit NaN, no criterion.
    expect([...lowest.read(1, out)].every(Number.isNaN)).toBe(true);
    expect(lowest.governing[1]).toBe(-1);
    expect(lowest.pairs[1]).toBe(0);
  });
});

describe('percentOrNaN', () => {
  it('is percent with NaN for none, to the bit', () => {
    const values = [0, -0, 1, -2.5, 1e-300, 3e300, Number.NaN, Number.POSITIVE_INFINITY, 0.1 + 0.2];
    for (const before of values) {
      for (const after of values) {
        const change = percentOrNaN(before, after);
        expect(percent(before, after)).toBe(Number.isNaN(change) ? null : change);
        if (Number.isFinite(before) && Number.isFinite(after) && before !== 0) {
          expect(change).toBe(((after - before) / before) * 100);
        } else {
          expect(change).toBeNaN();
        }
      }
    }
  });
});
