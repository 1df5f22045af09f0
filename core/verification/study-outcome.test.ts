import { describe, expect, it } from 'vitest';
import { studyOutcome } from './study-outcome.ts';
import type { CompletedRunVerdict } from './study-outcome.ts';

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
