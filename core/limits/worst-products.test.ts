import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideOverride } from './worst-product-override.ts';
import type { Candidate } from './risk.ts';
import { worstOfGroups } from './worst-products.ts';

const byMaco = [
  { attribute: 'score', worst: 'highest' as const },
  { attribute: 'lowestMaco', worst: 'lowest' as const },
];

describe('worstOfGroups', () => {
  it('names the worst product of each group and the criterion that set it apart', () => {
    const candidates: Candidate[] = [
      { id: 'A', attributes: { lowestMaco: 1000 } },
      { id: 'B', attributes: { lowestMaco: 250 } },
      { id: 'C', attributes: { score: 12, lowestMaco: 5000 } },
    ];
    const worst = worstOfGroups(
      { line1: ['A', 'B'], line2: ['A', 'B', 'C'], alone: ['A'], none: ['Z'] },
      candidates,
      byMaco,
    );
    expect(worst.line1).toMatchObject({
      product: 'B',
      lowestMaco: 250,
      reason: { attribute: 'lowestMaco', value: 250, unit: 'mg', runnerUp: { product: 'A' } },
    });
    expect(worst.line1!.reason.text).toBe('Lowest MACO: 250 mg (next worst A: 1,000 mg)');
    // A risk score comes first: C, scored, is worse than the unscored B whatever its MACO.
    expect(worst.line2).toMatchObject({ product: 'C', reason: { attribute: 'score' } });
    expect(worst.line2!.reason.text).toBe(
      'Highest risk score: 12 points (next worst B: not recorded)',
    );
    expect(worst.alone!.reason.runnerUp).toBeNull();
    expect(worst.none!.product).toBeNull();
  });
});

describe('decideOverride', () => {
  const computed = { product: 'B', lowestMaco: 250 };

  it('takes a stricter product with its own limit, and refuses a looser one unless the limit stays', () => {
    expect(
      decideOverride({
        computed,
        chosen: { product: 'A', lowestMaco: 100 },
        keepComputedLimit: false,
      }),
    ).toEqual({ allowed: true, limit: 100, limitProduct: 'A' });
    const looser = decideOverride({
      computed,
      chosen: { product: 'A', lowestMaco: 1000 },
      keepComputedLimit: false,
    });
    expect(looser).toMatchObject({ allowed: false });
    expect(looser.allowed || looser.message).toContain('would loosen the limit');
    expect(
      decideOverride({
        computed,
        chosen: { product: 'A', lowestMaco: 1000 },
        keepComputedLimit: true,
      }),
    ).toEqual({ allowed: true, limit: 250, limitProduct: 'B' });
    // A product whose limit cannot be computed cannot be shown to be as strict.
    expect(
      decideOverride({
        computed,
        chosen: { product: 'A', lowestMaco: null },
        keepComputedLimit: false,
      }).allowed,
    ).toBe(false);
    expect(
      decideOverride({
        computed,
        chosen: { product: 'B', lowestMaco: 250 },
        keepComputedLimit: true,
      }).allowed,
    ).toBe(false);
  });

  it('never lets an override loosen a limit (property)', () => {
    const maco = fc.option(fc.double({ min: 1e-9, max: 1e12, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(maco, maco, fc.boolean(), (computedMaco, chosenMaco, keep) => {
        const decision = decideOverride({
          computed: { product: 'W', lowestMaco: computedMaco },
          chosen: { product: 'X', lowestMaco: chosenMaco },
          keepComputedLimit: keep,
        });
        if (!decision.allowed) return;
        // The group's limit is never above a limit that is known, of either product.
        if (computedMaco !== null) {
          expect(decision.limit).not.toBeNull();
          expect(decision.limit!).toBeLessThanOrEqual(computedMaco);
        }
        if (chosenMaco !== null) expect(decision.limit!).toBeLessThanOrEqual(chosenMaco);
        // Without keeping the computed limit, only a product at least as strict is taken.
        if (!keep && computedMaco !== null) {
          expect(chosenMaco).not.toBeNull();
          expect(chosenMaco!).toBeLessThanOrEqual(computedMaco);
        }
      }),
      { numRuns: 500 },
    );
  });
});
