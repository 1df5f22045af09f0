import { describe, expect, it } from 'vitest';
import { ZJudgement } from '../schemas/verification.schemas.ts';
import { judgeResult, toResultUnit } from './judge-result.ts';
import type { JudgeResultInput } from './judge-result.ts';

const base: JudgeResultInput = {
  censoring: '=',
  rawValue: 0.012,
  unit: 'mg/swab',
  recovery: 0.85,
  recoverySource: 'method recovery on stainless steel',
  limit: 0.05,
  loq: 0.002,
};

describe('judgeResult', () => {
  const cases: {
    name: string;
    input: Partial<JudgeResultInput>;
    corrected: number;
    percent: number | null;
    passed: boolean | null;
    censoredBelow: boolean;
    methodNotFit: boolean;
  }[] = [
    {
      // 0.012 / 0.85 = 0.0141176; 0.0141176 / 0.05 × 100 = 28.235 %; LOQ 0.002 / 0.85 = 0.00235 ≤ 0.05
      name: 'a value below the limit passes',
      input: {},
      corrected: 0.012 / 0.85,
      percent: 28.235294,
      passed: true,
      censoredBelow: false,
      methodNotFit: false,
    },
    {
      // 0.06 / 1 = 0.06; 0.06 / 0.05 × 100 = 120 %
      name: 'a value above the limit fails',
      input: { rawValue: 0.06, recovery: 1 },
      corrected: 0.06,
      percent: 120,
      passed: false,
      censoredBelow: false,
      methodNotFit: false,
    },
    {
      // bound 4 / 0.8 = 5 ug/swab; 5 / 10 × 100 = 50 %; LOQ 4 / 0.8 = 5 ≤ 10
      name: '< LOQ passes on its corrected bound, never as 0',
      input: { censoring: '< LOQ', rawValue: 4, unit: 'ug/swab', recovery: 0.8, limit: 10, loq: 4 },
      corrected: 5,
      percent: 50,
      passed: true,
      censoredBelow: true,
      methodNotFit: false,
    },
    {
      // bound 9 / 0.75 = 12 ug/swab > 10: 12 / 10 × 100 = 120 %, fails, method not fit
      name: '< LOQ above the limit fails and the method is not fit',
      input: {
        censoring: '< LOQ',
        rawValue: 9,
        unit: 'ug/swab',
        recovery: 0.75,
        limit: 10,
        loq: 9,
      },
      corrected: 12,
      percent: 120,
      passed: false,
      censoredBelow: true,
      methodNotFit: true,
    },
    {
      // bound 0.001 / 1 = 0.001 mg/ml, exactly the limit: 100 %, at the limit passes
      name: '< LOD at the limit passes',
      input: {
        censoring: '< LOD',
        rawValue: 0.001,
        unit: 'mg/ml',
        recovery: 1,
        limit: 0.001,
        loq: null,
      },
      corrected: 0.001,
      percent: 100,
      passed: true,
      censoredBelow: true,
      methodNotFit: false,
    },
    {
      // bound 0.002 / 1 = 0.002 mg/ml; 0.002 / 0.01 × 100 = 20 %, but above the range: fails
      name: '> upper limit always fails',
      input: {
        censoring: '> upper limit',
        rawValue: 0.002,
        unit: 'mg/ml',
        recovery: 1,
        limit: 0.01,
        loq: null,
      },
      corrected: 0.002,
      percent: 20,
      passed: false,
      censoredBelow: false,
      methodNotFit: false,
    },
    {
      // 0.001 / 0.5 = 0.002; 0.002 / 0.01 × 100 = 20 % passes; LOQ 0.006 / 0.5 = 0.012 > 0.01
      name: 'a passing value with a corrected LOQ above the limit marks the method not fit',
      input: { rawValue: 0.001, recovery: 0.5, limit: 0.01, loq: 0.006 },
      corrected: 0.002,
      percent: 20,
      passed: true,
      censoredBelow: false,
      methodNotFit: true,
    },
    {
      // 0.012 / 0.85 = 0.0141176; no limit: not judged
      name: 'no limit: passed and percent are null',
      input: { limit: null },
      corrected: 0.012 / 0.85,
      percent: null,
      passed: null,
      censoredBelow: false,
      methodNotFit: false,
    },
  ];

  it.each(cases)('$name', (c) => {
    const j = judgeResult({ ...base, ...c.input });
    expect(ZJudgement.parse(j)).toEqual(j);
    expect(j.correctedValue).toBeCloseTo(c.corrected, 10);
    if (c.percent === null) expect(j.percentOfLimit).toBeNull();
    else expect(j.percentOfLimit).toBeCloseTo(c.percent, 5);
    expect(j.passed).toBe(c.passed);
    expect(j.censoredBelow).toBe(c.censoredBelow);
    expect(j.methodNotFit).toBe(c.methodNotFit);
    expect(j.limit).toBe(c.input.limit === undefined ? base.limit : c.input.limit);
  });

  it('writes the derivation in plain words with numbers and units', () => {
    const j = judgeResult(base);
    expect(j.derivation).toContain('Recovery-corrected: 0.012 mg/swab ÷ 0.85 = 0.01412 mg/swab');
    expect(j.derivation).toContain(
      'Percent of limit: 0.01412 mg/swab ÷ 0.05 mg/swab × 100 = 28.24 %',
    );
    expect(j.derivation).toContain('Recovery: 85 % (method recovery on stainless steel)');
    const notFit = judgeResult({
      ...base,
      rawValue: 0.001,
      recovery: 0.5,
      limit: 0.01,
      loq: 0.006,
    });
    // 0.006 / 0.5 = 0.012
    expect(notFit.derivation).toContain(
      'Method not fit: LOQ 0.006 mg/swab ÷ 0.5 = 0.012 mg/swab is above the limit 0.01 mg/swab',
    );
  });

  it('refuses a recovery outside (0, 1]', () => {
    expect(() => judgeResult({ ...base, recovery: 0 })).toThrow(RangeError);
    expect(() => judgeResult({ ...base, recovery: 1.2 })).toThrow(RangeError);
  });
});

describe('toResultUnit', () => {
  it.each([
    [0.012, 'mg/swab', 'ug/swab', 12], // × 1000
    [250, 'ug/swab', 'mg/swab', 0.25], // ÷ 1000
    [5, 'ppm', 'ug/ml', 5], // 1 ppm = 1 ug/ml in water
    [5, 'ppm', 'mg/ml', 0.005], // 5 ug/ml ÷ 1000
    [0.002, 'mg/ml', 'ppm', 2], // 0.002 mg/ml × 1000 = 2 ug/ml = 2 ppm
    [3, 'ug/ml', 'ug/ml', 3],
  ] as const)('%d %s → %s = %d', (value, from, to, expected) => {
    expect(toResultUnit(value, from, to)).toBeCloseTo(expected, 12);
  });

  it('refuses a swab unit mixed with a rinse unit', () => {
    expect(() => toResultUnit(1, 'mg/swab', 'mg/ml')).toThrow(/swabLimit/);
    expect(() => toResultUnit(1, 'ppm', 'ug/swab')).toThrow();
  });
});
