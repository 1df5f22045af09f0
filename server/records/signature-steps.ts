import { rightText } from '#core/permissions/permission-texts.ts';
import type {
  TApprovalStep,
  TRecordStatus,
  TSignAction,
} from '#core/schemas/signatures.schemas.ts';

/*
 * Where a submitted version stands in its approval steps, replayed from its signatures since
 * its latest Submit; and whether a user may sign the current step. Pure, so the signature call,
 * My approvals and the model-based test agree.
 */

export interface SignedBy {
  action: TSignAction;
  userId: number;
}

export interface StepProgress {
  /** The index of the step waiting for signatures; steps.length once all are done. */
  current: number;
  /** Who signed each step. */
  signers: Set<number>[];
  /** Who submitted this round (the latest Submit). */
  submitterId: number | null;
}

/** Replays the signatures of one version, oldest first; only those after its latest Submit count. */
export function stepProgress(steps: readonly TApprovalStep[], signed: readonly SignedBy[]) {
  const lastSubmit = signed.map((s) => s.action).lastIndexOf('Submit');
  const progress: StepProgress = {
    current: 0,
    signers: steps.map(() => new Set<number>()),
    submitterId: lastSubmit >= 0 ? signed[lastSubmit]!.userId : null,
  };
  for (const signature of signed.slice(lastSubmit + 1)) {
    if (signature.action !== 'Review' && signature.action !== 'Approve') continue;
    const step = steps[progress.current];
    if (!step) break;
    progress.signers[progress.current]!.add(signature.userId);
    if (progress.signers[progress.current]!.size >= step.minSignatures) progress.current += 1;
  }
  return progress;
}

/** The status a submitted version has at a step: Approved once every step is done. */
export function statusAt(steps: readonly TApprovalStep[], current: number): TRecordStatus {
  const step = steps[current];
  if (!step) return 'Approved';
  return step.signerRole === 'Reviewer' ? 'BeingReviewed' : 'BeingApproved';
}

/** The status each action starts from (spec §4, the contract's transitions). */
export function actionAllowedIn(action: TSignAction, status: TRecordStatus): boolean {
  switch (action) {
    case 'Submit':
      return status === 'BeingBuilt';
    case 'Review':
      return status === 'BeingReviewed';
    case 'Approve':
      return status === 'BeingApproved';
    case 'Reject':
      return status === 'BeingReviewed' || status === 'BeingApproved';
  }
}

export interface Signer {
  userId: number;
  /** Holds ApprovalPolicy Sign in the record's facility. */
  maySign: boolean;
  /** The user's roles in the record's facility. */
  roleIds: readonly number[];
}

/**
 * Why the user may not sign the current step of a submitted version (Review, Approve or
 * Reject), or null when they may.
 */
export function whyNotEligible(
  steps: readonly TApprovalStep[],
  progress: StepProgress,
  allowSelfApproval: boolean,
  signer: Signer,
): string | null {
  const step = steps[progress.current];
  if (!step) return 'no step of this version waits for a signature';
  if (!signer.maySign)
    return `signing needs ${rightText('ApprovalPolicy', 'Sign')} in this facility`;
  if (step.roleIds.length > 0 && !step.roleIds.some((id) => signer.roleIds.includes(id)))
    return 'this step is signed by holders of other roles';
  if (progress.signers[progress.current]!.has(signer.userId))
    return 'you have already signed this step';
  if (allowSelfApproval) return null;
  const signedOther =
    progress.submitterId === signer.userId ||
    progress.signers.some((set, index) => index !== progress.current && set.has(signer.userId));
  return signedOther
    ? 'you signed another step of this version, and the approval policy does not allow self-approval'
    : null;
}
