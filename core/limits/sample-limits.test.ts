import { describe, expect, it } from 'vitest';
import { contractDocument } from './contract-output.ts';
import { explainPair } from './explain.ts';
import { limitFlags, visualInspectionSufficient } from './flags.ts';
import type { LimitsInput } from './model.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { defaultPolicy } from './policy.ts';
import { equipmentAllowances, sampleLimits } from './sample-limits.ts';

const source = { maco: 1200, sal: 1200 / 455_000, area: 455_000 };
const plan = {
  swabArea: { value: 25, unit: 'sqcm' as const },
  extractionVolume: { value: 10, unit: 'ml' as const },
  rinseVolume: { value: 400, unit: 'L' as const },
};

describe('sample limits', () => {
  it('derives swab, extract and rinse limits from the surface limit', () => {
    const s = sampleLimits(source, plan, defaultPolicy());
    expect(s.swab).toBeCloseTo(source.sal * 25, 12);
    expect(s.swabExtract).toBeCloseTo((source.sal * 25) / 10, 12);
    expect(s.rinse).toBeCloseTo(1200 / 400_000, 12);
    expect([s.swabBasis, s.rinseBasis, s.recovery]).toEqual(['calculated', 'calculated', 1]);
    expect(s.derivations.swab.result?.value).toBe(s.swab);
    expect(s.derivations.swab.inputs.map((i) => i.symbol)).toEqual(['SAL', 'As', 'r']);
    expect(s.derivations.rinse.inputs.map((i) => i.symbol)).toEqual(['SAL', 'A', 'r', 'V']);
  });

  it('uses the area the sampling rinse contacts (LeBlanc partial rinse)', () => {
    const s = sampleLimits(
      source,
      { ...plan, rinsedArea: { value: 40_000, unit: 'sqcm' } },
      defaultPolicy(),
    );
    expect(s.rinse).toBeCloseTo((source.sal * 40_000) / 400_000, 12);
  });

  it('without useSAR, takes the APIC target value MACO × r / V', () => {
    const policy = {
      ...defaultPolicy(),
      useSAR: false,
      useGlobalRecoveryPercentage: true,
      globalRecoveryPercentage: 80,
    };
    const s = sampleLimits(source, { ...plan, rinsedArea: { value: 1, unit: 'sqcm' } }, policy);
    expect(s.rinse).toBeCloseTo((1200 * 0.8) / 400_000, 12);
  });

  it('caps at the per-sample limits (ppm in the extract or rinse) with useSampleLimit', () => {
    const policy = {
      ...defaultPolicy(),
      useSampleLimit: true,
      swabSampleLimit: 2,
      rinseSampleLimit: 1,
    };
    const s = sampleLimits(source, plan, policy);
    // 2 ppm = 0.002 mg/ml × 10 ml = 0.02 mg per swab, below 0.0659 mg; 1 ppm = 0.001 mg/ml < 0.003
    expect(s.swab).toBeCloseTo(0.02, 12);
    expect(s.swabBasis).toBe('perSampleCap');
    expect(s.rinse).toBeCloseTo(0.001, 12);
    expect(s.rinseBasis).toBe('perSampleCap');
  });

  // Fixed sample limits are ceilings (LeBlanc "default limits"): the lower of the two governs.
  it.each([
    // calculated swab 0.0659 mg, rinse 0.003 mg/ml
    ['fixed higher: calculated governs', 0.5, 3, source.sal * 25, 1200 / 400_000, 'calculated'],
    ['fixed lower: fixed governs', 0.01, 1, 0.01, 0.001, 'fixed'],
    // the defect: a fixed 10 mg swab limit replaced a calculated one 10^7 times lower
    ['fixed 10^7 × looser', 10, 10, (1e-9 / 455_000) * 25, 1e-9 / 400_000, 'calculated'],
  ] as const)('%s', (_name, fixedSwab, fixedRinse, swab, rinse, basis) => {
    const policy = {
      ...defaultPolicy(),
      useFixedSampleLimits: true,
      fixedSwabLimit: fixedSwab,
      fixedRinseLimit: fixedRinse,
    };
    const from = fixedSwab === 10 ? { maco: 1e-9, sal: 1e-9 / 455_000, area: 455_000 } : source;
    const s = sampleLimits(from, plan, policy);
    expect(s.swab).toBeCloseTo(swab, 15);
    expect(s.rinse).toBeCloseTo(rinse, 15);
    expect([s.swabBasis, s.rinseBasis]).toEqual([basis, basis]);
    expect(s.derivations.swab.note).toMatch(
      basis === 'fixed' ? /fixed sample limit governs/ : /calculated limit governs/,
    );
    expect(s.derivations.rinse.result?.value).toBe(s.rinse);
  });

  it('apportions a MACO over equipment by area with a rinse limit per item', () => {
    const shares = equipmentAllowances(
      1200,
      [
        { id: 'G', area: { value: 12, unit: 'sqm' }, rinseVolume: { value: 200, unit: 'L' } },
        { id: 'F', area: { value: 100_000, unit: 'sqcm' } },
      ],
      0.9,
    );
    expect(shares[0]?.allowance).toBeCloseTo(1200 * (12 / 22), 9);
    expect(shares[1]?.allowance).toBeCloseTo(1200 * (10 / 22), 9);
    expect(shares[0]?.rinseLimit).toBeCloseTo((1200 * (12 / 22) * 0.9) / 200_000, 12);
    expect(shares[1]?.rinseLimit).toBeNaN();
  });
});

describe('sample limits in the matrix', () => {
  function facility(policy: CleaningLimitPolicy): LimitsInput {
    return {
      policy,
      products: [
        {
          id: 'P',
          minBatchSize: { value: 1, unit: 'kg' },
          maxDailyDose: { value: 1, unit: 'g' },
          actives: [{ id: 'a', pde: { value: 1, unit: 'mg' } }],
        },
        {
          id: 'N',
          minBatchSize: { value: 100, unit: 'kg' },
          maxDailyDose: { value: 1, unit: 'g' },
          actives: [],
        },
      ],
      equipment: [{ id: 'E', surfaceArea: { value: 45.5, unit: 'sqm' } }],
      trains: { P: ['E'], N: ['E'] },
      sampling: plan,
    };
  }

  it.each([
    ['per-sample caps', { useSampleLimit: true, swabSampleLimit: 2, rinseSampleLimit: 0.5 }],
    ['fixed limits', { useFixedSampleLimits: true, fixedSwabLimit: 0.5, fixedRinseLimit: 3 }],
    [
      'lower fixed limits',
      { useFixedSampleLimits: true, fixedSwabLimit: 0.01, fixedRinseLimit: 1 },
    ],
    ['neither', {}],
  ])('agrees with sampleLimits() for %s', (_name, rules) => {
    const policy = { ...defaultPolicy(), ...rules };
    const input = facility(policy);
    const pair = contractDocument(input).pairs?.[0];
    if (!pair?.maco || !pair.sal) throw new Error('no pair');
    const expected = sampleLimits(
      { maco: pair.maco.value, sal: pair.sal.value, area: pair.area.value },
      plan,
      policy,
    );
    expect(pair.swabLimit?.value).toBeCloseTo(expected.swab, 12);
    expect(pair.rinseLimit?.value).toBeCloseTo(expected.rinse, 12);
    const explained = explainPair(input, 'P', 'N');
    expect(explained?.swabLimit?.note).toBe(expected.derivations.swab.note);
  });
});

describe('limit flags', () => {
  const limit = {
    criteria: [80_000, 2000, Number.NaN, 1200, Number.NaN],
    sal: 0.002,
    swabLimit: 0.05,
    rinseLimit: 0.003,
  };

  it('flags limits below the method LOQ', () => {
    const f = limitFlags(limit, {
      swabLoq: { value: 60, unit: 'ug/swab' },
      rinseLoq: { value: 2, unit: 'ug/ml' },
    });
    expect(f.swabBelowLoq).toBe(true);
    expect(f.rinseBelowLoq).toBe(false);
    expect(limitFlags(limit, { swabLoq: { value: 0.01, unit: 'mg' } }).swabBelowLoq).toBe(false);
  });

  it('flags a surface limit above the visible-residue limit', () => {
    expect(
      limitFlags(limit, { visibleResidueLimit: { value: 1, unit: 'ug/sqcm' } })
        .aboveVisibleResidueLimit,
    ).toBe(true);
    expect(
      limitFlags(limit, { visibleResidueLimit: { value: 4, unit: 'ug/sqcm' } })
        .aboveVisibleResidueLimit,
    ).toBe(false);
    expect(
      visualInspectionSufficient({ value: 12, unit: 'ug/sqcm' }, { value: 4, unit: 'ug/sqcm' }),
    ).toBe(true);
  });

  it('flags a health-based limit far looser than the traditional limits (alert limit)', () => {
    const f = limitFlags(limit, {});
    expect(f.healthToTraditionalRatio).toBeCloseTo(80_000 / 1200, 12);
    expect(f.farLooserThanTraditional).toBe(true);
    expect(limitFlags(limit, { looserThanTraditionalFactor: 100 }).farLooserThanTraditional).toBe(
      false,
    );
    const noTraditional = {
      ...limit,
      criteria: [1, Number.NaN, Number.NaN, Number.NaN, Number.NaN],
    };
    expect(limitFlags(noTraditional, {}).farLooserThanTraditional).toBe(false);
  });

  it('raises no flag without the data to check against', () => {
    expect(limitFlags(limit, {})).toMatchObject({
      swabBelowLoq: false,
      rinseBelowLoq: false,
      aboveVisibleResidueLimit: false,
    });
  });
});
