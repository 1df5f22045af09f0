import type { TStudyOutcome } from '../schemas/verification.schemas.ts';

/**
 * A study's outcome from its completed runs, in order (spec §4; core/verification/README.md).
 * An invalidated run (a non-process deviation whose closure QA approved) needs a repeat but
 * neither counts nor resets. What a failed run does is the protocol's choice (`failedRunPolicy`):
 * `resetCount` starts the count of consecutive passes again; `failStudy` fails the study. A
 * failed validation run is a failure to meet the protocol's acceptance criteria, to be
 * investigated and concluded (21 CFR 211.192; EU GMP Annex 15 §10), not repeated until three
 * passes line up, so a Validation study fails by default and a new study follows the fix.
 */

export type CompletedRunVerdict = 'Pass' | 'Fail' | 'Invalidated';

export const FAILED_RUN_POLICIES = ['failStudy', 'resetCount'] as const;
export type FailedRunPolicy = (typeof FAILED_RUN_POLICIES)[number];

/** Plain words for the protocol form and the study screen. */
export const FAILED_RUN_POLICY_LABELS: Record<FailedRunPolicy, string> = {
  failStudy: 'The study fails',
  resetCount: 'The count of passing runs starts again',
};

/**
 * The rule a study follows, fixed when it starts: the protocol's choice, else by study type
 * (a Validation study fails on a failed run; other types keep the count rule).
 */
export function failedRunPolicyOf(
  protocolChoice: unknown,
  studyType: string | null | undefined,
): FailedRunPolicy {
  if (protocolChoice === 'failStudy' || protocolChoice === 'resetCount') return protocolChoice;
  return studyType === 'Validation' ? 'failStudy' : 'resetCount';
}

export interface StudyOutcome {
  outcome: TStudyOutcome;
  consecutivePasses: number;
}

export function studyOutcome(
  runs: readonly { verdict: CompletedRunVerdict }[],
  requiredPasses: number,
  closed: boolean,
  policy: FailedRunPolicy = 'resetCount',
): StudyOutcome {
  const required = Math.max(1, requiredPasses);
  let consecutivePasses = 0;
  let validated = false;
  let failed = false;
  for (const { verdict } of runs) {
    if (verdict === 'Pass') {
      consecutivePasses += 1;
      if (consecutivePasses >= required) validated = true;
    } else if (verdict === 'Fail') {
      if (validated || policy === 'failStudy') failed = true;
      consecutivePasses = 0;
    }
  }
  // A failure that fails the study is final: later passes do not validate it again.
  const outcome: TStudyOutcome = failed
    ? 'Failed'
    : validated
      ? 'Validated'
      : closed
        ? 'Failed'
        : 'On Going';
  return { outcome, consecutivePasses };
}
