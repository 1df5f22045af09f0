import { describe, expect, it } from 'vitest';
import { MICROBIAL_POLICY_DEFAULTS } from '../schemas/facility-rules.schemas.ts';
import { ZMicrobialJudgement } from '../schemas/verification.schemas.ts';
import { judgeMicrobial, microbialLimit, type JudgeMicrobialInput } from './judge-microbial.ts';

describe('microbialLimit', () => {
  const policy = { ...MICROBIAL_POLICY_DEFAULTS, rinseLimit: 10, endotoxinLimit: 0.25 };
  const cases: [string, JudgeMicrobialInput['kind'], string | null, number, string, string][] = [
    ['grade B contact plate', 'contactPlate', 'B', 5, 'CFU/plate', 'Grade B contact plate'],
    ['grade C swab', 'swab', 'C', 25, 'CFU/swab', 'Grade C swab'],
    ['grade A: no growth', 'contactPlate', 'A', 0, 'CFU/plate', 'Grade A contact plate'],
    ['ungraded equipment', 'swab', null, 100, 'CFU/swab', 'Ungraded swab'],
    [
      'an unknown grade counts as ungraded',
      'contactPlate',
      'E',
      100,
      'CFU/plate',
      'Ungraded contact plate',
    ],
    ['rinse ignores the grade', 'rinse', 'B', 10, 'CFU/ml', 'Final rinse'],
    ['endotoxin', 'endotoxin', null, 0.25, 'EU/ml', 'Endotoxin, final rinse'],
  ];
  it.each(cases)('%s', (_name, kind, grade, limit, unit, limitSource) => {
    expect(microbialLimit(policy, kind, grade)).toEqual({ limit, unit, limitSource });
  });
});

describe('judgeMicrobial', () => {
  const base: JudgeMicrobialInput = {
    kind: 'contactPlate',
    censoring: '=',
    rawValue: 2,
    limit: 25,
    limitSource: 'Grade C contact plate',
    alertLevelPercentage: 50,
  };
  const cases: {
    name: string;
    input: Partial<JudgeMicrobialInput>;
    percent: number | null;
    judgement: 'Pass' | 'Alert' | 'Fail';
    censoredBelow?: boolean;
  }[] = [
    // 2 / 25 × 100 = 8 % < 50 %
    { name: 'a low count passes', input: {}, percent: 8, judgement: 'Pass' },
    // 12 / 25 × 100 = 48 % < 50 %
    {
      name: 'just under the alert level passes',
      input: { rawValue: 12 },
      percent: 48,
      judgement: 'Pass',
    },
    // 12.5 / 25 = 50 %: the alert level itself alerts
    {
      name: 'at the alert level alerts',
      input: { rawValue: 12.5 },
      percent: 50,
      judgement: 'Alert',
    },
    // 20 / 25 = 80 %
    {
      name: 'between alert and limit alerts',
      input: { rawValue: 20 },
      percent: 80,
      judgement: 'Alert',
    },
    // 25 / 25 = 100 %: the action level is the limit; at it, not above it
    {
      name: 'at the limit alerts, does not fail',
      input: { rawValue: 25 },
      percent: 100,
      judgement: 'Alert',
    },
    // 26 / 25 = 104 %
    { name: 'above the limit fails', input: { rawValue: 26 }, percent: 104, judgement: 'Fail' },
    // alert 80 %: 15 / 25 = 60 % < 80 %
    {
      name: 'the policy alert percentage applies',
      input: { rawValue: 15, alertLevelPercentage: 80 },
      percent: 60,
      judgement: 'Pass',
    },
    // grade A, limit 0: 0 CFU is 0 %
    {
      name: 'grade A, no colonies passes',
      input: { rawValue: 0, limit: 0 },
      percent: 0,
      judgement: 'Pass',
    },
    // grade A, limit 0: 1 CFU has no percent, fails
    {
      name: 'grade A, one colony fails',
      input: { rawValue: 1, limit: 0 },
      percent: null,
      judgement: 'Fail',
    },
    // < 1 CFU: at most 0 colonies ≤ 0
    {
      name: 'grade A, no growth (< 1 CFU) passes',
      input: { censoring: '< LOD', rawValue: 1, limit: 0 },
      percent: null,
      judgement: 'Pass',
      censoredBelow: true,
    },
    // < 1 CFU at limit 25: bound 1 / 25 = 4 %
    {
      name: 'no growth passes at its bound',
      input: { censoring: '< LOD', rawValue: 1 },
      percent: 4,
      judgement: 'Pass',
      censoredBelow: true,
    },
    // < 20 CFU: at most 19 ≤ 25, 20 / 25 = 80 % but nothing detected: Pass, no alert
    {
      name: 'below a high LOD still passes without an alert',
      input: { censoring: '< LOD', rawValue: 20 },
      percent: 80,
      judgement: 'Pass',
      censoredBelow: true,
    },
    // < 27 CFU: at most 26 > 25
    {
      name: 'an LOD above the limit fails',
      input: { censoring: '< LOD', rawValue: 27 },
      percent: 108,
      judgement: 'Fail',
      censoredBelow: true,
    },
    // < 26 CFU: at most 25 ≤ 25
    {
      name: 'an LOD one above the limit passes (counts are whole)',
      input: { censoring: '< LOD', rawValue: 26 },
      percent: 104,
      judgement: 'Pass',
      censoredBelow: true,
    },
    // TNTC > 300 CFU/plate at limit 25: 300 / 25 = 1200 %
    {
      name: 'too numerous to count above the limit fails',
      input: { censoring: '> upper limit', rawValue: 300 },
      percent: 1200,
      judgement: 'Fail',
    },
    // > 25 at limit 25: above the limit
    {
      name: 'an upper bound at the limit fails',
      input: { censoring: '> upper limit', rawValue: 25 },
      percent: 100,
      judgement: 'Fail',
    },
    // > 10 at limit 25: 40 %, unknown how far above, so not shown to be within
    {
      name: 'an upper bound below the limit fails too',
      input: { censoring: '> upper limit', rawValue: 10 },
      percent: 40,
      judgement: 'Fail',
    },
    // endotoxin 0.1 / 0.25 = 40 %
    {
      name: 'endotoxin below the alert level passes',
      input: { kind: 'endotoxin', rawValue: 0.1, limit: 0.25 },
      percent: 40,
      judgement: 'Pass',
    },
    // endotoxin 0.3 / 0.25 = 120 %
    {
      name: 'endotoxin above the limit fails',
      input: { kind: 'endotoxin', rawValue: 0.3, limit: 0.25 },
      percent: 120,
      judgement: 'Fail',
    },
    // endotoxin < 0.25 at limit 0.25: below the limit (not a count: no rounding)
    {
      name: 'endotoxin below an LOD at the limit passes',
      input: { kind: 'endotoxin', censoring: '< LOD', rawValue: 0.25, limit: 0.25 },
      percent: 100,
      judgement: 'Pass',
      censoredBelow: true,
    },
    // endotoxin < 0.5 at limit 0.25: 200 %
    {
      name: 'endotoxin LOD above the limit fails',
      input: { kind: 'endotoxin', censoring: '< LOD', rawValue: 0.5, limit: 0.25 },
      percent: 200,
      judgement: 'Fail',
      censoredBelow: true,
    },
    // rinse 60 CFU/ml at limit 100: 60 %
    {
      name: 'rinse bioburden alerts',
      input: { kind: 'rinse', rawValue: 60, limit: 100 },
      percent: 60,
      judgement: 'Alert',
    },
  ];
  it.each(cases)('$name', ({ input, percent, judgement, censoredBelow = false }) => {
    const result = judgeMicrobial({ ...base, ...input });
    expect(ZMicrobialJudgement.parse(result)).toEqual(result);
    expect(result.judgement).toBe(judgement);
    if (percent === null) expect(result.percentOfLimit).toBeNull();
    else expect(result.percentOfLimit).toBeCloseTo(percent, 6);
    expect(result.censoredBelow).toBe(censoredBelow);
    expect(result.derivation.at(-1)).toMatch(new RegExp(`^${judgement}: `));
  });

  it('states the limit, its source and the alert level in the derivation', () => {
    const result = judgeMicrobial({ ...base, rawValue: 20 });
    expect(result.derivation).toEqual([
      'Reported: 20 CFU/plate',
      'Limit (action level): 25 CFU/plate (Grade C contact plate)',
      'Alert level: 50 % of the limit = 12.5 CFU/plate',
      'Percent of limit: 20 CFU/plate ÷ 25 CFU/plate = 80 %',
      'Alert: at or above the alert level of 50 %',
    ]);
    expect(result.unit).toBe('CFU/plate');
  });
});
