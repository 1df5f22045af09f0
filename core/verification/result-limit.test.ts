import { describe, expect, it } from 'vitest';
import { compileLimits } from '../limits/compile.ts';
import { limitsReport } from '../limits/limit-reports.ts';
import type { LimitsInput } from '../limits/model.ts';
import { defaultPolicy } from '../limits/policy.ts';
import { resultLimit, resultLimits } from './result-limit.ts';
import type { ResultLimitQuery } from './result-limit.ts';

const product = (id: string, pdeMg: number, mbsKg: number, mddMg: number) => ({
  id,
  minBatchSize: { value: mbsKg, unit: 'kg' as const },
  maxDailyDose: { value: mddMg, unit: 'mg' as const },
  actives: [{ id: `${id} API`, pde: { value: pdeMg, unit: 'mg' as const } }],
});

/*
 * Health MACO(P → N) = PDE(P) × MBS(N) / MDD(N) (MF 1; the general limit is off).
 * MBS/MDD: A 50 kg / 200 mg = 250,000; B 100 kg / 400 mg = 250,000; C 20 kg / 1,000 mg = 20,000.
 * Pairs (shared items, area):
 *   A → B (E1, E2; 130,000 sqcm): MACO 0.1 × 250,000 = 25,000 mg, SAL 25,000 / 130,000 = 0.192308
 *   A → C (E3; 20,000 sqcm):      MACO 0.1 × 20,000 = 2,000 mg,   SAL 2,000 / 20,000 = 0.1
 *   B → A (E1, E2; 130,000 sqcm): MACO 0.001 × 250,000 = 250 mg,  SAL 250 / 130,000 = 0.00192308
 *   C → A (E3; 20,000 sqcm):      MACO 5 × 250,000 = 1,250,000 mg, SAL 62.5
 *   B and C share nothing. E4 is only on C's train: in no pair. E5 is on no train.
 * The snapshot's own recovery (swab 80 %, global 50 %) must not reach the result's limit.
 */
const snapshot: LimitsInput = {
  policy: {
    ...defaultPolicy(),
    useARL: false,
    useGlobalRecoveryPercentage: true,
    globalRecoveryPercentage: 50,
  },
  products: [product('A', 0.1, 50, 200), product('B', 0.001, 100, 400), product('C', 5, 20, 1000)],
  equipment: [
    { id: 'E1', surfaceArea: { value: 125_000, unit: 'sqcm' } },
    { id: 'E2', surfaceArea: { value: 5_000, unit: 'sqcm' } },
    { id: 'E3', surfaceArea: { value: 20_000, unit: 'sqcm' } },
    { id: 'E4', surfaceArea: { value: 1_000, unit: 'sqcm' } },
    { id: 'E5', surfaceArea: { value: 1_000, unit: 'sqcm' } },
  ],
  trains: { A: ['E1', 'E2', 'E3'], B: ['E1', 'E2'], C: ['E3', 'E4'] },
  sampling: {
    swabArea: { value: 100, unit: 'sqcm' },
    rinseVolume: { value: 10, unit: 'L' },
    swabRecoveryPercentage: 80,
  },
};

const swab: ResultLimitQuery = {
  equipmentId: 'E1',
  productIds: [],
  basis: 'equipmentWise',
  sampleType: 'swab',
  swabAreaSqcm: 25,
  rinseVolumeMl: null,
  unit: 'mg/swab',
};
const rinse: ResultLimitQuery = {
  ...swab,
  sampleType: 'rinse',
  swabAreaSqcm: null,
  rinseVolumeMl: 1000,
  unit: 'mg/ml',
};

describe('resultLimit', () => {
  it.each<[string, Partial<ResultLimitQuery>, number]>([
    // E1 lowest SAL is B → A: 250 / 130,000 = 0.00192308 mg/sqcm; × 25 sqcm = 0.0480769 mg/swab
    ['equipment-wise swab on E1', {}, (250 / 130_000) * 25],
    // the same in ug: 0.0480769 × 1000 = 48.0769 ug/swab
    ['in ug/swab', { unit: 'ug/swab' }, (250 / 130_000) * 25 * 1000],
    // product-wise with A as previous: only A → B shares E1: 25,000 / 130,000 × 25 = 4.80769 mg
    [
      'product-wise swab, A previous',
      { basis: 'productWise', productIds: ['A'] },
      (25_000 / 130_000) * 25,
    ],
    // C leaves nothing on E1 for another product: the equipment-wise limit stands
    [
      'product-wise falls back to equipment-wise',
      { basis: 'productWise', productIds: ['C'] },
      (250 / 130_000) * 25,
    ],
    ['product-wise without products', { basis: 'productWise' }, (250 / 130_000) * 25],
    // E3: lowest SAL A → C 0.1 mg/sqcm × 100 sqcm = 10 mg/swab
    ['E3 swab of 100 sqcm', { equipmentId: 'E3', swabAreaSqcm: 100 }, 10],
  ])('%s', (_name, change, expected) => {
    expect(resultLimit(snapshot, { ...swab, ...change }).limit).toBeCloseTo(expected, 12);
  });

  it.each<[string, Partial<ResultLimitQuery>, number]>([
    // B → A: SAL 250 / 130,000 × E1's 125,000 sqcm = 240.385 mg (its share); ÷ 1,000 ml
    ['rinse of E1', {}, (250 * 125_000) / 130_000 / 1000],
    // 0.240385 mg/ml = 240.385 ug/ml = 240.385 ppm
    ['rinse in ppm', { unit: 'ppm' }, (250 * 125_000) / 130_000],
    // E3 on its own: A → C MACO 2,000 mg over 20,000 sqcm, all of it E3's; ÷ 500 ml = 4 mg/ml
    ['rinse of E3', { equipmentId: 'E3', rinseVolumeMl: 500 }, 4],
  ])('%s', (_name, change, expected) => {
    expect(resultLimit(snapshot, { ...rinse, ...change }).limit).toBeCloseTo(expected, 12);
  });

  it('says why there is no limit', () => {
    expect(resultLimit(snapshot, { ...swab, equipmentId: 'E4' })).toEqual({
      limit: null,
      derivation: ['E4 is in no product pair of the limits snapshot: no limit applies'],
    });
    expect(resultLimit(snapshot, { ...swab, equipmentId: 'E5' }).limit).toBeNull();
    expect(resultLimit(snapshot, { ...swab, equipmentId: 'nowhere' }).derivation).toEqual([
      'nowhere is not in the limits snapshot',
    ]);
    const noArea = resultLimit(snapshot, { ...swab, swabAreaSqcm: null });
    expect(noArea.limit).toBeNull();
    expect(noArea.derivation).toContain('No swab area for this location: no swab limit');
  });

  it('applies the fixed sample limits only where lower', () => {
    const fixed = (swabMg: number, rinsePpm: number): LimitsInput => ({
      ...snapshot,
      policy: {
        ...snapshot.policy,
        useFixedSampleLimits: true,
        fixedSwabLimit: swabMg,
        fixedRinseLimit: rinsePpm,
      },
    });
    // 0.01 mg < 0.0480769 mg/swab: the fixed limit governs
    const low = resultLimit(fixed(0.01, 100), swab);
    expect(low.limit).toBeCloseTo(0.01, 15);
    expect(low.derivation).toContain(
      "Lower than the calculated limit, the policy's fixed sample limit applies: 0.01 mg/swab",
    );
    // 1 mg > 0.0480769: the calculated limit stands
    expect(resultLimit(fixed(1, 100), swab).limit).toBeCloseTo((250 / 130_000) * 25, 12);
    // 100 ppm = 0.1 mg/ml < 0.240385 mg/ml: the fixed rinse limit governs
    expect(resultLimit(fixed(1, 100), rinse).limit).toBeCloseTo(0.1, 15);
  });

  it('applies the per-sample cap only where lower', () => {
    const capped: LimitsInput = {
      ...snapshot,
      policy: { ...snapshot.policy, useSampleLimit: true, rinseSampleLimit: 10 },
    };
    // 10 ppm = 0.01 mg/ml < 0.240385 mg/ml: the cap governs the rinse
    const r = resultLimit(capped, rinse);
    expect(r.limit).toBeCloseTo(0.01, 15);
    expect(r.derivation).toContain(
      "Lower than the calculated limit, the policy's per-sample cap applies: 0.01 mg/ml",
    );
    // E3's 4 mg/ml is above the cap too: 0.01 mg/ml governs
    expect(resultLimit(capped, { ...rinse, equipmentId: 'E3', rinseVolumeMl: 500 }).limit).toBe(
      0.01,
    );
  });

  it('answers many locations at once as it answers each', () => {
    const queries: ResultLimitQuery[] = [
      swab,
      { ...swab, equipmentId: 'E3', swabAreaSqcm: 100 },
      rinse,
      { ...swab, equipmentId: 'E4' },
      { ...swab, basis: 'productWise', productIds: ['A', 'B'] },
    ];
    expect(resultLimits(snapshot, queries)).toEqual(queries.map((q) => resultLimit(snapshot, q)));
    // A and B as previous on E1: A → B 0.192308, B → A 0.00192308: the lower, × 25
    expect(resultLimits(snapshot, queries)[4]?.limit).toBeCloseTo((250 / 130_000) * 25, 12);
  });

  it('writes the derivation with numbers and units', () => {
    expect(resultLimit(snapshot, { ...swab, unit: 'ug/swab' }).derivation).toEqual([
      'Limit basis: equipment-wise: the lowest surface limit of E1 over its 2 pairs',
      'Lowest surface limit (SAL): 0.001923 mg/cm², pair B → A',
      'Swab limit: 0.001923 mg/cm² × 25 cm² = 0.04808 mg/swab (no recovery: the result is divided by it instead)',
      'In µg/swab: 48.08 µg/swab',
    ]);
  });

  it('refuses a swab limit in a rinse unit', () => {
    expect(() => resultLimit(snapshot, { ...swab, unit: 'mg/ml' })).toThrow();
  });

  it("equals the engine's own limits at recovery 100 %", () => {
    for (const useSAR of [true, false]) {
      const engineInput: LimitsInput = {
        ...snapshot,
        policy: { ...snapshot.policy, useSAR, useGlobalRecoveryPercentage: false },
        sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } },
      };
      const report = limitsReport(compileLimits(engineInput));
      expect(report.equipment.map((item) => item.id)).toEqual(['E1', 'E2', 'E3']);
      for (const item of report.equipment) {
        const q = { ...swab, equipmentId: item.id };
        expect(resultLimit(engineInput, q).limit).toBe(item.swab.value);
        expect(resultLimit(engineInput, { ...rinse, equipmentId: item.id }).limit).toBe(
          item.rinse.value,
        );
      }
      // and the snapshot's recovery is what the engine multiplies in: 50 % global, 80 % swab
      const withRecovery = limitsReport(compileLimits({ ...engineInput, policy: snapshot.policy }));
      expect(withRecovery.equipment[0]?.swab.value).toBeCloseTo(
        0.5 * (resultLimit(snapshot, swab).limit ?? 0),
        15,
      );
    }
  });
});
