import { describe, expect, it } from 'vitest';
import { syntheticLimitsInput } from '#bench/limits-input.ts';
import { parseLimitsInput } from '../limits/contract-input.ts';
import { addProductEdit, pdeEdit, twoProductFacility } from '../limits/two-product-facility.ts';
import { applyWhatIf } from '../limits/limits.what-if.ts';
import type { LimitsInput } from '../limits/model.ts';
import { ZImpactItem, ZImpactPair, ZImpactSummary } from '../schemas/change-assessments.schemas.ts';
import { UnitKindError } from '../units/quantity.ts';
import { changeImpact } from './change-impact.ts';
import type { ImpactContext, SampleResult } from './change-impact.ts';

/*
 * The small facility, by hand. MBS/MDD: A 100 kg / 400 mg = 250,000; B 200 kg / 2,400 mg =
 * 83,333.3; C 50 kg / 1,000 mg = 50,000. Every pair shares only E2 (8 sqm = 80,000 sqcm).
 * health(P→N) = PDE(P) × MBS/MDD(N); general limit = 10 ppm × MBS(N) (A 1,000, B 2,000, C 500 mg).
 *   A→B 83.33 (health)   A→C 50 (health)
 *   B→A 1,000 (ARL)      B→C 500 (ARL)
 *   C→A 1,000 (ARL)      C→B 2,000 (ARL)
 * SAL = MACO / 80,000; swab = SAL × 25 sqcm; rinse = SAL × 80,000 / 20,000 ml = MACO / 20,000.
 */
function facility(): LimitsInput {
  const input = twoProductFacility({
    products: [
      {
        id: 'C',
        minBatchSize: { value: 50, unit: 'kg' },
        maxDailyDose: { value: 1000, unit: 'mg' },
        actives: [{ id: 'c1', pde: { value: 10, unit: 'mg' } }],
      },
    ],
    equipment: [{ id: 'E3', surfaceArea: { value: 5, unit: 'sqm' } }],
    trains: { C: ['E2', 'E3'] },
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 20, unit: 'L' } },
  });
  return { ...input, sampling: { ...input.sampling, extractionVolume: { value: 10, unit: 'ml' } } };
}

const none: ImpactContext = { trains: [], methods: [], results: [] };
/**
 * Line 1's computed worst case as the ranking names it (server worst-products.service.ts): with
 * no risk factors recorded the lowest MACO decides, A's 50 mg before (A→C), B's 5 mg after the
 * change of b1 below (B→C).
 */
const line1 = { name: 'Line 1', products: ['A', 'B', 'C'], equipment: ['E2'] };
const line1Worst = { before: 'A', after: 'B' };

function valid(result: ReturnType<typeof changeImpact>) {
  for (const item of result.items) ZImpactItem.parse(item);
  for (const pair of result.pairs) ZImpactPair.parse(pair);
  ZImpactSummary.parse(result.summary);
  return result;
}

const pairName = (p: { previous: string; next: string }) => `${p.previous}→${p.next}`;

describe('changeImpact', () => {
  it('a PDE change moves exactly the pairs with that previous product, by the exact ratio', () => {
    const before = facility();
    const after = applyWhatIf(before, [pdeEdit('a1', 0.5)]);
    const { items, pairs, summary } = valid(changeImpact(before, after, none));
    expect(summary).toMatchObject({
      pairsBefore: 6,
      pairsAfter: 6,
      pairsMoved: 2,
      pairsTightened: 2,
      pairsAdded: 0,
      pairsRemoved: 0,
      criterionChanged: 0,
      pairsListed: 2,
    });
    expect(pairs.map(pairName).sort()).toEqual(['A→B', 'A→C']);
    for (const pair of pairs) {
      expect(pair.after!.maco! / pair.before!.maco!).toBeCloseTo(0.5, 12);
      expect(pair.macoChange).toBeCloseTo(-50, 9);
      expect(pair.salChange).toBeCloseTo(-50, 9);
      expect(pair.swabChange).toBeCloseTo(-50, 9);
      expect(pair.rinseChange).toBeCloseTo(-50, 9);
    }
    expect(pairs.find((p) => p.next === 'C')!.before).toMatchObject({ criterion: 'health' });
    expect(pairs.find((p) => p.next === 'C')!.before!.maco).toBeCloseTo(50, 9);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      key: 'limitsMoved:A',
      kind: 'limitsMoved',
      subject: 'A',
      pairs: 2,
      tightened: true,
      decision: null,
      units: { maco: 'mg', sal: 'mg/sqcm', swab: 'mg/swab', rinse: 'ppm' },
    });
    expect(item!.changePercent).toBeCloseTo(-50, 9);
    expect(item!.before!.maco).toBeCloseTo(50, 9);
    expect(item!.after!.maco).toBeCloseTo(25, 9);
    expect(item!.after!.sal).toBeCloseTo(25 / 80_000, 15);
    expect(item!.after!.swab).toBeCloseTo((25 / 80_000) * 25, 15);
    // 25 mg in 20 L = 1.25 mg/L, shown in ppm (the policy's rinse unit)
    expect(item!.after!.rinse).toBeCloseTo(1.25, 12);
    expect(item!.summary).toContain('2 pairs move (largest change -50 %)');
    expect(item!.summary).toContain('lowest MACO 50 → 25 mg');
  });

  it('shows the limits in the units asked for', () => {
    const before = facility();
    const after = applyWhatIf(before, [pdeEdit('a1', 0.5)]);
    const units = { maco: 'ug', sal: 'ug/sqcm', swab: 'ug/swab', rinse: 'ug/ml' } as const;
    const { items } = changeImpact(before, after, { ...none, units });
    expect(items[0]!.units).toEqual(units);
    expect(items[0]!.after!.maco).toBeCloseTo(25_000, 6);
    expect(items[0]!.after!.sal).toBeCloseTo(25_000 / 80_000, 12);
    expect(items[0]!.after!.rinse).toBeCloseTo(1.25, 12);
  });

  it('a policy change moves every pair; float noise is not a move', () => {
    const before = facility();
    const after: LimitsInput = {
      ...before,
      policy: { ...before.policy, useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 80 },
    };
    const { items, pairs, summary } = valid(changeImpact(before, after, none));
    expect(summary.pairsMoved).toBe(6);
    expect(summary.pairsTightened).toBe(6);
    for (const pair of pairs) {
      expect(pair.macoChange).toBe(0);
      expect(pair.swabChange).toBeCloseTo(-20, 9);
      expect(pair.rinseChange).toBeCloseTo(-20, 9);
    }
    expect(items.map((i) => i.key)).toEqual(['limitsMoved:A', 'limitsMoved:B', 'limitsMoved:C']);
    expect(items.every((i) => Math.abs(i.changePercent! + 20) < 1e-9)).toBe(true);

    // A PDE off by a relative 1e-13 (another unit's rounding) changes nothing.
    const noise = applyWhatIf(before, [pdeEdit('a1', 1 + 1e-13)]);
    expect(changeImpact(before, noise, none).summary.pairsMoved).toBe(0);
    expect(changeImpact(before, noise, none).items).toEqual([]);
  });

  it('lists at most maxPairs pairs, the largest change first, and counts the rest', () => {
    const before = facility();
    const after = applyWhatIf(before, [
      pdeEdit('a1', 0.5),
      { kind: 'pde', active: 'b1', value: { value: 4, unit: 'mg' } },
    ]);
    // B's pairs stay governed by the general limit (4 mg × 50,000 > 500 mg): only A's move.
    const { pairs, summary } = changeImpact(before, after, { ...none, maxPairs: 1 });
    expect(summary.pairsMoved).toBe(2);
    expect(summary.pairsListed).toBe(1);
    expect(pairs.map(pairName)).toEqual(['A→B']); // a tie at -50 %: matrix order
    const zero = changeImpact(before, after, { ...none, maxPairs: 0 });
    expect(zero.pairs).toEqual([]);
    expect(zero.summary.pairsMoved).toBe(2);
  });

  it('an added product gives pairsAdded and new pairs, listed first', () => {
    const before = facility();
    const after = applyWhatIf(before, [
      pdeEdit('a1', 0.5),
      addProductEdit('D', 'c1', 10, 100, ['E3']),
    ]);
    const { items, pairs, summary } = valid(changeImpact(before, after, none));
    // D shares E3 (5 sqm) with C only: C→D min(10 mg × 100,000; 10 ppm × 10 kg) = 100 mg,
    // D→C min(10 mg × 50,000; 500) = 500 mg.
    expect(summary).toMatchObject({ pairsAdded: 2, pairsRemoved: 0, pairsAfter: 8, pairsMoved: 2 });
    expect(pairs.slice(0, 2).map(pairName)).toEqual(['C→D', 'D→C']);
    expect(pairs[0]!.before).toBeNull();
    expect(pairs[0]!.after!.maco).toBeCloseTo(100, 9);
    expect(pairs[0]!.after!.criterion).toBe('arl');
    expect(pairs[0]!.after!.sal).toBeCloseTo(100 / 50_000, 15);
    const added = items.find((i) => i.kind === 'pairsAdded')!;
    expect(added).toMatchObject({ key: 'pairsAdded:D', pairs: 2, before: null });
    expect(added.after!.maco).toBeCloseTo(100, 9);
    expect(added.summary).toContain('2 new pairs (new product)');
    expect(items.map((i) => i.kind)).toEqual(['limitsMoved', 'pairsAdded']);
  });

  it('an archived product gives pairsRemoved', () => {
    const before = facility();
    const after = applyWhatIf(before, [{ kind: 'archiveProduct', product: 'C' }]);
    const { items, pairs, summary } = valid(changeImpact(before, after, none));
    expect(summary).toMatchObject({
      pairsBefore: 6,
      pairsAfter: 2,
      pairsRemoved: 4,
      pairsMoved: 0,
    });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ key: 'pairsRemoved:C', pairs: 4, after: null });
    expect(items[0]!.before!.maco).toBeCloseTo(50, 9); // A→C, the lowest of the four
    expect(items[0]!.summary).toBe('4 pairs no longer computed (product removed)');
    expect(pairs.map(pairName)).toEqual(['A→C', 'B→C', 'C→A', 'C→B']);
    expect(pairs.every((p) => p.after === null && p.before !== null)).toBe(true);
  });

  it('an equipment item leaving a train removes only the pairs that shared it', () => {
    const before = facility();
    const after = { ...before, trains: { ...before.trains, B: ['E1'] } };
    const { items, summary } = valid(changeImpact(before, after, none));
    // B now shares E1 with A only: A→B and B→A stay (on E1, 12 sqm), B↔C go.
    expect(summary).toMatchObject({ pairsRemoved: 2, pairsAdded: 0, pairsMoved: 2 });
    expect(items.map((i) => i.key)).toEqual([
      'limitsMoved:A',
      'limitsMoved:B',
      'pairsRemoved:B',
      'pairsRemoved:C',
    ]);
  });

  it('a criterion switch and a worst-case change on a train', () => {
    const before = facility();
    // b1 0.1 ug: B→A 1e-4 × 250,000 = 25 mg, B→C 1e-4 × 50,000 = 5 mg, both health now.
    const after = applyWhatIf(before, [pdeEdit('b1', 0.1)]);
    const { items, summary } = valid(
      changeImpact(before, after, { ...none, trains: [line1], worstCases: () => [line1Worst] }),
    );
    expect(summary).toMatchObject({ pairsMoved: 2, criterionChanged: 1, worstCasesChanged: 1 });
    const criterion = items.find((i) => i.key === 'criterionChanged:B')!;
    expect(criterion.before).toMatchObject({ criterion: 'arl', maco: 500 });
    expect(criterion.after!.criterion).toBe('health');
    expect(criterion.after!.maco).toBeCloseTo(5, 9);
    expect(criterion.pairs).toBe(2);
    expect(criterion.summary).toContain('arl → health');
    const worst = items.find((i) => i.kind === 'worstCaseChanged')!;
    expect(worst.key).toBe('worstCaseChanged:Line 1');
    expect(worst.summary).toContain('Worst case A → B');
    expect(worst.before!.maco).toBeCloseTo(50, 9);
    expect(worst.after!.maco).toBeCloseTo(5, 9);
    expect(worst.changePercent).toBeCloseTo(-90, 9);
    expect(worst.tightened).toBe(true);
    expect(items.map((i) => i.kind)).toEqual([
      'limitsMoved',
      'criterionChanged',
      'worstCaseChanged',
    ]);
    // Two productions of one name keep apart keys, in their order.
    const twice = changeImpact(before, after, {
      ...none,
      trains: [line1, line1],
      worstCases: () => [line1Worst, line1Worst],
    });
    expect(twice.items.filter((i) => i.kind === 'worstCaseChanged').map((i) => i.key)).toEqual([
      'worstCaseChanged:Line 1',
      'worstCaseChanged:Line 1 #2',
    ]);
    // People read which of the name it is in words, never a number after '#'.
    expect(twice.items.filter((i) => i.kind === 'worstCaseChanged').map((i) => i.subject)).toEqual([
      'Line 1',
      'Line 1 (2nd of that name)',
    ]);
  });

  it('below the LOQ, with the LOQ converted into the unit of the limit', () => {
    const before = facility();
    const after = applyWhatIf(before, [pdeEdit('a1', 0.5)]);
    // A→C swab: 25 mg / 80,000 sqcm × 25 sqcm = 0.0078125 mg/swab (0.015625 before). The LOQ
    // 1 ug/ml in the 10 ml extract is 0.01 mg/swab: below now, not before. A→B (0.01302) is not.
    // Rinse A→C: 25 mg / 20 L = 1.25 mg/L, under a LOQ of 2 ppm (2.5 before: not under).
    const context: ImpactContext = {
      ...none,
      methods: [
        { name: 'HPLC-7', sampleType: 'swab', loq: { value: 1, unit: 'ug/ml' }, residues: ['a1'] },
        { name: 'TOC', sampleType: 'rinse', loq: { value: 2, unit: 'ppm' } },
        // Per swab: 0.02 mg/swab, below before as well with a limit that moved: still reported.
        { name: 'UV', sampleType: 'swab', loq: { value: 20, unit: 'ug/swab' }, residues: ['A'] },
        // Not for A's residue.
        { name: 'HPLC-9', sampleType: 'swab', loq: { value: 1, unit: 'mg/ml' }, residues: ['c1'] },
      ],
    };
    const { items, summary } = valid(changeImpact(before, after, context));
    const below = items.filter((i) => i.kind === 'belowLoq');
    expect(below.map((i) => i.key)).toEqual([
      'belowLoq:A · HPLC-7',
      'belowLoq:A · TOC',
      'belowLoq:A · UV',
    ]);
    expect(summary.belowLoq).toBe(3);
    expect(below[0]!.pairs).toBe(1);
    expect(below[0]!.after!.swab).toBeCloseTo(0.0078125, 15);
    expect(below[0]!.summary).toBe(
      'Lowest swab limit 0.01563 → 0.007813 mg/swab, below the LOQ of HPLC-7 (0.01 mg/swab)',
    );
    expect(below[1]!.summary).toBe(
      'Lowest rinse limit 2.5 → 1.25 ppm, below the LOQ of TOC (2 ppm)',
    );
    expect(below[2]!.pairs).toBe(2);
    // C's swab limits (0.3125 mg/swab and up) were under HPLC-9's 10 mg/swab before as well,
    // unchanged: not an effect of this change.
    expect(items.some((i) => i.subject.endsWith('HPLC-9'))).toBe(false);
  });

  it('refuses an LOQ it cannot express in the unit of the limit', () => {
    const before = facility();
    const mass = { name: 'M', sampleType: 'swab', loq: { value: 1, unit: 'mg' } } as const;
    expect(() => changeImpact(before, before, { ...none, methods: [mass] })).toThrow(UnitKindError);
    const noExtract: LimitsInput = {
      ...before,
      sampling: { swabArea: { value: 25, unit: 'sqcm' } },
    };
    expect(() =>
      changeImpact(noExtract, noExtract, {
        ...none,
        methods: [{ name: 'M', sampleType: 'swab', loq: { value: 1, unit: 'ug/ml' } }],
      }),
    ).toThrow('method M: LOQ: a swab amount in ug/ml needs the swab extraction volume');
    // Before the change only: unknown then, so the after side alone decides (reported).
    const method = { name: 'M', sampleType: 'swab', loq: { value: 2, unit: 'ug/ml' } } as const;
    const { items } = changeImpact(noExtract, before, { ...none, methods: [method] });
    // 2 ug/ml × 10 ml = 0.02 mg/swab: A's 0.015625 is below it.
    expect(items.filter((i) => i.kind === 'belowLoq').map((i) => i.key)).toEqual([
      'belowLoq:A · M',
    ]);
  });

  it('a result over half its new limit is at risk, over it fails; exactly half is not', () => {
    const before = facility();
    const after = applyWhatIf(before, [pdeEdit('a1', 0.5)]);
    // A→C swab limit 7.8125 ug/swab now, 15.625 before.
    const limit = changeImpact(before, after, none).pairs.find((p) => p.next === 'C')!.after!.swab!;
    const swab = (id: string, value: number, unit = 'mg/swab'): SampleResult => ({
      id,
      previous: 'A',
      next: 'C',
      sampleType: 'swab',
      value: { value, unit },
    });
    const results: SampleResult[] = [
      swab('half', limit / 2),
      swab('risk', 5, 'ug/swab'),
      swab('fail', 8, 'ug/swab'),
      swab('low', 3, 'ug/swab'),
      // Rinse of E2 alone after A, any next: its own area (all of E2) and share: A→C 25 mg / 20 L.
      {
        id: 'rinse',
        previous: 'A',
        equipment: 'E2',
        sampleType: 'rinse',
        value: { value: 20, unit: 'mg/rinse' },
      },
      { id: 'gone', previous: 'Z', sampleType: 'swab', value: { value: 1, unit: 'mg/swab' } },
    ];
    const { items, summary } = valid(changeImpact(before, after, { ...none, results }));
    const atRisk = items.filter((i) => i.kind === 'resultAtRisk');
    expect(atRisk.map((i) => i.key)).toEqual([
      'resultAtRisk:risk',
      'resultAtRisk:fail',
      'resultAtRisk:rinse',
    ]);
    expect(summary.resultsAtRisk).toBe(3);
    expect(atRisk[0]!.summary).toBe(
      'swab result 0.005 mg/swab after A is over half of the new limit 0.007813 mg/swab (was 0.01563 mg/swab)',
    );
    expect(atRisk[1]!.summary).toContain('fails the new limit');
    expect(atRisk[1]!.after!.swab).toBeCloseTo(0.0078125, 15);
    expect(atRisk[1]!.changePercent).toBeCloseTo(-50, 9);
    // 20 mg in 20 L = 1 mg/L against 1.25 mg/L (was 2.5): 80 %.
    expect(atRisk[2]!.after!.rinse).toBeCloseTo(1.25, 12);
    expect(atRisk[2]!.summary).toContain('rinse result 1 ppm after A is over half');
    // Unchanged limits: a result already at risk is not an effect of the change.
    expect(changeImpact(after, after, { ...none, results }).items).toEqual([]);
  });
});

describe('changeImpact on an unchanged input', () => {
  it('gives no items and no pairs, whatever the facility', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const raw = syntheticLimitsInput(12 + seed, 30 + seed, seed);
      const parsed = parseLimitsInput(raw);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      const input = parsed.input;
      const ids = input.products.map((p) => p.id);
      const context: ImpactContext = {
        trains: [
          {
            name: 'T1',
            products: ids.filter((_, i) => i % 2 === 0),
            equipment: [],
          },
          { name: 'T2', products: ids.slice(0, 5), equipment: [] },
        ],
        worstCases: () => [
          { before: ids[0]!, after: ids[0]! },
          { before: null, after: null },
        ],
        methods: [
          { name: 'swab', sampleType: 'swab', loq: { value: 1e6, unit: 'ug/swab' } },
          { name: 'rinse', sampleType: 'rinse', loq: { value: 1e6, unit: 'ppm' } },
        ],
        results: ids.slice(0, 3).map((id, i) => ({
          id: `R${i}`,
          previous: id,
          sampleType: 'swab',
          value: { value: 1e6, unit: 'mg/swab' },
        })),
      };
      const result = changeImpact(input, structuredClone(input), context);
      expect(result.items).toEqual([]);
      expect(result.pairs).toEqual([]);
      expect(result.summary.pairsBefore).toBe(result.summary.pairsAfter);
      expect(result.summary.pairsBefore).toBeGreaterThan(0);
      expect(result.summary.pairsMoved + result.summary.pairsAdded).toBe(0);
    }
  });
});
