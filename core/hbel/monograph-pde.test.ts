import { describe, expect, it } from 'vitest';
import { monographPde } from './monograph-pde.ts';

const one = { f1: 1, f2: 1, f3: 1, f4: 1, f5: 1 };

describe('the PDE of an HBEL monograph (EMA 2014 §4.1)', () => {
  it('ICH Q3C 2-MTHF: 250 mg/kg/day × 50 kg / (5·10·5·1·1·1·1) = 12500 / 250 = 50 mg/day', () => {
    const r = monographPde({
      substance: '2-MTHF',
      pointOfDeparture: { type: 'NOAEL', value: 250, unit: 'mg/kg' },
      factors: { f1: 5, f2: 10, f3: 5, f4: 1, f5: 1 },
    });
    expect(r.pde?.value).toBeCloseTo(50, 12);
    expect(r.derivation.result).toEqual({ value: r.pde?.value, unit: 'mg/day' });
    expect(r.derivation.inputs.find((i) => i.symbol === 'BW')?.value).toBe(50);
    expect(r.derivation.steps.map((s) => s.symbol)).toEqual(['ΠF', 'PDE_study']);
  });

  it('ICH Q3C THF: 71.65 × 50 / (5·10·1·10·1) = 3582.5 / 500 = 7.165 mg/day (kept unrounded)', () => {
    const r = monographPde({
      substance: 'THF',
      pointOfDeparture: { type: 'NOAEL', value: 71.65, unit: 'mg/kg' },
      factors: { f1: 5, f2: 10, f3: 1, f4: 10, f5: 1 },
    });
    expect(r.pde?.value).toBeCloseTo(7.165, 12);
  });

  it('converts units and applies MF, PK and the route correction', () => {
    // PoD 0.01 g/kg = 10 mg/kg/day; BW 60000 g = 60 kg; ΠF = 5·10·2·1·1 × MF 3 × PK 2 = 600;
    // PDE_study = 10 × 60 / 600 = 1 mg/day; oral study (BA 0.5) to parenteral (BA 1):
    // PDE = 1 × 0.5 / 1 = 0.5 mg/day.
    const r = monographPde({
      substance: 'X',
      pointOfDeparture: { type: 'BMDL', value: 0.01, unit: 'g/kg' },
      factors: { f1: 5, f2: 10, f3: 2, f4: 1, f5: 1 },
      modifyingFactor: 3,
      pkFactor: 2,
      bodyWeight: { value: 60_000, unit: 'g' },
      bioavailability: { from: 0.5, to: 1 },
    });
    expect(r.derivation.steps[0]?.value).toBe(600);
    expect(r.derivation.steps[1]?.value).toBeCloseTo(1, 12);
    expect(r.pde?.value).toBeCloseTo(0.5, 12);
    const pod = r.derivation.inputs.find((i) => i.symbol === 'PoD');
    expect(pod?.given).toEqual({ value: 0.01, unit: 'g/kg' });
    expect(pod?.value).toBe(10);
  });

  it('golden case D24, oral study to parenteral patient: 10 × 50 / 250 = 2 mg/day, × 0.2 / 1 = 0.4', () => {
    const r = monographPde({
      substance: 'D24',
      pointOfDeparture: { type: 'NOAEL', value: 10, unit: 'mg/kg' },
      factors: { f1: 5, f2: 10, f3: 5, f4: 1, f5: 1 },
      bioavailability: { from: 0.2, to: 1 },
    });
    expect(r.derivation.steps.find((s) => s.symbol === 'PDE_study')?.value).toBeCloseTo(2, 12);
    expect(r.pde?.value).toBeCloseTo(0.4, 12);
    expect(r.derivation.formula).toMatch(/× BA_study \/ BA_patient$/);
  });

  it('flags a LOAEL taken with F5 = 1: 1 × 50 / (12·10·1·1·1) = 0.41666… mg/day', () => {
    const r = monographPde({
      substance: 'Y',
      pointOfDeparture: { type: 'LOAEL', value: 1, unit: 'mg/kg' },
      factors: { ...one, f1: 12, f2: 10 },
    });
    expect(r.pde?.value).toBeCloseTo(50 / 120, 12);
    expect(r.derivation.note).toMatch(/F5/);
  });

  it('refuses a PoD of the wrong kind and a zero factor, with no number', () => {
    const r = monographPde({
      substance: 'Z',
      pointOfDeparture: { type: 'NOAEL', value: 1, unit: 'ppm' },
      factors: { ...one, f2: 0 },
    });
    expect(r.pde).toBeNull();
    expect(r.derivation.result).toBeNull();
    expect(r.problems.join(' ')).toMatch(/point of departure: unit ppm is a concentration/);
    expect(r.problems.join(' ')).toMatch(/F2 must be a positive number/);
  });
});
