import type { TControlledState } from '#core/schemas/signatures.schemas.ts';
import type { TStudy, TStudyOutcome } from '#core/schemas/verification.schemas.ts';

/** Spec §4's outcome colours: Validated green, On Going blue, Failed red. */
export const OUTCOME_COLOURS: Record<TStudyOutcome, string> = {
  Validated: 'success',
  'On Going': 'processing',
  Failed: 'error',
};

/** Consecutive passing runs against the protocol's requirement: '2 of 3'. */
export function passesText(study: Pick<TStudy, 'consecutivePasses' | 'requiredPasses'>): string {
  return `${study.consecutivePasses} of ${study.requiredPasses}`;
}

/** Where a study came from, as a link into its screen; null when it started on its own. */
export function originLink(origin: TStudy['origin']): { to: string; text: string } | null {
  if (origin.kind === 'none' || origin.id === null) return null;
  if (origin.kind === 'qualificationTask')
    return {
      // The tasks are listed on the cleaning assessments screen, under their tab.
      to: '/cleaning-assessments?tab=tasks',
      text: origin.label ?? 'Qualification task',
    };
  return {
    to: `/change-control/${origin.id}`,
    text: origin.label ?? 'Change assessment',
  };
}

/** The route of a study, and of a run (the run screen is client/features/verification). */
export const studyRoute = (id: number) => `/studies/${id}`;
export const runRoute = (id: number) => `/runs/${id}`;

/**
 * Whether a task may start a study now: not while one of its studies is On Going or has
 * validated; after a Failed one, a new study repeats the attempt.
 */
export function canStartStudyFor(studies: readonly { outcome: TStudyOutcome }[]): boolean {
  return studies.every((study) => study.outcome === 'Failed');
}

/**
 * Whether a study may start from a protocol in this state: it needs an approved version in
 * force. The record shows its newest version; a version past the first is only started from an
 * approved one, so while it is edited the approved one before it is still in force.
 */
export function hasApprovedVersion(state: Pick<TControlledState, 'status' | 'versionNumber'>) {
  return state.status === 'Approved' || (state.versionNumber > 1 && state.status !== 'Deprecated');
}
