import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractDocument } from './contract-output.ts';
import type { LimitsInput } from './model.ts';
import { defaultPolicy } from './policy.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { solveMaxArea, solveMinBatchSize, solveMinRecovery } from './solver.ts';

function input(
  mbsKg: number,
  areaSqcm: number,
  policy: Partial<CleaningLimitPolicy> = {},
): LimitsInput {
  return {
    policy: {
      ...defaultPolicy(),
      useGlobalRecoveryPercentage: true,
      globalRecoveryPercentage: 80,
      ...policy,
    },
    products: [
      {
        id: 'P',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [
          { id: 'a', pde: { value: 1, unit: 'ug' }, therapeuticDose: { value: 2, unit: 'mg' } },
        ],
      },
      {
        id: 'N',
        minBatchSize: { value: mbsKg, unit: 'kg' },
        maxDailyDose: { value: 2400, unit: 'mg' },
        actives: [],
      },
    ],
    equipment: [{ id: 'E', surfaceArea: { value: areaSqcm, unit: 'sqcm' } }],
    trains: { P: ['E'], N: ['E'] },
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 10, unit: 'L' } },
  };
}

function limitOf(i: LimitsInput, name: 'maco' | 'sal' | 'swabLimit' | 'rinseLimit'): number {
  const pair = contractDocument(i).pairs?.[0];
  return pair?.[name]?.value ?? Number.NaN;
}

describe('solver', () => {
  it('finds the minimum batch size at which a swab limit reaches a value, and it holds', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1000, noNaN: true }),
        fc.double({ min: 1e-5, max: 1, noNaN: true }),
        (mbs, atLeast) => {
          const i = input(mbs, 200_000);
          const s = solveMinBatchSize(i, 'P', 'N', { limit: 'swabLimit', atLeast });
          expect(['passes', 'solved']).toContain(s.status);
          expect(s.unit).toBe('kg');
          expect(limitOf(input(s.value, 200_000), 'swabLimit') / atLeast).toBeCloseTo(1, 9);
          expect(s.status === 'passes').toBe(limitOf(i, 'swabLimit') >= atLeast);
        },
      ),
    );
  });

  it('finds the largest area for a surface or swab requirement', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e-2, noNaN: true }), (atLeast) => {
        const s = solveMaxArea(input(200, 200_000), 'P', 'N', { limit: 'sal', atLeast });
        expect(limitOf(input(200, s.value), 'sal') / atLeast).toBeCloseTo(1, 9);
      }),
    );
    const rinse = solveMaxArea(input(200, 200_000), 'P', 'N', { limit: 'rinseLimit', atLeast: 1 });
    expect(rinse.status).toBe('unaffected');
  });

  it('finds the lowest recovery, and says when even 100 % is not enough', () => {
    const now = limitOf(input(200, 200_000), 'swabLimit');
    const s = solveMinRecovery(input(200, 200_000), 'P', 'N', {
      limit: 'swabLimit',
      atLeast: now / 2,
    });
    expect(s.status).toBe('passes');
    expect(s.value).toBeCloseTo(40, 9); // half of today's 80 %
    const at = limitOf(input(200, 200_000, { globalRecoveryPercentage: s.value }), 'swabLimit');
    expect(at / (now / 2)).toBeCloseTo(1, 9);
    const never = solveMinRecovery(input(200, 200_000), 'P', 'N', {
      limit: 'swabLimit',
      atLeast: now * 2,
    });
    expect(never.status).toBe('impossible');
  });

  it('reports a residue-limit cap that no batch size can lift', () => {
    const i = input(200, 200_000, {
      useResidueLimit: true,
      residueLimit: { value: 0.0001, unit: 'mg/sqcm' },
    });
    const s = solveMinBatchSize(i, 'P', 'N', { limit: 'sal', atLeast: 0.001 });
    expect(s.status).toBe('impossible');
  });

  it('with first-available criteria, scales only the governing criterion', () => {
    const i = input(200, 200_000, { useFirstAvailableCriteria: true });
    const s = solveMinBatchSize(i, 'P', 'N', { limit: 'maco', atLeast: 1000 });
    expect(
      limitOf(input(s.value, 200_000, { useFirstAvailableCriteria: true }), 'maco'),
    ).toBeCloseTo(1000, 6);
  });

  it('refuses products that are not a pair', () => {
    expect(() => solveMaxArea(input(1, 1), 'P', 'X', { limit: 'sal', atLeast: 1 })).toThrow(
      /not a pair/,
    );
  });
});
