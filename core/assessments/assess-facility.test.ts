import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../limits/policy.ts';
import type { LimitsInput, ProductSpec } from '../limits/model.ts';
import { assessFacility, type AssessEvidence, type AssessFacilityArgs } from './assess-facility.ts';

/*
 * A small facility worked by hand. Health criterion only (MF 1): every product is 100 kg per
 * batch at 1,000 mg a day, so MBS/MDD = 1e5 and MACO = PDE × 1e5.
 *   A: PDE 0.01 mg → MACO 1,000 mg   B: 0.1 mg → 10,000 mg
 *   C: PDE 1 mg → 100,000 mg          D: 0.05 mg → 5,000 mg      E: no batch size (left out)
 * Equipment E1, E2 of 1 sqm (10,000 sqcm) each. Line 1 (id 10): A, B, C on E1 + E2; Line 2
 * (id 20): C, D, E on E2. So A, B, C share E1 + E2 (20,000 sqcm) and D shares E2 (10,000 sqcm).
 * Surface limits (lowest, as previous): A 1,000/20,000 = 0.05; B 10,000/20,000 = 0.5;
 * C 100,000/20,000 = 5; D 5,000/10,000 = 0.5 mg/sqcm.
 */
const product = (id: string, pde: number): ProductSpec => ({
  id,
  minBatchSize: { value: 100, unit: 'kg' },
  maxDailyDose: { value: 1000, unit: 'mg' },
  actives: [{ id: `api-${id}`, pde: { value: pde, unit: 'mg' } }],
});

function facility(evidence: AssessEvidence[] = []): AssessFacilityArgs {
  const input: LimitsInput = {
    policy: { ...defaultPolicy('Chemical'), useDosage: false, useARL: false },
    products: [product('A', 0.01), product('B', 0.1), product('C', 1), product('D', 0.05)],
    equipment: [
      { id: 'E1', surfaceArea: { value: 1, unit: 'sqm' } },
      { id: 'E2', surfaceArea: { value: 1, unit: 'sqm' } },
    ],
    trains: { A: ['E1', 'E2'], B: ['E1', 'E2'], C: ['E1', 'E2'], D: ['E2'] },
    sampling: {},
  };
  return {
    input,
    uncomputable: [{ name: 'E', reason: 'minBatchSize: required' }],
    products: ['A', 'B', 'C', 'D', 'E'].map((name, i) => ({ id: i + 1, name })),
    equipment: [
      { id: 101, name: 'E1' },
      { id: 102, name: 'E2' },
    ],
    productGroups: [
      { id: 7, name: 'Group AB', memberIds: [1, 2] },
      { id: 8, name: 'Group CD', memberIds: [3, 4] },
    ],
    equipmentGroups: [{ id: 9, name: 'Blenders', memberIds: [101, 102] }],
    trains: [
      { id: 10, name: 'Line 1', productIds: [1, 2, 3], equipmentIds: [101, 102] },
      { id: 20, name: 'Line 2', productIds: [3, 4, 5], equipmentIds: [102] },
    ],
    evidence,
    prior: null,
    // As the ranking's criteria select them (lowest MACO, no risk scores): A on Line 1, D on
    // Line 2 (E, left out, cannot be one).
    worst: {
      10: { product: 'A', attribute: 'lowestMaco', text: 'Lowest MACO' },
      20: { product: 'D', attribute: 'lowestMaco', text: 'Lowest MACO' },
    },
  };
}

const study = (
  id: number,
  productId: number,
  trainId: number,
  outcome: 'Validated' | 'Failed',
  limitAtStudy: number | null,
): AssessEvidence => ({
  kind: 'historicalStudy',
  id,
  name: `HS-${id}`,
  productId,
  trainId,
  outcome,
  limitAtStudy,
  date: '2025-06-01',
});

const EVIDENCE = [
  study(1, 1, 10, 'Validated', 0.05), // A on Line 1 at its limit now
  study(2, 4, 20, 'Validated', 1), // D on Line 2 at 1 mg/sqcm, before its PDE fell to 0.05 mg
  study(3, 3, 10, 'Failed', 5), // a failed study covers nothing
];

describe('assessFacility', () => {
  it('finds the worst case of each train with the governing criterion and its numbers', () => {
    const result = assessFacility(facility(EVIDENCE));
    expect(result.worstCases).toEqual([
      {
        train: 'Line 1',
        trainId: 10,
        product: 'A',
        reason:
          'Lowest MACO into any next product on this train: 1,000 mg (A → B, health-based, PDE of api-A 0.01 mg); lowest surface limit 0.05 mg/cm²',
        lowestMaco: 1000,
        lowestSal: 0.05,
      },
      {
        train: 'Line 2',
        trainId: 20,
        product: 'D',
        reason:
          'Lowest MACO into any next product on this train: 5,000 mg (D → A, health-based, PDE of api-D 0.05 mg); lowest surface limit 0.5 mg/cm²',
        lowestMaco: 5000,
        lowestSal: 0.5,
      },
    ]);
  });

  it("names each product group's representative: its member with the lowest surface limit", () => {
    const { groups } = assessFacility(facility(EVIDENCE));
    expect(groups).toEqual([
      { kind: 'product', id: 7, name: 'Group AB', members: ['A', 'B'], representative: 'A' },
      // D 0.5 mg/sqcm is below C's 5 mg/sqcm
      { kind: 'product', id: 8, name: 'Group CD', members: ['C', 'D'], representative: 'D' },
      { kind: 'equipment', id: 9, name: 'Blenders', members: ['E1', 'E2'], representative: null },
    ]);
  });

  it('covers cells by study, tightened limit, representative, or not at all', () => {
    const result = assessFacility(facility(EVIDENCE));
    const cells = result.coverage.map((c) => [
      c.train,
      c.product,
      c.state,
      c.representative,
      c.currentLimit,
      c.evidence.map((e) => e.name),
    ]);
    expect(cells).toEqual([
      ['Line 1', 'A', 'study', null, 0.05, ['HS-1']],
      ['Line 1', 'B', 'representative', 'A', 0.5, ['HS-1']],
      // C's group has no other member on Line 1, and its own study failed
      ['Line 1', 'C', 'notCovered', null, 5, []],
      // on Line 2, C's group representative is D (0.5 < 5), whose study covers the train
      ['Line 2', 'C', 'representative', 'D', 5, ['HS-2']],
      // D's limit fell from the 1 mg/sqcm its study was judged against to 0.5
      ['Line 2', 'D', 'tightened', null, 0.5, ['HS-2']],
      ['Line 2', 'E', 'notCovered', null, null, []],
    ]);
    expect(result.coverage[4]!.evidence[0]).toEqual({
      kind: 'historicalStudy',
      id: 2,
      name: 'HS-2',
      limitAtStudy: 1,
      date: '2025-06-01',
    });
    expect(result.counts).toEqual({
      cells: 6,
      study: 1,
      representative: 2,
      tightened: 1,
      notCovered: 2,
      highestRiskScore: null,
    });
    expect(result.uncomputable).toEqual([{ name: 'E', reason: 'minBatchSize: required' }]);
  });

  it('takes the worst case it is given, with its limit on the train and the override', () => {
    // Selected by a risk score (not the lowest MACO): B on Line 1, overridden by C.
    const args = facility(EVIDENCE);
    const result = assessFacility({
      ...args,
      worst: {
        ...args.worst,
        10: {
          product: 'B',
          attribute: 'score',
          text: 'Highest risk score: 40 points (next worst A: 12 points)',
          worstCase: 'C',
          override: 'C chosen as the worst case instead of the computed B',
        },
      },
    });
    expect(result.worstCases[0]).toEqual({
      train: 'Line 1',
      trainId: 10,
      product: 'B',
      // B's lowest MACO on Line 1: B → A, 0.1 mg × 1e5 = 10,000 mg, its surface limit 10,000 /
      // 20,000 = 0.5 mg/sqcm; the train's lowest surface limit (lowestSal) is A's 0.05.
      reason:
        'Highest risk score: 40 points (next worst A: 12 points). Lowest MACO into any next product on this train: 10,000 mg (B → A, health-based, PDE of api-B 0.1 mg); lowest surface limit 0.5 mg/cm²',
      lowestMaco: 10000,
      lowestSal: 0.05,
      worstCase: 'C',
      override: 'C chosen as the worst case instead of the computed B',
    });
  });

  it('gives a train whose items no pair shares no worst case and no limits', () => {
    const args = facility(EVIDENCE);
    const result = assessFacility({
      ...args,
      equipment: [...args.equipment, { id: 103, name: 'E3' }],
      trains: [...args.trains, { id: 30, name: 'Line 3', productIds: [1], equipmentIds: [103] }],
    });
    expect(result.worstCases[2]).toMatchObject({
      train: 'Line 3',
      product: null,
      lowestMaco: null,
      lowestSal: null,
    });
    expect(result.coverage.find((c) => c.train === 'Line 3')).toMatchObject({
      product: 'A',
      state: 'notCovered',
      currentLimit: null,
    });
  });

  it('has no coverage without studies, and takes the highest risk score given', () => {
    const result = assessFacility({ ...facility(), riskScores: { A: 12, C: 40, Z: 99 } });
    expect(result.coverage.every((c) => c.state === 'notCovered')).toBe(true);
    expect(result.counts.highestRiskScore).toBe(40);
    expect(result.diff).toEqual({
      priorId: null,
      newGaps: [],
      closedGaps: [],
      worstCaseChanges: [],
      changeAssessments: [],
    });
  });

  it('compares with the prior assessment: new gaps, closed gaps, worst-case changes', () => {
    // The prior: only A's study, and (say) C the worst case of Line 2.
    const before = assessFacility(facility([study(1, 1, 10, 'Validated', 0.05)]));
    const prior = {
      id: 41,
      result: {
        coverage: before.coverage,
        worstCases: before.worstCases.map((w) => (w.trainId === 20 ? { ...w, product: 'C' } : w)),
      },
    };
    const result = assessFacility({ ...facility(EVIDENCE), prior });
    expect(result.diff).toEqual({
      priorId: 41,
      // Before: B (representative by A) covered; C and D on Line 2, C on Line 1 and E not.
      // Now D's study makes C on Line 2 representative and D tightened (still a gap).
      newGaps: [],
      closedGaps: [{ product: 'C', train: 'Line 2' }],
      worstCaseChanges: [{ train: 'Line 2', before: 'C', after: 'D' }],
      changeAssessments: [],
    });
    const again = assessFacility({
      ...facility([]),
      prior: { id: 42, result },
    });
    expect(again.diff.newGaps).toEqual([
      { product: 'A', train: 'Line 1' },
      { product: 'B', train: 'Line 1' },
      { product: 'C', train: 'Line 2' },
    ]);
    expect(again.diff.closedGaps).toEqual([]);
  });
});
