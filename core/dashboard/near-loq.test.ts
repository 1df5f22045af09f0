import { describe, expect, it } from 'vitest';
import { compileLimits } from '../limits/compile.ts';
import { runMatrix } from '../limits/matrix.ts';
import { twoProductFacility } from '../limits/two-product-facility.ts';
import { pairsNearLoq } from './near-loq.ts';

const input = twoProductFacility({
  sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } },
});

/** The swab limit of each pair, as the matrix gives it (mg/swab). */
function swabLimits(): Map<string, number> {
  const limits = new Map<string, number>();
  runMatrix(compileLimits(input), (view) => {
    const name = (i: number) => input.products[i]?.id ?? '';
    limits.set(`${name(view.previous)}→${name(view.next)}`, view.swabLimit);
  });
  return limits;
}

describe('pairs within a factor of 2 of an LOQ', () => {
  const limits = swabLimits();
  const ab = limits.get('A→B')!;
  const ba = limits.get('B→A')!;

  it('has the hand-checkable pairs', () => {
    // A (PDE 1 ug) leaves a far lower limit into B than B (PDE 5 mg) into A.
    expect(ba / ab).toBeGreaterThan(4);
  });

  it('flags a pair whose limit is under twice the LOQ, with the ratio', () => {
    const loq = ab * 0.6;
    const near = pairsNearLoq(input, [{ name: 'HPLC', loq: { value: loq, unit: 'mg/swab' } }], {
      factor: 2,
      keep: 20,
    });
    expect(near.count).toBe(1);
    expect(near.note).toBeNull();
    expect(near.pairs).toHaveLength(1);
    expect(near.pairs[0]).toMatchObject({
      previous: 'A',
      next: 'B',
      method: 'HPLC',
      sampleType: 'swab',
      unit: 'mg/swab',
    });
    expect(near.pairs[0]!.ratio).toBeCloseTo(1 / 0.6, 9);
    expect(near.pairs[0]!.limit).toBeCloseTo(ab, 12);
  });

  it('does not flag a limit at exactly twice the LOQ', () => {
    const near = pairsNearLoq(input, [{ name: 'HPLC', loq: { value: ab / 2, unit: 'mg/swab' } }], {
      factor: 2,
      keep: 20,
    });
    expect(near.count).toBe(0);
  });

  it('counts each pair once, with the method it comes closest to, and keeps the closest', () => {
    const near = pairsNearLoq(
      input,
      [
        { name: 'TOC', loq: { value: ba, unit: 'mg/swab' } },
        { name: 'HPLC', loq: { value: ab * 0.9, unit: 'mg/swab' } },
      ],
      { factor: 2, keep: 1 },
    );
    // A→B is near both methods (closest to TOC); B→A is near TOC only.
    expect(near.count).toBe(2);
    expect(near.pairs).toEqual([expect.objectContaining({ previous: 'A', method: 'TOC' })]);
  });

  it('says why nothing is compared', () => {
    expect(pairsNearLoq(input, [], { factor: 2, keep: 5 }).note).toBe(
      'No analytical method is recorded yet.',
    );
    expect(pairsNearLoq(input, [{ name: 'Visual', loq: null }], { factor: 2, keep: 5 }).note).toBe(
      'No analytical method has an LOQ that can be compared with the limits.',
    );
  });
});
