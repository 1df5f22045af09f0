import { describe, expect, it } from 'vitest';
import { compileLimits } from './compile.ts';
import { contractDocument } from './contract-output.ts';
import type { LimitsInput } from './model.ts';
import {
  RESIDUE_TYPES,
  defaultPolicies,
  defaultPolicy,
  effectiveArl,
  effectiveSafetyFactor,
  recoveryFraction,
} from './policy.ts';

describe('cleaning limit policy (spec §3)', () => {
  it('has the specification’s defaults', () => {
    const p = defaultPolicy();
    expect(p.arl).toEqual({ value: 10, unit: 'ppm' });
    expect(p.residueLimit).toEqual({ value: 10, unit: 'mg/sqcm' });
    expect(p.globalRecoveryPercentage).toBe(100);
    expect([p.swabSampleLimit, p.rinseSampleLimit, p.fixedSwabLimit, p.fixedRinseLimit]).toEqual([
      10, 10, 10, 10,
    ]);
    expect(p.limitRepresentation.productAndEquipmentLimits.salMassUnit).toBe('mg');
    expect(p.limitRepresentation.sampleLimits.swab).toEqual({
      usePerSampleLimit: false,
      unit: 'ppm',
    });
    expect(p.safetyFactor).toBe(1000);
    expect(p.modificationFactor).toBe(1);
    expect(p.bodyWeight).toEqual({ value: 70, unit: 'kg' });
    expect(p.ld50EmpiricalFactor).toBe(2000);
    expect([p.useToxicity, p.useDosage, p.useLd50, p.useARL]).toEqual([true, true, false, true]);
  });

  it('keeps one policy per residue type with the type’s own criteria', () => {
    const all = defaultPolicies();
    expect(Object.keys(all)).toEqual([...RESIDUE_TYPES]);
    expect(all.Detergent.useLd50).toBe(true);
    expect(all.Detergent.useDosage).toBe(false);
    expect(all.Nitrosamine.useDosage).toBe(false);
    expect(all.Intermediate.useDosage).toBe(false);
  });

  it('fixes the Intermediate safety factor at 1000 and uses activesArl there', () => {
    const p = {
      ...defaultPolicy('Intermediate'),
      safetyFactor: 10,
      activesArl: { value: 100, unit: 'ppm' as const },
    };
    expect(effectiveSafetyFactor(p)).toBe(1000);
    expect(effectiveArl(p)).toEqual({ value: 100, unit: 'ppm' });
    expect(effectiveSafetyFactor({ ...defaultPolicy(), safetyFactor: 10 })).toBe(10);
  });

  it('applies recovery only when the policy says so', () => {
    expect(recoveryFraction({ ...defaultPolicy(), globalRecoveryPercentage: 70 })).toBe(1);
    expect(
      recoveryFraction({
        ...defaultPolicy(),
        useGlobalRecoveryPercentage: true,
        globalRecoveryPercentage: 70,
      }),
    ).toBe(0.7);
  });

  function facility(policy: LimitsInput['policy']): LimitsInput {
    return {
      policy,
      products: [
        {
          id: 'P',
          minBatchSize: { value: 1, unit: 'kg' },
          maxDailyDose: { value: 1, unit: 'g' },
          actives: [
            { id: 'a', pde: { value: 1, unit: 'mg' }, ld50: { value: 100, unit: 'mg/kg' } },
          ],
          productLimit: { value: 7, unit: 'mg' },
        },
        {
          id: 'N',
          minBatchSize: { value: 100, unit: 'kg' },
          maxDailyDose: { value: 1, unit: 'g' },
          actives: [],
        },
      ],
      equipment: [{ id: 'E', surfaceArea: { value: 1, unit: 'sqm' } }],
      trains: { P: ['E'], N: ['E'] },
      sampling: {},
    };
  }

  it('divides the health-based criterion by the modification factor', () => {
    const plain = contractDocument(facility(defaultPolicy())).pairs?.[0];
    const extra = contractDocument(facility({ ...defaultPolicy(), modificationFactor: 10 }))
      .pairs?.[0];
    expect((extra?.criteria.health?.value ?? 0) * 10).toBeCloseTo(
      plain?.criteria.health?.value ?? 0,
      9,
    );
  });

  it('adds the product limit as a criterion with useProductLimit', () => {
    const pair = contractDocument(facility({ ...defaultPolicy(), useProductLimit: true }))
      .pairs?.[0];
    expect(pair?.criteria.product?.value).toBe(7);
    expect(pair?.governing).toBe('product');
    expect(contractDocument(facility(defaultPolicy())).pairs?.[0]?.criteria).not.toHaveProperty(
      'product',
    );
  });

  it('limits an intermediate by the LD50 route with SF 1000 and the actives ARL', () => {
    const policy = {
      ...defaultPolicy('Intermediate'),
      useLd50: true,
      safetyFactor: 10,
      activesArl: { value: 100, unit: 'ppm' as const },
    };
    const pair = contractDocument(facility(policy)).pairs?.[0];
    // NOEL 100 × 70 / 2000 = 3.5 mg/day; 3.5 × 100e6 / (1000 × 1000) = 350 mg; ARL 100 × 100 kg
    expect(pair?.criteria.ld50?.value).toBeCloseTo(350, 9);
    expect(pair?.criteria.arl?.value).toBeCloseTo(10_000, 9);
    expect(compileLimits(facility(policy)).divisor[1]).toBe(1000);
  });

  it('gives an intermediate residue the intermediate ARL and actives the actives ARL', () => {
    const input = facility({
      ...defaultPolicy('Intermediate'),
      useToxicity: false,
      activesArl: { value: 100, unit: 'ppm' },
      intermediateArl: { value: 5, unit: 'ppm' },
    });
    const prev = input.products[0];
    if (!prev) throw new Error('no product');
    prev.actives = [{ id: 'api' }, { id: 'int', isIntermediate: true }];
    const pair = contractDocument(input).pairs?.[0];
    expect(pair?.criteria.arl?.value).toBeCloseTo(500, 9); // 5 ppm × 100 kg
    expect(pair?.governingActive).toBe('int');
    prev.actives = [{ id: 'api' }];
    expect(contractDocument(input).pairs?.[0]?.criteria.arl?.value).toBeCloseTo(10_000, 9);
  });
});
