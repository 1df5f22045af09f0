import { describe, expect, it } from 'vitest';
import { parseLimitsInput } from './contract-input.ts';
import { contractDocument } from './contract-output.ts';
import type { ContractDocument, ContractPair } from './contract-output.ts';

/**
 * The rules of contracts/limits.md, one by one, on small hand-computed inputs (independent of
 * the published cases). Values in the comments are worked by hand.
 */

type Raw = Record<string, unknown>;

function base(): Raw {
  return {
    products: [
      {
        id: 'A',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [
          { id: 'a1', pde: { value: 1, unit: 'ug' }, therapeuticDose: { value: 2, unit: 'mg' } },
        ],
      },
      {
        id: 'B',
        minBatchSize: { value: 200, unit: 'kg' },
        maxDailyDose: { value: 2400, unit: 'mg' },
        actives: [
          { id: 'b1', pde: { value: 5, unit: 'mg' }, therapeuticDose: { value: 100, unit: 'mg' } },
        ],
      },
    ],
    equipment: [
      { id: 'E1', surfaceArea: { value: 12, unit: 'sqm' } },
      { id: 'E2', surfaceArea: { value: 8, unit: 'sqm' } },
      { id: 'E3', surfaceArea: { value: 9, unit: 'sqm' } },
    ],
    trains: { A: ['E1', 'E2'], B: ['E2', 'E1', 'E3'] },
  };
}

function run(raw: Raw, summary = false): ContractDocument {
  const parsed = parseLimitsInput(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return contractDocument(parsed.input, { summary });
}

function pair(doc: ContractDocument, previous: string, next: string): ContractPair {
  const found = doc.pairs?.find((p) => p.previous === previous && p.next === next);
  if (!found) throw new Error(`no pair ${previous} → ${next}`);
  return found;
}

function errorsOf(raw: unknown): string[] {
  const parsed = parseLimitsInput(raw);
  return parsed.ok ? [] : parsed.errors.map((e) => e.property);
}

const v = (q: { value: number } | null | undefined) => q?.value;

describe('criteria of one pair', () => {
  it('computes every criterion with converted units and takes the lowest', () => {
    const ab = pair(run(base()), 'A', 'B');
    // health 0.001 mg × 200e6 mg / 2400 mg = 83.333…; dose 2 × 200e6 / (1000 × 2400) = 166.67
    expect(v(ab.criteria.health)).toBeCloseTo(83.333_333_333, 6);
    expect(v(ab.criteria.dose)).toBeCloseTo(166.666_666_667, 6);
    expect(ab.criteria.ld50).toBeNull();
    expect(v(ab.criteria.arl)).toBeCloseTo(2000, 9); // 10 ppm × 200 kg
    expect(ab.governing).toBe('health');
    expect(ab.governingActive).toBe('a1');
    expect(v(ab.maco)).toBeCloseTo(83.333_333_333, 6);
    expect(ab.sharedEquipment).toEqual(['E1', 'E2']); // equipment input order, not train order
    expect(ab.area).toEqual({ value: 200_000, unit: 'sqcm' });
    expect(v(ab.sal)).toBeCloseTo(83.333_333_333 / 200_000, 12);
    expect(ab.salCapped).toBe(false);
    expect(ab).not.toHaveProperty('swabLimit');
    expect(ab).not.toHaveProperty('rinseLimit');
  });

  it('computes the LD50 criterion with the policy body weight and empirical factor', () => {
    const raw = base();
    raw.policy = {
      useLd50: true,
      bodyWeight: { value: 50, unit: 'kg' },
      ld50EmpiricalFactor: 1000,
    };
    (raw.products as Raw[])[0] = {
      ...(raw.products as Raw[])[0],
      actives: [{ id: 'a1', ld50: { value: 2, unit: 'mg/kg' } }],
    };
    // NOEL = 2 × 50 / 1000 = 0.1 mg/day; MACO = 0.1 × 200e6 / (1000 × 2400) = 8.333…
    const ab = pair(run(raw), 'A', 'B');
    expect(v(ab.criteria.ld50)).toBeCloseTo(8.333_333_333, 8);
    expect(ab.governing).toBe('ld50');
  });

  it('leaves a switched-off criterion null', () => {
    const raw = base();
    raw.policy = { useToxicity: false, useDosage: false, useARL: false };
    const ab = pair(run(raw), 'A', 'B');
    expect(ab.criteria).toEqual({ health: null, dose: null, ld50: null, arl: null });
    expect(ab.maco).toBeNull();
    expect(ab.governing).toBeNull();
    expect(ab.governingActive).toBeNull();
    expect(ab.sal).toBeNull();
    expect(ab.salCapped).toBe(false);
  });

  it('breaks ties in the order health, dose, ld50, arl', () => {
    const raw = base();
    // dose: 5 mg × 50e6 / (1000 × 500) = 500 mg; arl: 10 × 50 kg = 500 mg
    (raw.products as Raw[])[0] = {
      id: 'A',
      minBatchSize: { value: 1, unit: 'kg' },
      maxDailyDose: { value: 1, unit: 'g' },
      actives: [{ id: 'a1', therapeuticDose: { value: 5, unit: 'mg' } }],
    };
    (raw.products as Raw[])[1] = {
      id: 'B',
      minBatchSize: { value: 50, unit: 'kg' },
      maxDailyDose: { value: 500, unit: 'mg' },
      actives: [],
    };
    const ab = pair(run(raw), 'A', 'B');
    expect(v(ab.criteria.dose)).toBeCloseTo(500, 9);
    expect(v(ab.criteria.arl)).toBeCloseTo(500, 9);
    expect(ab.governing).toBe('dose');
  });

  it('takes each criterion’s lowest over the actives, the first active on a tie', () => {
    const raw = base();
    (raw.products as Raw[])[0] = {
      ...(raw.products as Raw[])[0],
      actives: [
        { id: 'x', pde: { value: 2, unit: 'ug' }, therapeuticDose: { value: 0.05, unit: 'mg' } },
        { id: 'y', pde: { value: 0.002, unit: 'mg' }, therapeuticDose: { value: 9, unit: 'mg' } },
        { id: 'z', pde: { value: 1.5, unit: 'ug' } },
      ],
    };
    const ab = pair(run(raw), 'A', 'B');
    // health: lowest PDE is z (1.5 ug); dose: x (0.05 mg) → 0.05 × 200e6 / (1000 × 2400) = 4.1667
    expect(v(ab.criteria.health)).toBeCloseTo((0.0015 * 200e6) / 2400, 9);
    expect(v(ab.criteria.dose)).toBeCloseTo((0.05 * 200e6) / (1000 * 2400), 9);
    expect(ab.governing).toBe('dose');
    expect(ab.governingActive).toBe('x');

    (raw.products as Raw[])[0] = {
      ...(raw.products as Raw[])[0],
      actives: [
        { id: 'p', pde: { value: 2, unit: 'ug' } },
        { id: 'q', pde: { value: 0.002, unit: 'mg' } },
      ],
    };
    const tie = pair(run(raw), 'A', 'B');
    expect(tie.governing).toBe('health');
    expect(tie.governingActive).toBe('p');
  });

  it('gives the general limit to the first active and nothing to a product without actives', () => {
    const raw = base();
    raw.policy = { useToxicity: false, useDosage: false };
    const ab = pair(run(raw), 'A', 'B');
    expect(ab.governing).toBe('arl');
    expect(ab.governingActive).toBe('a1');
    (raw.products as Raw[])[0] = { ...(raw.products as Raw[])[0], actives: [] };
    const none = pair(run(raw), 'A', 'B');
    expect(none.criteria.arl).toBeNull();
    expect(none.maco).toBeNull();
  });

  it('takes the first available criterion with useFirstAvailableCriteria, even when higher', () => {
    const raw = base();
    raw.policy = { useFirstAvailableCriteria: true };
    const ba = pair(run(raw), 'B', 'A');
    // health 5 mg × 100e6 / 400 = 1.25e6 mg, far above arl (1000 mg), still governs
    expect(ba.governing).toBe('health');
    expect(v(ba.maco)).toBeCloseTo(1_250_000, 6);
    raw.policy = { useFirstAvailableCriteria: true, useToxicity: false };
    expect(pair(run(raw), 'B', 'A').governing).toBe('dose');
  });

  it('converts batch sizes in volume (1 g/ml) and in units (× unit weight) for the general limit', () => {
    const raw = base();
    raw.policy = { useToxicity: false, useDosage: false };
    (raw.products as Raw[])[1] = {
      id: 'B',
      minBatchSize: { value: 500, unit: 'L' },
      maxDailyDose: { value: 10, unit: 'ml' },
      actives: [],
    };
    expect(v(pair(run(raw), 'A', 'B').criteria.arl)).toBeCloseTo(5000, 9); // 500 kg × 10 ppm
    (raw.products as Raw[])[1] = {
      id: 'B',
      minBatchSize: { value: 400_000, unit: 'units' },
      maxDailyDose: { value: 4, unit: 'units' },
      actives: [],
    };
    expect(pair(run(raw), 'A', 'B').criteria.arl).toBeNull();
    (raw.products as Raw[])[1] = {
      ...(raw.products as Raw[])[1],
      unitWeight: { value: 250, unit: 'mg' },
    };
    expect(v(pair(run(raw), 'A', 'B').criteria.arl)).toBeCloseTo(1000, 9); // 100 kg × 10 ppm
  });

  it('takes a unit weight in volume at 1 g/ml in the engine (spec §3 tablet weight mg or ml)', () => {
    const parsed = parseLimitsInput(base());
    if (!parsed.ok) throw new Error('base input invalid');
    const input = parsed.input;
    input.policy = { ...input.policy, useToxicity: false, useDosage: false };
    input.products[1] = {
      id: 'B',
      minBatchSize: { value: 10_000, unit: 'units' },
      maxDailyDose: { value: 2, unit: 'units' },
      unitWeight: { value: 5, unit: 'ml' },
      actives: [],
    };
    // 10000 × 5 ml × 1 g/ml = 50 kg; 10 ppm → 500 mg
    expect(v(pair(contractDocument(input), 'A', 'B').criteria.arl)).toBeCloseTo(500, 9);
  });

  it('computes dose-based limits in dosage units as in mass', () => {
    const raw = base();
    raw.policy = { useToxicity: false, useARL: false };
    (raw.products as Raw[])[1] = {
      id: 'B',
      minBatchSize: { value: 500_000, unit: 'units' },
      maxDailyDose: { value: 8, unit: 'units' },
      actives: [],
    };
    // 2 mg × 500000 / (1000 × 8) = 125 mg
    expect(v(pair(run(raw), 'A', 'B').maco)).toBeCloseTo(125, 9);
  });

  it('uses the acceptable intake as the HBEL for nitrosamines, without dose or LD50 criteria', () => {
    const raw = base();
    raw.policy = { residueType: 'Nitrosamine', useLd50: true };
    (raw.products as Raw[])[0] = {
      ...(raw.products as Raw[])[0],
      actives: [
        {
          id: 'ndma',
          pde: { value: 1, unit: 'mg' },
          therapeuticDose: { value: 1, unit: 'mg' },
          ld50: { value: 100, unit: 'mg/kg' },
          acceptableIntake: { value: 96, unit: 'ng' },
        },
      ],
    };
    const ab = pair(run(raw), 'A', 'B');
    expect(v(ab.criteria.health)).toBeCloseTo((96e-6 * 200e6) / 2400, 12); // 8 mg
    expect(ab.criteria.dose).toBeNull();
    expect(ab.criteria.ld50).toBeNull();
    expect(ab.governing).toBe('health');
    raw.policy = { residueType: 'Chemical' };
    expect(v(pair(run(raw), 'A', 'B').criteria.health)).toBeCloseTo((1 * 200e6) / 2400, 9);
  });
});

describe('area, surface limit, cap and sample limits', () => {
  it('spreads over the previous product’s whole train with areaBasis previousTrain', () => {
    const raw = base();
    raw.policy = { areaBasis: 'previousTrain' };
    const doc = run(raw);
    expect(pair(doc, 'A', 'B').area.value).toBe(200_000); // A: E1 + E2
    expect(pair(doc, 'B', 'A').area.value).toBe(290_000); // B: E1 + E2 + E3
    expect(pair(doc, 'B', 'A').sharedEquipment).toEqual(['E1', 'E2']);
  });

  it('caps the surface limit at a lower residue limit, and only when lower', () => {
    const raw = base();
    // A → B: SAL = 83.33 / 200000 = 4.1667e-4 mg/sqcm = 0.41667 ug/sqcm
    raw.policy = { useResidueLimit: true, residueLimit: { value: 0.1, unit: 'ug/sqcm' } };
    raw.sampling = {
      swabArea: { value: 25, unit: 'sqcm' },
      rinseVolume: { value: 100, unit: 'L' },
    };
    const capped = pair(run(raw), 'A', 'B');
    expect(capped.salCapped).toBe(true);
    expect(v(capped.sal)).toBeCloseTo(0.0001, 15);
    expect(v(capped.swabLimit)).toBeCloseTo(0.0025, 15);
    expect(v(capped.rinseLimit)).toBeCloseTo((0.0001 * 200_000) / 100_000, 15);
    expect(v(capped.maco)).toBeCloseTo(83.333_333_333, 6);
    raw.policy = { useResidueLimit: true, residueLimit: { value: 10, unit: 'ug/sqin' } };
    const loose = pair(run(raw), 'A', 'B');
    expect(loose.salCapped).toBe(false);
    raw.policy = { useResidueLimit: false, residueLimit: { value: 0.1, unit: 'ug/sqcm' } };
    expect(pair(run(raw), 'A', 'B').salCapped).toBe(false);
  });

  it('multiplies recovery into swab and rinse limits', () => {
    const raw = base();
    raw.sampling = {
      swabArea: { value: 4, unit: 'sqin' },
      rinseVolume: { value: 500, unit: 'ml' },
    };
    const full = pair(run(raw), 'A', 'B');
    raw.policy = { useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 50 };
    const half = pair(run(raw), 'A', 'B');
    const sal = (83.333_333_333_333_33 / 200_000) as number;
    expect(v(full.swabLimit)).toBeCloseTo(sal * 25.8064, 12);
    expect(v(half.swabLimit)).toBeCloseTo(sal * 25.8064 * 0.5, 12);
    expect(v(half.rinseLimit)).toBeCloseTo((sal * 200_000 * 0.5) / 500, 12);
    raw.policy = { useGlobalRecoveryPercentage: false, globalRecoveryPercentage: 50 };
    expect(v(pair(run(raw), 'A', 'B').swabLimit)).toBeCloseTo(sal * 25.8064, 12);
  });

  it('gives null sample limits for a pair without a MACO, and keeps the keys', () => {
    const raw = base();
    raw.policy = { useToxicity: false, useDosage: false, useARL: false };
    raw.sampling = { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } };
    const ab = pair(run(raw), 'A', 'B');
    expect(ab.swabLimit).toBeNull();
    expect(ab.rinseLimit).toBeNull();
  });
});

describe('matrix, products and equipment', () => {
  function three(): Raw {
    const raw = base();
    (raw.products as Raw[]).push({
      id: 'C',
      minBatchSize: { value: 50, unit: 'kg' },
      maxDailyDose: { value: 500, unit: 'mg' },
      actives: [{ id: 'c1', pde: { value: 0.5, unit: 'mg' } }],
    });
    (raw.products as Raw[]).push({
      id: 'D',
      minBatchSize: { value: 50, unit: 'kg' },
      maxDailyDose: { value: 500, unit: 'mg' },
      actives: [],
    });
    (raw.equipment as Raw[]).push({ id: 'E4', surfaceArea: { value: 1, unit: 'sqm' } });
    raw.trains = { B: ['E2', 'E1', 'E3'], A: ['E1', 'E2', 'E1'], C: ['E3'], D: [] };
    return raw;
  }

  it('lists pairs previous then next in input order, only where trains share equipment', () => {
    const doc = run(three());
    expect(doc.pairs?.map((p) => `${p.previous}>${p.next}`)).toEqual(['A>B', 'B>A', 'B>C', 'C>B']);
    expect(pair(doc, 'A', 'B').sharedEquipment).toEqual(['E1', 'E2']); // duplicates in a train count once
  });

  it('summarises each previous product and each shared item', () => {
    const doc = run(three());
    expect(doc.products.map((p) => p.id)).toEqual(['A', 'B', 'C']);
    const b = doc.products.find((p) => p.id === 'B');
    const bToA = pair(doc, 'B', 'A');
    const bToC = pair(doc, 'B', 'C');
    const lowest = [bToA, bToC].sort((x, y) => (v(x.maco) ?? 0) - (v(y.maco) ?? 0))[0];
    expect(b?.lowestMaco).toEqual(lowest?.maco);
    expect(b?.worstNext).toBe(lowest?.next);
    expect(v(b?.lowestSal)).toBe(Math.min(v(bToA.sal) ?? 0, v(bToC.sal) ?? 0));
    expect(doc.equipment.map((e) => e.id)).toEqual(['E1', 'E2', 'E3']); // E4 is in no pair
    const e3 = doc.equipment.find((e) => e.id === 'E3');
    const e3Pairs = [bToC, pair(doc, 'C', 'B')];
    const e3Lowest = Math.min(...e3Pairs.map((p) => v(p.sal) ?? Infinity));
    expect(v(e3?.lowestSal)).toBe(e3Lowest);
    const governing = e3Pairs.find((p) => v(p.sal) === e3Lowest);
    expect(e3?.governingPair).toEqual([governing?.previous, governing?.next]);
  });

  it('takes the first pair in output order on a tie for an item’s governing pair', () => {
    const raw = base();
    // identical products: both pairs share E1, E2 with the same SAL
    (raw.products as Raw[])[1] = {
      ...(raw.products as Raw[])[0],
      id: 'B',
      actives: [
        { id: 'b1', pde: { value: 1, unit: 'ug' }, therapeuticDose: { value: 2, unit: 'mg' } },
      ],
    };
    raw.trains = { A: ['E1', 'E2'], B: ['E1', 'E2'] };
    const doc = run(raw);
    expect(v(pair(doc, 'A', 'B').sal)).toBe(v(pair(doc, 'B', 'A').sal));
    expect(doc.equipment.every((e) => e.governingPair?.join('>') === 'A>B')).toBe(true);
  });

  it('gives null lowest values and worst next for a product whose pairs have no MACO', () => {
    const raw = base();
    (raw.products as Raw[])[0] = { ...(raw.products as Raw[])[0], actives: [] };
    const doc = run(raw);
    expect(doc.products.find((p) => p.id === 'A')).toEqual({
      id: 'A',
      lowestMaco: null,
      lowestSal: null,
      worstNext: null,
    });
  });

  it('prints the same summary with and without pairs', () => {
    const full = run(three());
    const summary = run(three(), true);
    expect(summary).not.toHaveProperty('pairs');
    expect(summary.products).toEqual(full.products);
    expect(summary.equipment).toEqual(full.equipment);
  });
});

describe('input rules', () => {
  const mutate = (change: (raw: Raw) => void): Raw => {
    const raw = base();
    change(raw);
    return raw;
  };
  const product = (raw: Raw, i: number) => (raw.products as Raw[])[i] as Raw;

  it.each<[string, (raw: Raw) => void, string]>([
    [
      'unknown unit',
      (r) => (product(r, 0).minBatchSize = { value: 1, unit: 'lb' }),
      'products[0].minBatchSize.unit',
    ],
    [
      'area unit for a batch',
      (r) => (product(r, 0).minBatchSize = { value: 1, unit: 'sqm' }),
      'products[0].minBatchSize.unit',
    ],
    [
      'missing unit',
      (r) => (product(r, 1).maxDailyDose = { value: 1 }),
      'products[1].maxDailyDose.unit',
    ],
    [
      'zero dose',
      (r) => (product(r, 1).maxDailyDose = { value: 0, unit: 'mg' }),
      'products[1].maxDailyDose.value',
    ],
    [
      'string value',
      (r) => (product(r, 0).minBatchSize = { value: '100', unit: 'kg' }),
      'products[0].minBatchSize.value',
    ],
    ['missing dose', (r) => delete product(r, 1).maxDailyDose, 'products[1].maxDailyDose'],
    [
      'mixed kinds',
      (r) => (product(r, 0).maxDailyDose = { value: 1, unit: 'ml' }),
      'products[0].maxDailyDose.unit',
    ],
    [
      'unit weight as volume',
      (r) => (product(r, 0).unitWeight = { value: 1, unit: 'ml' }),
      'products[0].unitWeight.unit',
    ],
    [
      'ld50 in mg',
      (r) => (product(r, 0).actives = [{ id: 'a1', ld50: { value: 1, unit: 'mg' } }]),
      'products[0].actives[0].ld50.unit',
    ],
    [
      'pde in ppm',
      (r) => (product(r, 0).actives = [{ id: 'a1', pde: { value: 1, unit: 'ppm' } }]),
      'products[0].actives[0].pde.unit',
    ],
    [
      'duplicate active in a product',
      (r) => (product(r, 0).actives = [{ id: 'a1' }, { id: 'a1' }]),
      'products[0].actives[1].id',
    ],
    [
      // one active may be in several products, with the same data (contracts/limits.md)
      'an active across products with different data',
      (r) => (product(r, 1).actives = [{ id: 'a1' }]),
      'products[1].actives[0].pde',
    ],
    [
      'active without id',
      (r) => (product(r, 0).actives = [{ pde: { value: 1, unit: 'mg' } }]),
      'products[0].actives[0].id',
    ],
    [
      'duplicate equipment',
      (r) => ((r.equipment as Raw[])[2] = { id: 'E1', surfaceArea: { value: 1, unit: 'sqm' } }),
      'equipment[2].id',
    ],
    [
      'missing surface area',
      (r) => ((r.equipment as Raw[])[1] = { id: 'E2' }),
      'equipment[1].surfaceArea',
    ],
    [
      'negative surface area',
      (r) => ((r.equipment as Raw[])[0] = { id: 'E1', surfaceArea: { value: -1, unit: 'sqm' } }),
      'equipment[0].surfaceArea.value',
    ],
    ['train of an unknown product', (r) => (r.trains = { A: ['E1'], Z: ['E1'] }), 'trains.Z'],
    ['train naming unknown equipment', (r) => (r.trains = { A: ['E1', 'E7'] }), 'trains.A[1]'],
    ['train that is not a list', (r) => (r.trains = { A: 'E1' }), 'trains.A'],
    [
      'recovery 0',
      (r) => (r.policy = { globalRecoveryPercentage: 0 }),
      'policy.globalRecoveryPercentage',
    ],
    [
      'recovery above 100',
      (r) => (r.policy = { useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 100.5 }),
      'policy.globalRecoveryPercentage',
    ],
    ['safety factor below 1', (r) => (r.policy = { safetyFactor: 0.5 }), 'policy.safetyFactor'],
    [
      'unknown residue type',
      (r) => (r.policy = { residueType: 'Biological' }),
      'policy.residueType',
    ],
    [
      'residue type outside the contract',
      (r) => (r.policy = { residueType: 'Detergent' }),
      'policy.residueType',
    ],
    ['unknown area basis', (r) => (r.policy = { areaBasis: 'train' }), 'policy.areaBasis'],
    ['switch that is not a boolean', (r) => (r.policy = { useLd50: 'yes' }), 'policy.useLd50'],
    ['ARL not in ppm', (r) => (r.policy = { arl: { value: 10, unit: 'mg' } }), 'policy.arl.unit'],
    [
      'residue limit not per area',
      (r) => (r.policy = { residueLimit: { value: 10, unit: 'mg' } }),
      'policy.residueLimit.unit',
    ],
    [
      'body weight not a mass',
      (r) => (r.policy = { bodyWeight: { value: 70, unit: 'L' } }),
      'policy.bodyWeight.unit',
    ],
    [
      'swab area in ml',
      (r) => (r.sampling = { swabArea: { value: 25, unit: 'ml' } }),
      'sampling.swabArea.unit',
    ],
    [
      'rinse volume in sqcm',
      (r) => (r.sampling = { rinseVolume: { value: 25, unit: 'sqcm' } }),
      'sampling.rinseVolume.unit',
    ],
    ['products not a list', (r) => (r.products = {}), 'products'],
    ['no trains', (r) => delete r.trains, 'trains'],
  ])('rejects %s at %s', (_name, change, property) => {
    expect(errorsOf(mutate(change))).toContain(property);
  });

  it('accepts every unit of the contract table where its kind belongs', () => {
    const raw = base();
    product(raw, 0).minBatchSize = { value: 100_000, unit: 'g' };
    product(raw, 0).maxDailyDose = { value: 400_000, unit: 'ug' };
    product(raw, 0).actives = [
      { id: 'a1', pde: { value: 1000, unit: 'ng' }, therapeuticDose: { value: 0.002, unit: 'g' } },
    ];
    product(raw, 1).minBatchSize = { value: 0.2, unit: 'kg' };
    product(raw, 1).maxDailyDose = { value: 2400, unit: 'mg' };
    (raw.equipment as Raw[])[0] = { id: 'E1', surfaceArea: { value: 120_000, unit: 'sqcm' } };
    (raw.equipment as Raw[])[1] = { id: 'E2', surfaceArea: { value: 12_400.01, unit: 'sqin' } };
    raw.policy = { residueLimit: { value: 1, unit: 'mg/sqm' }, useResidueLimit: true };
    expect(errorsOf(raw)).toEqual([]);
  });

  it('reports every problem of one input, not only the first', () => {
    const raw = mutate((r) => {
      product(r, 0).minBatchSize = { value: -1, unit: 'stone' };
      r.policy = { safetyFactor: 0 };
      r.trains = { A: ['E9'] };
    });
    expect(errorsOf(raw)).toEqual(
      expect.arrayContaining([
        'products[0].minBatchSize.value',
        'products[0].minBatchSize.unit',
        'policy.safetyFactor',
        'trains.A[0]',
      ]),
    );
  });

  it('rejects input that is not an object', () => {
    for (const bad of [null, 3, 'x', []]) expect(errorsOf(bad)).toEqual(['input']);
  });
});
