import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TCensoring } from '../schemas/verification.schemas.ts';
import { judgeResult, type JudgeResultInput } from './judge-result.ts';
import { releaseFlag, runVerdict, type RunResultState, type RunState } from './release.ts';

/*
 * Issue 26: no sequence of result entries, retests, corrections and deviations makes a run
 * releasable while a counted result was measured by a method that cannot show its limit. The
 * oracle below restates the rule independently of judge-result.ts: a method cannot show a limit
 * when its LOQ ÷ recovery is above it, when its stated LOQ could not be expressed in the result's
 * unit, or when the bound of a censored result (the larger of the typed bound and the method's
 * LOQ or LOD) ÷ recovery is above it.
 */

const LOCATIONS = [1, 2, 3];

interface Entry {
  location: number;
  input: JudgeResultInput;
}

const positive = fc.double({ min: 1e-6, max: 10, noNaN: true, noDefaultInfinity: true });
const detection = fc.option(positive, { nil: null });

const entry: fc.Arbitrary<Entry> = fc.record({
  location: fc.constantFrom(...LOCATIONS),
  input: fc.record({
    censoring: fc.constantFrom<TCensoring>('=', '< LOD', '< LOQ', '> upper limit'),
    rawValue: positive,
    unit: fc.constant('mg/ml' as const),
    recovery: fc.double({ min: 0.05, max: 1, noNaN: true }),
    recoverySource: fc.constant('test'),
    limit: positive,
    loq: detection,
    lod: detection,
    detectionUnconvertible: fc.option(fc.constant('its LOQ cannot be expressed per swab'), {
      nil: null,
    }),
  }),
});

/** One step of a run's life: an entry, a retest of the latest at a location, a correction, a deviation. */
type Step =
  | { kind: 'enter'; entry: Entry }
  | { kind: 'repeat'; entry: Entry }
  | { kind: 'correct'; rawValue: number; censoring: TCensoring }
  | { kind: 'deviation'; status: 'Open' | 'Closed'; invalidatesRun: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('enter' as const), entry }),
  fc.record({ kind: fc.constant('repeat' as const), entry }),
  fc.record({
    kind: fc.constant('correct' as const),
    rawValue: positive,
    censoring: fc.constantFrom<TCensoring>('=', '< LOD', '< LOQ', '> upper limit'),
  }),
  fc.record({
    kind: fc.constant('deviation' as const),
    status: fc.constantFrom('Open' as const, 'Closed' as const),
    invalidatesRun: fc.boolean(),
  }),
);

function cannotShow(input: JudgeResultInput): boolean {
  const { limit, recovery, loq, lod, censoring, rawValue } = input;
  if (limit === null) return false;
  if (input.detectionUnconvertible) return true;
  if (loq !== null && loq / recovery > limit) return true;
  const stated = censoring === '< LOQ' ? loq : censoring === '< LOD' ? (lod ?? null) : null;
  const bound = censoring.startsWith('<') ? Math.max(rawValue, stated ?? rawValue) : null;
  return bound !== null && bound / recovery > limit;
}

interface Kept {
  location: number;
  input: JudgeResultInput;
  superseded: boolean;
}

function play(steps: Step[], allowReleaseAtRisk: boolean) {
  const kept: Kept[] = [];
  const deviations: RunState['deviations'][number][] = [];
  for (const s of steps) {
    if (s.kind === 'enter') kept.push({ ...s.entry, superseded: false });
    if (s.kind === 'repeat') {
      const latest = kept.findLast((k) => k.location === s.entry.location && !k.superseded);
      if (latest) latest.superseded = true;
      kept.push({ ...s.entry, superseded: false });
    }
    if (s.kind === 'correct') {
      const latest = kept.findLast((k) => !k.superseded);
      if (latest) latest.input = { ...latest.input, rawValue: s.rawValue, censoring: s.censoring };
    }
    if (s.kind === 'deviation')
      deviations.push({ status: s.status, kind: 'nonProcess', invalidatesRun: s.invalidatesRun });
  }
  const results: RunResultState[] = kept.map((k) => {
    const judged = judgeResult(k.input);
    return {
      samplingLocationId: k.location,
      passed: judged.passed,
      superseded: k.superseded,
      methodNotFit: judged.methodNotFit,
    };
  });
  const state: RunState = {
    visualResult: 'Pass',
    plannedLocationIds: LOCATIONS,
    results,
    deviations,
    dirtyHoldHours: null,
    cleanHoldHours: null,
    dirtyHoldMaxHours: null,
    cleanHoldMaxHours: null,
    allowReleaseAtRisk,
  };
  return { kept, state };
}

describe('method fitness decides release (property)', () => {
  it('never releases a run with a counted result its method cannot show', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.boolean(), (steps, atRisk) => {
        const { kept, state } = play(steps, atRisk);
        const blind = kept.some((k) => !k.superseded && cannotShow(k.input));
        const { flag } = releaseFlag(state);
        if (blind) {
          expect(flag).toBe('CAN_NOT_BE_RELEASED');
          expect(runVerdict(state)).not.toBe('Pass');
        }
        // Released only when every planned location has a counted pass its method could show.
        if (flag === 'CAN_BE_RELEASED')
          for (const id of LOCATIONS)
            expect(
              kept.some((k) => k.location === id && !k.superseded && !cannotShow(k.input)),
            ).toBe(true);
      }),
      { numRuns: 2_000, seed: 26 },
    );
  });

  it('judges a result its method cannot show as not passed, whatever was typed', () => {
    fc.assert(
      fc.property(entry, ({ input }) => {
        const judged = judgeResult(input);
        if (cannotShow(input)) expect(judged).toMatchObject({ passed: false, methodNotFit: true });
        else if (input.limit !== null) expect(judged.methodNotFit).toBe(false);
      }),
      { numRuns: 5_000, seed: 26 },
    );
  });
});
