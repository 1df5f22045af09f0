import { describe, expect, it } from 'vitest';
import { ZJudgement } from '../schemas/verification.schemas.ts';
import { judgeResult, type JudgeResultInput } from './judge-result.ts';
import {
  activeFromCarbon,
  isCarbonFraction,
  loqAsResidue,
  residueConversion,
  residueMeasureAction,
} from './residue-measure.ts';

// A TOC swab result: 0.11 mg of carbon per swab, recovery 80 %.
const toc: JudgeResultInput = {
  censoring: '=',
  rawValue: 0.11,
  unit: 'mg/swab',
  recovery: 0.8,
  recoverySource: 'method recovery on stainless steel',
  limit: 0.5,
  loq: 0.01,
  residue: { measure: 'toc', carbonFraction: 0.55 },
};

describe('residue conversion', () => {
  it('converts carbon to the active by dividing by the carbon fraction', () => {
    // 0.11 mg C ÷ 0.55 = 0.2 mg of active
    expect(activeFromCarbon(0.11, 0.55)).toBeCloseTo(0.2, 12);
    // 1.2 mg C ÷ 0.6 = 2 mg of active
    expect(activeFromCarbon(1.2, 0.6)).toBeCloseTo(2, 12);
  });

  it('refuses a carbon fraction outside (0, 1]', () => {
    expect(isCarbonFraction(0.55)).toBe(true);
    expect(isCarbonFraction(1)).toBe(true);
    for (const bad of [0, -0.2, 1.2, Number.NaN, null]) expect(isCarbonFraction(bad)).toBe(false);
    expect(() => activeFromCarbon(0.11, 0)).toThrow(RangeError);
    expect(() => activeFromCarbon(0.11, 1.5)).toThrow(RangeError);
  });

  it('states the LOQ in residue terms: LOQ ÷ carbon fraction', () => {
    // 0.05 mg C ÷ 0.5 = 0.1 mg of active
    expect(loqAsResidue(0.05, { measure: 'toc', carbonFraction: 0.5 })).toBeCloseTo(0.1, 12);
    expect(loqAsResidue(0.05, { measure: 'active', carbonFraction: null })).toBe(0.05);
    expect(loqAsResidue(0.05, { measure: 'toc', carbonFraction: null })).toBeNull();
    expect(loqAsResidue(0.05, { measure: 'conductivity', carbonFraction: 0.5 })).toBeNull();
  });

  it('gives a reason when no conversion exists', () => {
    const missing = residueConversion({ measure: 'toc', carbonFraction: null });
    expect(missing.ok).toBe(false);
    const conductivity = residueConversion({ measure: 'conductivity', carbonFraction: null });
    expect(conductivity.ok).toBe(false);
  });
});

describe('judging a TOC result', () => {
  it('converts carbon to the active before the limit and shows both numbers', () => {
    const j = judgeResult(toc);
    // 0.11 ÷ 0.55 = 0.2 mg active; ÷ 0.8 = 0.25 mg; 0.25 ÷ 0.5 × 100 = 50 %
    expect(j.correctedValue).toBeCloseTo(0.25, 12);
    expect(j.percentOfLimit).toBeCloseTo(50, 9);
    expect(j.passed).toBe(true);
    expect(j.methodNotFit).toBe(false);
    expect(j.derivation).toContain('Measured as: Total organic carbon');
    expect(j.derivation).toContain(
      'As active: 0.11 mg/swab of carbon ÷ carbon fraction 0.55 = 0.2 mg/swab',
    );
    expect(ZJudgement.parse(j)).toEqual(j);
  });

  it('fails a result that the raw carbon would have passed (never loosens the limit)', () => {
    // carbon alone: 0.11 ÷ 0.8 = 0.1375 ≤ 0.2; as active: 0.25 > 0.2, 125 %
    const j = judgeResult({ ...toc, limit: 0.2 });
    expect(j.correctedValue).toBeCloseTo(0.25, 12);
    expect(j.percentOfLimit).toBeCloseTo(125, 9);
    expect(j.passed).toBe(false);
  });

  it('does not judge a TOC result without a carbon fraction', () => {
    const j = judgeResult({ ...toc, residue: { measure: 'toc', carbonFraction: null } });
    expect(j.passed).toBeNull();
    expect(j.percentOfLimit).toBeNull();
    expect(j.correctedValue).toBeNull();
    expect(j.derivation.at(-1)).toMatch(/^Not judged: .*carbon fraction is not stated/);
    expect(ZJudgement.parse(j)).toEqual(j);
  });

  it('does not judge a conductivity result against the active', () => {
    const j = judgeResult({ ...toc, residue: { measure: 'conductivity', carbonFraction: null } });
    expect(j.passed).toBeNull();
    expect(j.derivation.at(-1)).toMatch(/conductivity/);
  });

  it('checks method fitness with the LOQ in residue terms', () => {
    // LOQ 0.05 mg C ÷ 0.5 = 0.1 mg active; ÷ 0.8 = 0.125 > limit 0.12: not fit.
    // In carbon terms it would have looked fit: 0.05 ÷ 0.8 = 0.0625 ≤ 0.12.
    const j = judgeResult({
      ...toc,
      rawValue: 0.02,
      loq: 0.05,
      limit: 0.12,
      residue: { measure: 'toc', carbonFraction: 0.5 },
    });
    expect(j.methodNotFit).toBe(true);
    expect(j.passed).toBe(false);
    expect(j.derivation).toContain(
      'Method not fit: LOQ 0.05 mg/swab ÷ 0.5 ÷ 0.8 = 0.125 mg/swab is above the limit 0.12 mg/swab',
    );
  });

  it('judges the active itself unchanged', () => {
    const plain = { ...toc, residue: undefined };
    const asActive = { ...toc, residue: { measure: 'active' as const, carbonFraction: 0.55 } };
    expect(judgeResult(asActive)).toEqual(judgeResult(plain));
    // 0.11 ÷ 0.8 = 0.1375
    expect(judgeResult(plain).correctedValue).toBeCloseTo(0.1375, 12);
  });
});

describe('the right a change of residue measure takes', () => {
  it('is Add from the active, Delete back to it, Modify between measures or for no measure', () => {
    expect(residueMeasureAction('active', 'toc')).toBe('Add');
    expect(residueMeasureAction('active', 'conductivity')).toBe('Add');
    expect(residueMeasureAction('toc', 'active')).toBe('Delete');
    expect(residueMeasureAction('conductivity', 'active')).toBe('Delete');
    expect(residueMeasureAction('toc', 'conductivity')).toBe('Modify');
    expect(residueMeasureAction('active', 'ph')).toBe('Modify');
    expect(residueMeasureAction('active', undefined)).toBe('Modify');
  });
});
