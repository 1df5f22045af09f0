import { describe, expect, it } from 'vitest';
import { compileLimits } from './compile.ts';
import { explainPair } from './explain.ts';
import { evaluatePairAt, itemRinseLimit, newPairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { defaultPolicy } from './policy.ts';
import { solveMinBatchSize, solveMinRecovery } from './solver.ts';
import type { CleaningLimitPolicy } from './policy.ts';

/**
 * Each defect of issue 9 with the data that broke it. P (previous) is made on E1 + E2, N (next)
 * on E1 + E2 + E3; they share E1 (10,000 sqcm) and E2 (30,000 sqcm).
 */
function facility(
  policy: Partial<CleaningLimitPolicy>,
  sampling: LimitsInput['sampling'] = {},
): LimitsInput {
  return {
    policy: { ...defaultPolicy(), ...policy },
    products: [
      {
        id: 'P',
        minBatchSize: { value: 50, unit: 'kg' },
        maxDailyDose: { value: 500, unit: 'mg' },
        actives: [{ id: 'potent', pde: { value: 1, unit: 'ug' } }],
      },
      {
        id: 'N',
        minBatchSize: { value: 10, unit: 'kg' },
        maxDailyDose: { value: 1000, unit: 'mg' },
        actives: [{ id: 'mild', pde: { value: 10, unit: 'mg' } }],
      },
    ],
    equipment: [
      { id: 'E1', surfaceArea: { value: 10_000, unit: 'sqcm' } },
      { id: 'E2', surfaceArea: { value: 3, unit: 'sqm' } },
      { id: 'E3', surfaceArea: { value: 1, unit: 'sqm' } },
    ],
    trains: { P: ['E1', 'E2'], N: ['E1', 'E2', 'E3'] },
    sampling,
  };
}

const swab25 = { swabArea: { value: 25, unit: 'sqcm' as const } };
const rinse10L = { rinseVolume: { value: 10, unit: 'L' as const } };

function pair(input: LimitsInput, previous = 'P', next = 'N') {
  const e = explainPair(input, previous, next);
  if (!e) throw new Error('no pair');
  return e;
}

// P → N: health = 0.001 mg × 10^7 mg / 1000 mg = 10 mg (ARL 100 mg); SAL = 10 / 40,000 mg/sqcm.
const MACO = 10;
const SAL = MACO / 40_000;

describe('fixed sample limits are ceilings', () => {
  it.each([
    // the defect: a fixed 10 mg/swab replaced a calculated 6.25e-3 mg/swab (1,600 times lower)
    ['fixed far looser', 10, 10, SAL * 25, (SAL * 40_000) / 10_000, 'calculated'],
    ['fixed lower', 1e-6, 1e-4, 1e-6, 1e-7, 'fixed'],
  ] as const)('%s', (_name, fixedSwab, fixedRinse, swab, rinse, governs) => {
    const e = pair(
      facility(
        { useFixedSampleLimits: true, fixedSwabLimit: fixedSwab, fixedRinseLimit: fixedRinse },
        { ...swab25, ...rinse10L },
      ),
    );
    expect(e.numbers.swabLimit).toBeCloseTo(swab, 18);
    expect(e.numbers.rinseLimit).toBeCloseTo(rinse, 18);
    expect(e.numbers.swabLimit).toBeLessThanOrEqual(SAL * 25);
    const says = governs === 'fixed' ? /fixed sample limit governs/ : /calculated limit governs/;
    expect(e.swabLimit?.note).toMatch(says);
    expect(e.rinseLimit?.note).toMatch(says);
  });
});

describe('nitrosamine: an active with only an acceptable intake', () => {
  const withNdma = (policy: Partial<CleaningLimitPolicy>) => {
    const input = facility(policy);
    input.products[0]!.actives = [{ id: 'NDMA', acceptableIntake: { value: 96, unit: 'ng' } }];
    return input;
  };

  it.each([
    ['Chemical policy', { residueType: 'Chemical' as const }],
    ['Chemical policy without the health criterion', { useToxicity: false }],
    ['Nitrosamine policy', { residueType: 'Nitrosamine' as const }],
  ])('gets its AI-based limit, never the 10 ppm general limit, under the %s', (_n, policy) => {
    const e = pair(withNdma(policy));
    // 96 ng = 9.6e-5 mg/day × 10^7 mg / 1000 mg = 0.96 mg; 10 ppm × 10 kg = 100 mg
    expect(e.numbers.maco).toBeCloseTo(0.96, 12);
    expect(e.governing).toBe('health');
    expect(e.criteria.health.inputs.find((i) => i.symbol === 'HBEL(NDMA)')?.source).toBe(
      'active NDMA: acceptable intake',
    );
    expect(e.perActive[0]?.governing).toBe('health');
  });

  it('leaves an active with a PDE to the policy (its AI is not used under Chemical)', () => {
    const input = facility({});
    input.products[0]!.actives = [
      { id: 'x', pde: { value: 1, unit: 'ug' }, acceptableIntake: { value: 96, unit: 'ng' } },
    ];
    expect(pair(input).numbers.criteria[0]).toBeCloseTo(MACO, 12);
  });
});

describe('sampling recovery', () => {
  it.each([
    ['the sampling type’s own recovery', {}, 60, 70, 0.6, 0.7],
    [
      'the lower of own and global',
      { useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 65 },
      60,
      70,
      0.6,
      0.65,
    ],
    [
      'the global one where the type has none',
      { useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 80 },
      undefined,
      undefined,
      0.8,
      0.8,
    ],
  ] as const)('uses %s', (_n, policy, swabOwn, rinseOwn, rs, rr) => {
    const sampling = {
      ...swab25,
      ...rinse10L,
      ...(swabOwn ? { swabRecoveryPercentage: swabOwn, swabTypeName: 'Swab 5x5' } : {}),
      ...(rinseOwn ? { rinseRecoveryPercentage: rinseOwn, rinseTypeName: 'Final rinse' } : {}),
    };
    const e = pair(facility(policy, sampling));
    expect(e.numbers.swabLimit).toBeCloseTo(SAL * 25 * rs, 18);
    expect(e.numbers.rinseLimit).toBeCloseTo((SAL * 40_000 * rr) / 10_000, 18);
    const r = e.swabLimit?.inputs.find((i) => i.symbol === 'r');
    expect(r?.value).toBe(rs);
    if (swabOwn && rs === swabOwn / 100) expect(r?.source).toBe('sampling type Swab 5x5: recovery');
  });
});

describe('rinse limit of one item', () => {
  it('uses that item’s area and its share of the MACO, not the whole shared train’s', () => {
    const m = compileLimits(facility({}, rinse10L));
    const view = newPairView(m.equipmentCount);
    evaluatePairAt(m, 0, 1, view);
    expect(view.rinseLimit).toBeCloseTo((SAL * 40_000) / 10_000, 18);
    expect(itemRinseLimit(m, view, 0).value).toBeCloseTo((SAL * 10_000) / 10_000, 18);
    expect(itemRinseLimit(m, view, 1).value).toBeCloseTo((SAL * 30_000) / 10_000, 18);
  });
});

describe('useSAR', () => {
  // A residue limit of 1e-7 mg/sqcm caps the SAL (2.5e-4): only then do the two rinse forms differ.
  const capped = { useResidueLimit: true, residueLimit: { value: 1e-7, unit: 'mg/sqcm' as const } };
  it.each([
    ['on: from the capped surface limit', true, (1e-7 * 40_000) / 10_000, /SAL × A/],
    ['off: APIC MACO / V', false, MACO / 10_000, /MACO × r \/ V/],
  ])('%s', (_n, useSAR, rinse, formula) => {
    const e = pair(facility({ ...capped, useSAR }, rinse10L));
    expect(e.numbers.rinseLimit).toBeCloseTo(rinse, 18);
    expect(e.rinseLimit?.formula).toMatch(formula);
  });
});

describe('area label', () => {
  it('says the previous product’s train when the policy uses it', () => {
    expect(pair(facility({ areaBasis: 'previousTrain' })).area.quantity).toBe(
      'area of the previous product’s train',
    );
    expect(pair(facility({})).area.quantity).toBe('shared surface area');
    expect(pair(facility({})).area.inputs[0]?.source).toBe('equipment E1: surface area');
  });
});

describe('what-if solver under a fixed sample limit', () => {
  it('says no batch size lifts a swab limit past a lower fixed limit', () => {
    const input = facility(
      { useFixedSampleLimits: true, fixedSwabLimit: 0.001, fixedRinseLimit: 10 },
      swab25,
    );
    const req = { limit: 'swabLimit' as const, atLeast: 0.002 };
    expect(solveMinBatchSize(input, 'P', 'N', req).status).toBe('impossible');
    expect(solveMinRecovery(input, 'P', 'N', req).status).toBe('impossible');
    // Below the fixed limit the calculation answers as before.
    const ok = solveMinBatchSize(input, 'P', 'N', { limit: 'swabLimit', atLeast: 0.0005 });
    expect(ok.status).toBe('passes');
  });
});
