import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleaningAgentLimits } from './cleaning-agent.ts';
import type { CleaningAgentSpec } from './cleaning-agent.ts';
import type { ProductSpec } from './model.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { defaultPolicy } from './policy.ts';

/*
 * The agent's own "Ceiling (ppm)" (issue 26). Next product N: minimum batch 120 kg, maximum daily
 * dose 500 mg, on one item of 1 sqm. Detergent policy defaults: 10 ppm general limit, LD50 route
 * with BW 70 kg, EF 2000, SF 1000. By hand:
 *   general limit  10 ppm × 120 kg = 1,200 mg
 *   LD50 5000 mg/kg: NOEL = 5000 × 70 / 2000 = 175 mg/day; MACO = 175 × 120e6 / (1000 × 500) = 42,000 mg
 *   LD50 50 mg/kg:   NOEL = 1.75 mg/day;                   MACO = 1.75 × 120e6 / (1000 × 500) = 420 mg
 *   HBEL 100 mg/day: MACO = 100 × 120e6 / 500 = 24,000,000 mg
 *   ceiling c ppm:   c × 120 kg
 */
const next: ProductSpec = {
  id: 'N',
  minBatchSize: { value: 120, unit: 'kg' },
  maxDailyDose: { value: 500, unit: 'mg' },
  actives: [],
};
const equipment = [{ id: 'E', surfaceArea: { value: 1, unit: 'sqm' as const } }];
const trains = { N: ['E'] };
const DETERGENT = defaultPolicy('Detergent');

const ppm = (value: number) => ({ value, unit: 'ppm' as const });
const mgPerKg = (value: number) => ({ value, unit: 'mg/kg' as const });

function limitOf(agent: CleaningAgentSpec, policy: CleaningLimitPolicy = DETERGENT) {
  const [limit] = cleaningAgentLimits(agent, [next], equipment, trains, policy);
  if (!limit) throw new Error('no limit');
  return limit;
}

const N = Number.NaN;

describe('the cleaning agent’s own ppm ceiling', () => {
  const cases: {
    name: string;
    agent: CleaningAgentSpec;
    policy?: CleaningLimitPolicy;
    ceiling: number;
    maco: number;
    governing: string;
    note: string;
  }[] = [
    {
      name: '1 ppm: 120 mg where the policy’s 10 ppm gives 1,200 mg (the issue’s example)',
      agent: { id: 'D', ld50: mgPerKg(5000), ceiling: ppm(1) },
      ceiling: 120,
      maco: 120,
      governing: 'ceiling',
      note: 'ppm ceiling of the agent (1 ppm) governs',
    },
    {
      name: '10 ppm, the policy’s own default: a tie keeps the general limit',
      agent: { id: 'D', ld50: mgPerKg(5000), ceiling: ppm(10) },
      ceiling: 1200,
      maco: 1200,
      governing: 'arl',
      note: 'governed by arl: the policy’s general limit (ARL) is not above the agent’s ppm ceiling (10 ppm), which never loosens it',
    },
    {
      name: 'no ceiling: the policy’s general limit',
      agent: { id: 'D', ld50: mgPerKg(5000) },
      ceiling: N,
      maco: 1200,
      governing: 'arl',
      note: 'governed by arl',
    },
    {
      name: 'a ceiling above the LD50 limit leaves the LD50 limit',
      agent: { id: 'D', ld50: mgPerKg(50), ceiling: ppm(5) },
      ceiling: 600,
      maco: 420,
      governing: 'ld50',
      note: 'governed by ld50: the LD50 route is not above the agent’s ppm ceiling (5 ppm), which never loosens it',
    },
    {
      name: 'a ceiling above the policy’s default never raises the limit (reference §1.5, §3)',
      agent: { id: 'D', ld50: mgPerKg(5000), ceiling: ppm(50) },
      ceiling: 6000,
      maco: 1200,
      governing: 'arl',
      note: 'governed by arl: the policy’s general limit (ARL) is not above the agent’s ppm ceiling (50 ppm), which never loosens it',
    },
    {
      name: 'a policy without the general limit still has the agent’s ceiling',
      agent: { id: 'D', ld50: mgPerKg(5000), ceiling: ppm(5) },
      policy: { ...DETERGENT, useARL: false },
      ceiling: 600,
      maco: 600,
      governing: 'ceiling',
      note: 'ppm ceiling of the agent (5 ppm) governs',
    },
    {
      name: 'first available criterion (own HBEL) is still held under the ceiling',
      agent: { id: 'D', hbel: { value: 100, unit: 'mg' }, ceiling: ppm(1) },
      policy: { ...DETERGENT, useFirstAvailableCriteria: true },
      ceiling: 120,
      maco: 120,
      governing: 'ceiling',
      note: 'ppm ceiling of the agent (1 ppm) governs',
    },
    {
      name: 'only a ceiling, no toxicology and no general limit: the ceiling is the limit',
      agent: { id: 'D', ceiling: ppm(2) },
      policy: { ...DETERGENT, useARL: false },
      ceiling: 240,
      maco: 240,
      governing: 'ceiling',
      note: 'ppm ceiling of the agent (2 ppm) governs',
    },
  ];

  it.each(cases)('$name', ({ agent, policy, ceiling, maco, governing, note }) => {
    const limit = limitOf(agent, policy);
    if (Number.isNaN(ceiling)) expect(limit.ceiling).toBeNaN();
    else expect(limit.ceiling).toBeCloseTo(ceiling, 9);
    expect(limit.maco).toBeCloseTo(maco, 9);
    expect(limit.governing).toBe(governing);
    expect(limit.sal).toBeCloseTo(maco / 10_000, 15);
    expect(limit.derivations.maco.note).toBe(note);
    expect(limit.derivations.maco.result?.value).toBe(limit.maco);
  });

  it('derives the ceiling from the agent’s record', () => {
    const { derivations } = limitOf({ id: 'D', ld50: mgPerKg(5000), ceiling: ppm(1) });
    expect(derivations.ceiling.formula).toBe('MACO = ceiling [mg/kg] × batch mass [kg]');
    expect(derivations.ceiling.inputs[0]).toMatchObject({
      symbol: 'C',
      value: 1,
      unit: 'mg/kg',
      record: { kind: 'cleaningAgent', name: 'D', field: 'ceiling (ppm)' },
    });
    expect(derivations.ceiling.steps[0]?.value).toBe(120);
    expect(derivations.ceiling.result).toEqual({ value: 120, unit: 'mg' });
    expect(limitOf({ id: 'D' }).derivations.ceiling.note).toBe('no ppm ceiling for the agent');
  });

  it('needs a batch mass: a batch in units without a unit weight has no ceiling figure', () => {
    const [limit] = cleaningAgentLimits(
      { id: 'D', ld50: mgPerKg(5000), ceiling: ppm(1) },
      [
        {
          ...next,
          minBatchSize: { value: 100_000, unit: 'units' },
          maxDailyDose: { value: 2, unit: 'units' },
        },
      ],
      equipment,
      trains,
      DETERGENT,
    );
    expect(limit?.ceiling).toBeNaN();
    expect(limit?.governing).toBe('ld50');
    expect(limit?.derivations.ceiling.note).toBe('no batch mass');
  });

  it('never loosens: for any data, the MACO with a ceiling is at most the MACO without it', () => {
    fc.assert(
      fc.property(
        fc.record({
          ld50: fc.option(fc.double({ min: 1, max: 20_000, noNaN: true }), { nil: undefined }),
          hbel: fc.option(fc.double({ min: 0.001, max: 1000, noNaN: true }), { nil: undefined }),
          ceiling: fc.double({ min: 0.01, max: 1000, noNaN: true }),
          arl: fc.double({ min: 0.01, max: 1000, noNaN: true }),
          useARL: fc.boolean(),
          firstAvailable: fc.boolean(),
          mbsKg: fc.double({ min: 0.1, max: 10_000, noNaN: true }),
        }),
        (r) => {
          const policy = {
            ...DETERGENT,
            arl: ppm(r.arl),
            useARL: r.useARL,
            useFirstAvailableCriteria: r.firstAvailable,
          };
          const base: CleaningAgentSpec = { id: 'D' };
          if (r.ld50 !== undefined) base.ld50 = mgPerKg(r.ld50);
          if (r.hbel !== undefined) base.hbel = { value: r.hbel, unit: 'mg' };
          const product = { ...next, minBatchSize: { value: r.mbsKg, unit: 'kg' as const } };
          const run = (agent: CleaningAgentSpec) =>
            cleaningAgentLimits(agent, [product], equipment, trains, policy)[0]!;
          const without = run(base);
          const withCeiling = run({ ...base, ceiling: ppm(r.ceiling) });
          expect(withCeiling.maco).toBeLessThanOrEqual(r.ceiling * r.mbsKg * (1 + 1e-12));
          if (!Number.isNaN(without.maco)) {
            expect(withCeiling.maco).toBeLessThanOrEqual(without.maco);
          }
        },
      ),
      { seed: 26, numRuns: 500 },
    );
  });
});
