import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { failedRunPolicyOf, studyOutcome } from './study-outcome.ts';
import type { CompletedRunVerdict, FailedRunPolicy } from './study-outcome.ts';

const P = 'Pass';
const F = 'Fail';
const I = 'Invalidated';

describe('studyOutcome', () => {
  it.each<[string, CompletedRunVerdict[], number, boolean, string, number]>([
    ['no runs yet', [], 3, false, 'On Going', 0],
    ['two passes of three', [P, P], 3, false, 'On Going', 2],
    ['three consecutive passes validate', [P, P, P], 3, false, 'Validated', 3],
    // P P F → 0, then P P → 2: not yet
    ['a fail resets the count', [P, P, F, P, P], 3, false, 'On Going', 2],
    // P P F P P P → 3 after the reset
    ['three passes after a reset validate', [P, P, F, P, P, P], 3, false, 'Validated', 3],
    // P I P P → the invalidated run is skipped: 3
    ['an invalidated run neither counts nor resets', [P, I, P, P], 3, false, 'Validated', 3],
    ['a fail after validation fails the study', [P, P, P, F], 3, false, 'Failed', 0],
    // the failure after validation stays: P P P F P P P is still Failed, count 3
    ['failed after validation stays failed', [P, P, P, F, P, P, P], 3, false, 'Failed', 3],
    ['closed without validating fails', [P, P], 3, true, 'Failed', 2],
    ['closed after validating stays validated', [P, P, P], 3, true, 'Validated', 3],
    ['a justified two-run protocol validates on two', [F, P, P], 2, false, 'Validated', 2],
    ['four passes keep counting', [P, P, P, P], 3, false, 'Validated', 4],
  ])('%s', (_name, verdicts, required, closed, outcome, count) => {
    const r = studyOutcome(
      verdicts.map((verdict) => ({ verdict })),
      required,
      closed,
    );
    expect(r).toEqual({ outcome, consecutivePasses: count });
  });
});

describe('studyOutcome with the failStudy policy (a Validation study by default)', () => {
  it.each<[string, CompletedRunVerdict[], number, boolean, string, number]>([
    ['no runs yet', [], 3, false, 'On Going', 0],
    ['passes so far', [P, P], 3, false, 'On Going', 2],
    ['three passes validate', [P, P, P], 3, false, 'Validated', 3],
    ['a failed run fails the study', [P, F], 3, false, 'Failed', 0],
    // P P F P P P: passes after the failure never validate the study again
    ['passes after a failure do not validate', [P, P, F, P, P, P], 3, false, 'Failed', 3],
    ['a first failed run fails it', [F], 3, false, 'Failed', 0],
    // a laboratory deviation invalidated the run: neither a failure nor a pass
    ['an invalidated run is neither', [P, I, P, P], 3, false, 'Validated', 3],
    ['a failure after validation fails it', [P, P, P, F], 3, false, 'Failed', 0],
    ['closed before validating fails', [P], 3, true, 'Failed', 1],
  ])('%s', (_name, verdicts, required, closed, outcome, count) => {
    const r = studyOutcome(
      verdicts.map((verdict) => ({ verdict })),
      required,
      closed,
      'failStudy',
    );
    expect(r).toEqual({ outcome, consecutivePasses: count });
  });
});

describe('failedRunPolicyOf', () => {
  it.each<[unknown, string | null, FailedRunPolicy]>([
    ['failStudy', 'Verification', 'failStudy'],
    ['resetCount', 'Validation', 'resetCount'],
    [undefined, 'Validation', 'failStudy'],
    [null, 'Verification', 'resetCount'],
    [undefined, 'Periodic Verification', 'resetCount'],
    ['garbage', 'Validation', 'failStudy'],
  ])('the protocol says %s, the study is %s: %s', (choice, type, policy) => {
    expect(failedRunPolicyOf(choice, type)).toBe(policy);
  });
});

describe('studyOutcome over any sequence of completed runs (property)', () => {
  const verdicts = fc.array(fc.constantFrom<CompletedRunVerdict>(P, F, I), { maxLength: 30 });
  const required = fc.integer({ min: 1, max: 6 });
  const policy = fc.constantFrom<FailedRunPolicy>('failStudy', 'resetCount');
  const runs = (list: CompletedRunVerdict[]) => list.map((verdict) => ({ verdict }));

  /** An independent statement of the rule: scan for the first time it validates or fails. */
  function expected(
    list: CompletedRunVerdict[],
    need: number,
    p: FailedRunPolicy,
    closed: boolean,
  ) {
    const counted = list.filter((v) => v !== I);
    let streak = 0;
    let validatedAt = -1;
    counted.forEach((v, i) => {
      streak = v === P ? streak + 1 : 0;
      if (validatedAt < 0 && streak >= need) validatedAt = i;
    });
    const firstFail = counted.indexOf(F);
    const failAfterValidation = validatedAt >= 0 && counted.slice(validatedAt + 1).includes(F);
    const failed = (p === 'failStudy' && firstFail >= 0) || failAfterValidation;
    const outcome = failed
      ? 'Failed'
      : validatedAt >= 0
        ? 'Validated'
        : closed
          ? 'Failed'
          : 'On Going';
    return { outcome, consecutivePasses: streak };
  }

  it('agrees with the rule stated independently', () => {
    fc.assert(
      fc.property(verdicts, required, policy, fc.boolean(), (list, need, p, closed) => {
        expect(studyOutcome(runs(list), need, closed, p)).toEqual(expected(list, need, p, closed));
      }),
      { numRuns: 2000 },
    );
  });

  it('never validates a failStudy study that had a failed run', () => {
    fc.assert(
      fc.property(verdicts, required, fc.boolean(), (list, need, closed) => {
        const { outcome } = studyOutcome(runs(list), need, closed, 'failStudy');
        if (list.includes(F)) expect(outcome).toBe('Failed');
      }),
      { numRuns: 2000 },
    );
  });

  it('failStudy is never kinder than resetCount', () => {
    const rank = { Failed: 0, 'On Going': 1, Validated: 2 } as const;
    fc.assert(
      fc.property(verdicts, required, fc.boolean(), (list, need, closed) => {
        const strict = studyOutcome(runs(list), need, closed, 'failStudy').outcome;
        const lenient = studyOutcome(runs(list), need, closed, 'resetCount').outcome;
        expect(rank[strict]).toBeLessThanOrEqual(rank[lenient]);
      }),
      { numRuns: 2000 },
    );
  });

  it('invalidated runs change nothing: removing them gives the same outcome', () => {
    fc.assert(
      fc.property(verdicts, required, policy, fc.boolean(), (list, need, p, closed) => {
        const without = list.filter((v) => v !== I);
        expect(studyOutcome(runs(list), need, closed, p)).toEqual(
          studyOutcome(runs(without), need, closed, p),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('a failed outcome is final: more runs never turn it into another', () => {
    fc.assert(
      fc.property(verdicts, verdicts, required, policy, (first, more, need, p) => {
        if (studyOutcome(runs(first), need, false, p).outcome !== 'Failed') return;
        expect(studyOutcome(runs([...first, ...more]), need, false, p).outcome).toBe('Failed');
      }),
      { numRuns: 1000 },
    );
  });
});
