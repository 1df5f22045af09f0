import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleaningAgentLimits } from './cleaning-agent.ts';
import { compileLimits } from './compile.ts';
import { runMatrix } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { defaultPolicy } from './policy.ts';
import {
  DOSE_BANDS,
  TOXICITY_BANDS,
  bandProblems,
  evaluateRiskFormula,
  riskCategory,
  rpn,
  scoreByBands,
  selectWorstCase,
  toxicityScore,
  worstCasePerEquipment,
  worstCasePerGroup,
  worstCaseRating,
  worstFirst,
} from './risk.ts';
import type { Candidate } from './risk.ts';
import {
  equipmentWiseLimits,
  explainWorstCase,
  facilityWorstCase,
  productWiseLimits,
} from './worst-case.ts';

describe('risk scores', () => {
  it.each([
    [5, 3, 4, 60],
    [1, 1, 1, 1],
    [5, 5, 5, 125],
  ])('RPN %d × %d × %d = %d', (s, o, d, r) => expect(rpn(s, o, d)).toBe(r));

  it('refuses factors off the scale', () => {
    expect(() => rpn(0, 3, 4)).toThrow(RangeError);
    expect(() => rpn(6, 3, 4)).toThrow(RangeError);
    expect(rpn(10, 10, 10, 10)).toBe(1000);
  });

  it.each([
    [1e-5, 5],
    [1e-3, 3],
    [0.1, 1],
    [1e-6, 6],
  ])('toxicity score of %d g/day is %d', (g, score) =>
    expect(toxicityScore(g)).toBeCloseTo(score, 12),
  );

  it.each([
    [1001, 1],
    [1000, 2],
    [100, 2],
    [99.99, 3],
    [10, 3],
    [9.99, 4],
    [1, 4],
    [0.99, 5],
  ])('dose %d mg is group %d', (dose, group) => expect(scoreByBands(dose, DOSE_BANDS)).toBe(group));

  it.each([
    [500.5, 1],
    [500, 2],
    [100, 2],
    [99.5, 3],
    [10, 3],
    [9.5, 4],
    [1, 4],
    [0.995, 5],
    [0.01, 5],
  ])('HBEL %d ug/day is group %d', (hbel, group) =>
    expect(scoreByBands(hbel, TOXICITY_BANDS)).toBe(group),
  );

  it('builds bands that tile the line, and finds gaps in a badly built scale', () => {
    expect(bandProblems(DOSE_BANDS)).toEqual([]);
    expect(bandProblems(TOXICITY_BANDS)).toEqual([]);
    const gappy = [
      { score: 1, lower: 501 },
      { score: 2, lower: 100, upper: 500, upperInclusive: true },
    ];
    expect(bandProblems(gappy)).toHaveLength(1);
    expect(() => scoreByBands(500.5, gappy)).toThrow(RangeError);
  });

  it('rates the worst case as the product of four groups', () => {
    expect(
      worstCaseRating({
        solubility: 'Freely soluble',
        minDoseMg: 0.5,
        hbelUgPerDay: 0.01,
        cleanability: 'Difficult',
      }),
    ).toEqual({ solubility: 1, dose: 5, toxicity: 5, cleanability: 3, rating: 75 });
    expect(() =>
      worstCaseRating({ solubility: 'gooey', minDoseMg: 1, hbelUgPerDay: 1, cleanability: 'Easy' }),
    ).toThrow(/unknown term/);
  });

  it('evaluates configurable formulas and categories', () => {
    const scores = { severity: 5, occurrence: 3, detectability: 4 };
    expect(
      evaluateRiskFormula(
        { kind: 'product', factors: ['severity', 'occurrence', 'detectability'] },
        scores,
      ),
    ).toBe(60);
    expect(evaluateRiskFormula({ kind: 'sum', factors: ['severity', 'occurrence'] }, scores)).toBe(
      8,
    );
    expect(
      evaluateRiskFormula(
        { kind: 'weightedSum', weights: { severity: 2, detectability: 0.5 } },
        scores,
      ),
    ).toBe(12);
    expect(() => evaluateRiskFormula({ kind: 'sum', factors: ['missing'] }, scores)).toThrow(
      RangeError,
    );
    const categories = [
      { name: 'Low', minScore: 0, maxScore: 27 },
      { name: 'Medium', minScore: 27, maxScore: 64 },
      { name: 'High', minScore: 64 },
    ];
    expect([10, 27, 60, 64, 125].map((s) => riskCategory(s, categories))).toEqual([
      'Low',
      'Medium',
      'Medium',
      'High',
      'High',
    ]);
  });

  it('orders candidates worst first exactly as picking the worst one after another does', () => {
    // Few distinct values, so that ties, missing attributes, infinities and NaN all occur.
    const value = fc.constantFrom(1, 2, 3, -0, 0, Infinity, -Infinity, NaN, undefined);
    const candidates = fc.array(fc.record({ a: value, b: value }), { maxLength: 12 }).map((rows) =>
      rows.map(({ a, b }, i) => {
        const attributes: Record<string, number> = {};
        if (a !== undefined) attributes.a = a;
        if (b !== undefined) attributes.b = b;
        return { id: `P${i}`, attributes };
      }),
    );
    const criteria = fc.array(
      fc.record({
        attribute: fc.constantFrom('a', 'b', 'c'),
        worst: fc.constantFrom('highest' as const, 'lowest' as const),
      }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(candidates, criteria, (list, by) => {
        const picked: string[] = [];
        const pool = [...list];
        for (let w = selectWorstCase(pool, by); w; w = selectWorstCase(pool, by)) {
          pool.splice(pool.indexOf(w), 1);
          picked.push(w.id);
        }
        expect(worstFirst(list, by).map((c) => c.id)).toEqual(picked);
      }),
    );
  });

  it('selects the worst case by ordered criteria, per group', () => {
    const candidates: Candidate[] = [
      { id: 'X', attributes: { wcr: 24, ratio: 5e5 } },
      { id: 'Y', attributes: { wcr: 75, ratio: 7e7 } },
      { id: 'Z', attributes: { wcr: 75, ratio: 1e5 } },
      { id: 'W', attributes: { ratio: 1 } },
    ];
    const byRating = [
      { attribute: 'wcr', worst: 'highest' as const },
      { attribute: 'ratio', worst: 'lowest' as const },
    ];
    expect(selectWorstCase(candidates, byRating)?.id).toBe('Z');
    expect(selectWorstCase(candidates, [{ attribute: 'ratio', worst: 'lowest' }])?.id).toBe('W');
    expect(
      worstCasePerEquipment({ X: ['E1', 'E2'], Y: ['E2', 'E2'], W: ['E3'] }, candidates, byRating),
    ).toEqual({
      E1: 'X',
      E2: 'Y',
      E3: 'W',
    });
    expect(worstCasePerGroup({ G1: ['X', 'Y'], G2: ['W'], G3: [] }, candidates, byRating)).toEqual({
      G1: 'Y',
      G2: 'W',
      G3: null,
    });
  });
});

describe('cleaning agents and worst cases', () => {
  const products = [
    {
      id: 'N1',
      minBatchSize: { value: 200, unit: 'kg' as const },
      maxDailyDose: { value: 1000, unit: 'mg' as const },
      actives: [],
    },
    {
      id: 'N2',
      minBatchSize: { value: 10, unit: 'kg' as const },
      maxDailyDose: { value: 10, unit: 'g' as const },
      actives: [],
    },
  ];
  const equipment = [
    { id: 'E1', surfaceArea: { value: 2, unit: 'sqm' as const } },
    { id: 'E2', surfaceArea: { value: 3, unit: 'sqm' as const } },
  ];
  const trains = { N1: ['E1', 'E2'], N2: ['E2'] };

  it('limits a detergent by its LD50 or own HBEL against the ppm ceiling, lowest governing', () => {
    const policy = defaultPolicy('Detergent');
    const [n1, n2] = cleaningAgentLimits(
      { id: 'D', ld50: { value: 5000, unit: 'mg/kg' } },
      products,
      equipment,
      trains,
      policy,
    );
    // N1: NOEL 175 mg/day → 175 × 200e6 / (1000 × 1000) = 35000 mg; ceiling 10 ppm × 200 kg = 2000 mg
    expect(n1).toMatchObject({
      ld50: 35_000,
      arl: 2000,
      maco: 2000,
      governing: 'arl',
      area: 50_000,
    });
    expect(n1?.sal).toBeCloseTo(2000 / 50_000, 12);
    expect(n1?.derivations.ld50.result?.value).toBe(n1?.ld50);
    expect(n1?.derivations.ld50.steps[0]?.value).toBeCloseTo(175, 12); // NOEL
    expect(n1?.derivations.maco.note).toBe('governed by arl');
    expect(n1?.derivations.health.note).toBe('no HBEL for the agent');
    expect(n1?.derivations.sal.result?.value).toBe(n1?.sal);
    // N2: 175 × 10e6 / (1000 × 10000) = 175 mg; ceiling 100 mg
    expect(n2?.governing).toBe('arl');
    const withHbel = cleaningAgentLimits(
      { id: 'D', hbel: { value: 1, unit: 'mg' } },
      products,
      equipment,
      trains,
      policy,
    );
    expect(withHbel[1]).toMatchObject({ health: 1000, governing: 'arl' });
    expect(withHbel[0]?.health).toBeCloseTo(200_000, 9);
  });

  it('gives product-wise, equipment-wise and facility worst cases', () => {
    const input: LimitsInput = {
      policy: defaultPolicy(),
      products: [
        {
          id: 'A',
          minBatchSize: { value: 100, unit: 'kg' },
          maxDailyDose: { value: 400, unit: 'mg' },
          actives: [{ id: 'a', pde: { value: 1, unit: 'ug' } }],
        },
        {
          id: 'B',
          minBatchSize: { value: 200, unit: 'kg' },
          maxDailyDose: { value: 2400, unit: 'mg' },
          actives: [{ id: 'b', pde: { value: 5, unit: 'mg' } }],
        },
      ],
      equipment,
      trains: { A: ['E1', 'E2'], B: ['E2'] },
      sampling: {},
    };
    const m = compileLimits(input);
    const s = runMatrix(m);
    const [a] = productWiseLimits(m, s);
    expect(a?.worstNext).toBe('B');
    expect(a?.ownTrainSal).toBeCloseTo((a?.lowestMaco ?? 0) / 50_000, 12);
    expect(a?.lowestSal).toBeCloseTo((a?.lowestMaco ?? 0) / 30_000, 12);
    expect(equipmentWiseLimits(m, s).map((e) => e.id)).toEqual(['E2']);
    const [e2] = equipmentWiseLimits(m, s);
    if (!a || !e2) throw new Error('no worst cases');
    expect(explainWorstCase(m, a)?.maco.result?.value).toBe(a.lowestMaco);
    expect(explainWorstCase(m, e2)?.sal.result?.value).toBe(e2.lowestSal);
    const w = facilityWorstCase(m);
    expect(w).toMatchObject({ mostHazardousPrevious: 'A', smallestBatchToDose: 'B' });
    expect(w.macoHealth).toBeCloseTo((0.001 * 200e6) / 2400, 9);
  });
});
