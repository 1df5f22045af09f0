import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMULA, compileLimits } from './compile.ts';
import { explainPair } from './explain.ts';
import { macFormulaProblem } from './mac-formula.ts';
import type { MacFormulaSpec } from './mac-formula.ts';
import { evaluatePairAt, newPairView, runMatrix } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { defaultPolicy } from './policy.ts';
import { facilityOf, facilityShapeArb, positive, type Generated } from './facility-arbitrary.ts';

describe('a MAC formula’s units, checked when it is saved', () => {
  it.each([
    'HBEL * MBS / MDD',
    '0.001 * TDD * MBS / MDD',
    'TDD * MBS / (SF * MDD)',
    'NOEL * MBS / (SF * MDD)',
    'ARL * MBS',
    'min(HBEL, TDD / SF) * MBS / MDD',
    'max(PDE, AI) * (MBS / MDD) ^ 1',
    'HBEL * MBS / MDD * A / A',
    'HBEL ^ 2 / HBEL * MBS / MDD',
  ])('accepts %s: a mass', (expression) => {
    expect(macFormulaProblem(expression)).toBeUndefined();
  });

  it.each([
    ['HBEL + MBS', "Units do not match: 'HBEL + MBS' adds mg/day and mg"],
    ['MBS - A', "Units do not match: 'MBS - A' subtracts mg and sqcm"],
    ['min(MBS, HBEL)', "Units do not match: 'min(MBS, HBEL)' compares mg with mg/day"],
    ['HBEL * MBS', 'Units do not match: the formula gives mg^2/day, a MACO is a mass (mg)'],
    ['HBEL / MDD', 'Units do not match: the formula gives a plain number, a MACO is a mass (mg)'],
    [
      'LD50 * BW / EF * MBS / (SF * MDD)',
      'Units do not match: the formula gives mg·day, a MACO is a mass (mg)',
    ],
    ['MBS ^ 0.5 * 1', "Units do not match: 'MBS ^ 0.5': a quantity in mg can only be raised"],
    ['MBS * 2 ^ MBS', "Units do not match: '2 ^ MBS': the exponent MBS has a unit (mg)"],
    ['sqrt(MBS * MBS)', "Units do not match: 'sqrt' is not allowed in a MAC formula"],
    ['PDE_prev * MBS / MDD', "Units do not match: unknown variable 'PDE_prev' (known: HBEL, PDE"],
    ['HBEL * (MBS / MDD', "Invalid formula: ')' expected to close '(' at position 8"],
  ])('refuses %s, naming the term', (expression, message) => {
    expect(macFormulaProblem(expression)).toContain(message);
  });
});

/** Two products on one item; P0 (PDE 1 mg/day, TDD 50 mg/day) before P1 (MBS 100 kg, MDD 500 mg). */
function facility(macFormulas?: MacFormulaSpec[], overrides: Partial<LimitsInput> = {}) {
  const input: LimitsInput = {
    policy: defaultPolicy('Chemical'),
    products: [
      {
        id: 'P0',
        minBatchSize: { value: 50, unit: 'kg' },
        maxDailyDose: { value: 1, unit: 'g' },
        actives: [
          {
            id: 'A0',
            pde: { value: 1, unit: 'mg' },
            therapeuticDose: { value: 50, unit: 'mg' },
          },
        ],
      },
      {
        id: 'P1',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 500, unit: 'mg' },
        actives: [{ id: 'A1', pde: { value: 10, unit: 'mg' } }],
      },
    ],
    equipment: [{ id: 'E0', surfaceArea: { value: 20_000, unit: 'sqcm' } }],
    trains: { P0: ['E0'], P1: ['E0'] },
    sampling: {},
    ...(macFormulas ? { macFormulas } : {}),
    ...overrides,
  };
  return input;
}

function pair(input: LimitsInput, p = 0, n = 1) {
  const m = compileLimits(input);
  const view = newPairView(m.equipmentCount);
  expect(evaluatePairAt(m, p, n, view)).toBe(true);
  return view;
}

describe('an approved MAC formula in the limits engine', () => {
  it('gives each active of a combination its own formula limit (ignoreCombo), governing where lower', () => {
    const tighter = {
      id: 'Site 1/50000',
      expression: 'TDD * MBS / (50000 * MDD)',
      versionNumber: 1,
    };
    const input = facility([tighter]);
    input.products[0]!.actives.push({ id: 'A2', therapeuticDose: { value: 100, unit: 'mg' } });
    const e = explainPair(input, 'P0', 'P1')!;
    // A0: 50 mg × 100 000 000 mg / (50 000 × 500 mg) = 200 mg; A2: 100 mg × … = 400 mg, each
    // below its dose-based 10 000 and 20 000 mg (÷ 1000).
    expect(e.perActive.map((a) => [a.active, a.formula, a.maco, a.governing])).toEqual([
      ['A0', expect.closeTo(200, 9), expect.closeTo(200, 9), 'formula'],
      ['A2', expect.closeTo(400, 9), expect.closeTo(400, 9), 'formula'],
    ]);
    // Its 50000 is a plain factor, and the derivation says so; LD50's digits are a name.
    expect(e.criteria.formula.note).toMatch(/numbers written in a formula are plain factors/);
    const named = {
      id: 'By LD50',
      expression: 'LD50 * BW / EF * MBS / (SF * MDD)',
      versionNumber: 1,
    };
    expect(explainPair(facility([named]), 'P0', 'P1')!.criteria.formula.note).not.toMatch(
      /plain factors/,
    );
    // A looser formula never governs an active: its own lowest criterion does.
    const looser = { id: 'Loose', expression: 'TDD * MBS / (10 * MDD)', versionNumber: 1 };
    const loose = explainPair(facility([looser]), 'P0', 'P1')!.perActive[0]!;
    expect(loose.formula).toBeCloseTo(1_000_000, 6);
    expect(loose.governing).not.toBe('formula');
    expect(loose.maco).toBeLessThan(loose.formula);
  });

  // Health: 1 mg/day × 1e8 mg / 500 mg/day = 200,000 mg; dose: 50 / 1000 × 2e5 = 10,000 mg;
  // general limit: 10 ppm × 100 kg = 1,000 mg, the lowest built-in criterion.
  it('governs where it is the lowest, and the derivation shows it with the values put in', () => {
    const tighter = {
      id: 'Site 1/50000',
      expression: 'TDD * MBS / (50000 * MDD)',
      versionNumber: 2,
    };
    const view = pair(facility([tighter]));
    expect(view.criteria[FORMULA]).toBeCloseTo(200, 9);
    expect(view.maco).toBeCloseTo(200, 9);
    expect(view.governing).toBe(FORMULA);
    expect(view.governingFormula).toBe(0);
    expect(view.governingActive).toBe(0);

    const explained = explainPair(facility([tighter]), 'P0', 'P1')!;
    expect(explained.governing).toBe('formula');
    const d = explained.criteria.formula;
    expect(d.formula).toBe('Site 1/50000 (version 2): MACO = TDD * MBS / (50000 * MDD)');
    expect(d.steps).toEqual([
      {
        symbol: 'Site 1/50000 (version 2) (A0)',
        expression: 'TDD * MBS / (50000 * MDD) = 50 * 100000000 / (50000 * 500)',
        value: 200,
        unit: 'mg',
      },
    ]);
    expect(d.result).toEqual({ value: 200, unit: 'mg' });
    expect(d.inputs.map((i) => [i.symbol, i.value, i.unit, i.source])).toEqual([
      ['TDD(A0)', 50, 'mg/day', 'active A0: minimum therapeutic dose'],
      ['MBS', 100_000_000, 'mg', 'product P1: minimum batch size'],
      ['MDD', 500, 'mg/day', 'product P1: maximum daily dose'],
    ]);
    expect(explained.maco.note).toBe('governed by formula Site 1/50000 (version 2) (active A0)');
  });

  it('leaves the limit alone where it is looser: it can only tighten', () => {
    const without = pair(facility());
    const looser = pair(facility([{ id: 'Loose', expression: '1000 * HBEL * MBS / MDD' }]));
    expect(looser.criteria[FORMULA]).toBeCloseTo(2e8, 3);
    expect(looser.maco).toBe(without.maco);
    expect(looser.governing).toBe(without.governing);
  });

  it('applies after the first available criterion too', () => {
    const policy = { ...defaultPolicy('Chemical'), useFirstAvailableCriteria: true };
    const without = pair(facility(undefined, { policy }));
    const formula = { id: 'Tight', expression: 'ARL * MBS / 10' };
    const withFormula = pair(facility([formula], { policy }));
    expect(without.governing).toBe(0);
    expect(withFormula.governing).toBe(FORMULA);
    expect(withFormula.maco).toBeCloseTo(100, 9);
    expect(withFormula.maco).toBeLessThan(without.maco);
  });

  it('is unavailable with a reason for a missing value or a division by zero, never 0 or infinity', () => {
    const formulas = [
      { id: 'Needs LD50', expression: 'NOEL * MBS / (SF * MDD)' },
      { id: 'Zero', expression: 'HBEL * MBS / (MDD - MDD)' },
      { id: 'Negative', expression: 'HBEL * MBS / MDD - MBS' },
    ];
    const input = facility(formulas);
    const view = pair(input);
    expect(Number.isNaN(view.criteria[FORMULA])).toBe(true);
    expect(view.maco).toBe(pair(facility()).maco);
    expect(view.governing).not.toBe(FORMULA);
    const d = explainPair(input, 'P0', 'P1')!.criteria.formula;
    expect(d.result).toBeNull();
    expect(d.steps.map((s) => [s.value, s.expression])).toEqual([
      [null, 'NOEL * MBS / (SF * MDD): unavailable, NOEL is not recorded for active A0'],
      [null, 'HBEL * MBS / (MDD - MDD): unavailable, division by zero: MDD - MDD is 0'],
      [
        null,
        'HBEL * MBS / MDD - MBS: unavailable, the formula gives -99800000, not a MACO above 0 mg',
      ],
    ]);
    expect(d.note).toContain('no MAC formula could be evaluated');
  });

  it('reads the area of the pair, and a batch in units only with a unit weight', () => {
    const input = facility([{ id: 'Per area', expression: 'HBEL * MBS / MDD * A / (A + A)' }]);
    expect(pair(input).criteria[FORMULA]).toBeCloseTo(100_000, 6);
    const inUnits = facility([{ id: 'Dose', expression: 'TDD * MBS / (SF * MDD)' }]);
    inUnits.products[1] = {
      ...inUnits.products[1]!,
      minBatchSize: { value: 100_000, unit: 'units' },
      maxDailyDose: { value: 2, unit: 'units' },
    };
    expect(Number.isNaN(pair(inUnits).criteria[FORMULA])).toBe(true);
    inUnits.products[1]!.unitWeight = { value: 250, unit: 'mg' };
    // MBS 25,000,000 mg, MDD 500 mg/day: 50 × 2.5e7 / (1000 × 500) = 2,500 mg.
    expect(pair(inUnits).criteria[FORMULA]).toBeCloseTo(2_500, 9);
  });
});

const TEMPLATES = [
  (k: number) => `${k} * HBEL * MBS / MDD`,
  (k: number) => `${k} * TDD * MBS / (SF * MDD)`,
  (k: number) => `ARL * MBS * ${k}`,
  (k: number) => `min(HBEL, TDD / SF) * MBS / MDD / ${k}`,
  (k: number) => `${k} * max(PDE, NOEL) * MBS / MDD`,
  (k: number) => `HBEL * MBS / MDD * A / (A + ${k} * A)`,
  (k: number) => `MBS / (MDD - MDD) * HBEL * ${k}`,
];

const facilityArb = fc.record({
  facility: facilityShapeArb,
  firstAvailable: fc.boolean(),
  useToxicity: fc.boolean(),
  previousTrain: fc.boolean(),
  formulas: fc.array(
    fc.record({
      template: fc.integer({ min: 0, max: TEMPLATES.length - 1 }),
      k: positive(1e-4, 1e4),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

function inputOf(r: Generated<typeof facilityArb>, withFormulas: boolean): LimitsInput {
  const { products, equipment, trains } = facilityOf(r.facility);
  return {
    policy: {
      ...defaultPolicy('Chemical'),
      useFirstAvailableCriteria: r.firstAvailable,
      useToxicity: r.useToxicity,
      areaBasis: r.previousTrain ? 'previousTrain' : 'shared',
    },
    products,
    equipment,
    trains,
    sampling: {},
    ...(withFormulas
      ? {
          macFormulas: r.formulas.map((f, i) => ({
            id: `F${i}`,
            expression: TEMPLATES[f.template]!(f.k),
          })),
        }
      : {}),
  };
}

function macos(input: LimitsInput) {
  const out = new Map<string, { maco: number; formula: number }>();
  runMatrix(compileLimits(input), (v) =>
    out.set(`${v.previous}>${v.next}`, { maco: v.maco, formula: v.criteria[FORMULA]! }),
  );
  return out;
}

describe('property: adding approved MAC formulas never raises a MACO', () => {
  it('for random facilities and formulas, every MACO is the lower of before and the formula', () => {
    fc.assert(
      fc.property(facilityArb, (r) => {
        const before = macos(inputOf(r, false));
        const after = macos(inputOf(r, true));
        expect([...after.keys()]).toEqual([...before.keys()]);
        for (const [key, { maco: was }] of before) {
          const { maco, formula } = after.get(key)!;
          if (!Number.isNaN(was)) expect(maco).toBeLessThanOrEqual(was);
          const expected = Number.isNaN(formula)
            ? was
            : Number.isNaN(was)
              ? formula
              : Math.min(was, formula);
          if (Number.isNaN(expected)) expect(maco).toBeNaN();
          else expect(maco).toBeCloseTo(expected, 9 - Math.ceil(Math.log10(expected + 1)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
