import type { TStudyOutcome } from '../schemas/verification.schemas.ts';

/**
 * A study's outcome from its completed runs, in order (spec §4; core/verification/README.md).
 * A failed run resets the count of consecutive passes; an invalidated run (a non-process
 * deviation) needs a repeat but neither counts nor resets.
 */

export type CompletedRunVerdict = 'Pass' | 'Fail' | 'Invalidated';

export interface StudyOutcome {
  outcome: TStudyOutcome;
  consecutivePasses: number;
}

export function studyOutcome(
  runs: readonly { verdict: CompletedRunVerdict }[],
  requiredPasses: number,
  closed: boolean,
): StudyOutcome {
  const required = Math.max(1, requiredPasses);
  let consecutivePasses = 0;
  let validated = false;
  let failedAfterValidation = false;
  for (const { verdict } of runs) {
    if (verdict === 'Pass') {
      consecutivePasses += 1;
      if (consecutivePasses >= required) validated = true;
    } else if (verdict === 'Fail') {
      if (validated) failedAfterValidation = true;
      consecutivePasses = 0;
    }
  }
  // Failing after validation is final: later passes do not validate the study again.
  const outcome: TStudyOutcome = failedAfterValidation
    ? 'Failed'
    : validated
      ? 'Validated'
      : closed
        ? 'Failed'
        : 'On Going';
  return { outcome, consecutivePasses };
}
