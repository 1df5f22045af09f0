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
      // = 0.001 is below the LOQ 0.006: reported as < LOQ 0.006; 0.006 / 0.5 = 0.012 mg/swab;
      // 0.012 / 0.01 × 100 = 120 %; LOQ 0.012 > 0.01: the method is not fit, never a pass
      // (issue 26: it passed at 20 % before)
      name: 'a value below an LOQ that is above the limit is < LOQ, not fit and not passed',
      input: { rawValue: 0.001, recovery: 0.5, limit: 0.01, loq: 0.006 },
      corrected: 0.012,
      percent: 120,
      passed: false,
      censoredBelow: true,
      methodNotFit: true,
    },
    {
      // issue 26's rinse: < LOQ typed 0.05 mg/ml, method LOQ 0.2 mg/ml, limit 0.1 mg/ml. The
      // bound is the LOQ: 0.2 / 1 = 0.2 mg/ml; 0.2 / 0.1 × 100 = 200 %; not fit, not passed
      name: '< LOQ typed under the limit by a method whose LOQ is above it is not passed',
      input: {
        censoring: '< LOQ',
        rawValue: 0.05,
        unit: 'mg/ml',
        recovery: 1,
        limit: 0.1,
        loq: 0.2,
      },
      corrected: 0.2,
      percent: 200,
      passed: false,
      censoredBelow: true,
      methodNotFit: true,
    },
    {
      // = 0.001 mg/swab below the LOQ 0.002: reported < LOQ 0.002; 0.002 / 0.85 = 0.0023529;
      // 0.0023529 / 0.05 × 100 = 4.7059 %: passes on the LOQ's bound
      name: 'a value below a fit LOQ is reported < LOQ at the LOQ and passes on it',
      input: { rawValue: 0.001 },
      corrected: 0.002 / 0.85,
      percent: 4.705882,
      passed: true,
      censoredBelow: true,
      methodNotFit: false,
    },
    {
      // < LOD typed 0.0001 mg/ml, method LOD 0.004: bound 0.004 / 0.8 = 0.005; 0.005 / 0.01 × 100
      // = 50 %; LOQ 0.008 / 0.8 = 0.01 = the limit: fit
      name: '< LOD is judged on the larger of the typed bound and the method LOD',
      input: {
        censoring: '< LOD',
        rawValue: 0.0001,
        unit: 'mg/ml',
        recovery: 0.8,
        limit: 0.01,
        loq: 0.008,
        lod: 0.004,
      },
      corrected: 0.005,
      percent: 50,
      passed: true,
      censoredBelow: true,
      methodNotFit: false,
    },
    {
      // 0.012 / 0.85 = 0.0141176 mg/swab, 28.235 %, but the method's LOQ is in ppm and no
      // extraction volume turns it into mg/swab: the method cannot show the limit
      name: 'an LOQ that cannot be converted to the result unit makes the method not fit',
      input: { loq: null, detectionUnconvertible: 'its LOQ of 5 ppm needs an extraction volume' },
      corrected: 0.012 / 0.85,
      percent: 28.235294,
      passed: false,
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
    expect(notFit.derivation).toContain(
      "Reported as < LOQ 0.006 mg/swab: 0.001 mg/swab is below the method's LOQ",
    );
    expect(notFit.derivation).toContain('Not passed: the method cannot show that the limit is met');
    expect(notFit).toMatchObject({ reportedCensoring: '< LOQ', reportedValue: 0.006 });
    const raised = judgeResult({
      ...base,
      censoring: '< LOQ',
      rawValue: 0.05,
      unit: 'mg/ml',
      recovery: 1,
      limit: 0.1,
      loq: 0.2,
    });
    expect(raised.derivation).toContain(
      "Reported as < LOQ 0.2 mg/ml: the method's LOQ, above the bound of 0.05 mg/ml typed",
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
