import { describe, expect, it } from 'vitest';
import { toxicityDistribution } from './toxicity-distribution.ts';

describe('the toxicity score distribution of the actives', () => {
  it('bands each PDE in µg/day as the worst-case ranking does', () => {
    const result = toxicityDistribution([
      { value: 0.5, unit: 'ug' }, // 5
      { value: 1, unit: 'ug' }, // 4 (1 ≤ x < 10)
      { value: 0.05, unit: 'mg' }, // 50 µg → 3
      { value: 0.5, unit: 'mg' }, // 500 µg → 2 (upper bound included)
      { value: 2, unit: 'mg' }, // 1
      { value: 3, unit: 'g' }, // 1
      null,
      { value: 2, unit: 'ppm' }, // not a mass: not recorded
    ]);
    expect(result.bands.map((b) => [b.score, b.count])).toEqual([
      [1, 2],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
    ]);
    expect(result.notRecorded).toBe(2);
    expect(result.total).toBe(8);
    expect(result.bands[4]!.label).toBe('PDE under 1 µg/day');
  });

  it('of no actives', () => {
    const result = toxicityDistribution([]);
    expect(result.total).toBe(0);
    expect(result.bands.every((b) => b.count === 0)).toBe(true);
  });
});
