import type { TApprovalStep } from '#core/schemas/signatures.schemas.ts';

/**
 * Steps as the editor lists them, renumbered 1, 2, … in list order: the order a step runs in is
 * its place in the list, so removing or moving one never leaves a gap or a duplicate.
 */
export function renumberSteps(steps: readonly Partial<TApprovalStep>[]): TApprovalStep[] {
  return steps.map((step, index) => ({
    order: index + 1,
    signerRole: step.signerRole ?? 'Approver',
    roleIds: step.roleIds ?? [],
    minSignatures: step.minSignatures ?? 1,
  }));
}

/** A step added at the end: one Approver signature, any role with ApprovalPolicy Sign. */
export function newStep(steps: readonly TApprovalStep[]): TApprovalStep {
  return { order: steps.length + 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 };
}

/** The problem with a policy the server would refuse too: it must end in an Approver step. */
export function stepsProblem(steps: readonly TApprovalStep[]): string | null {
  if (steps.length === 0) return 'A policy needs at least one step';
  if (!steps.some((step) => step.signerRole === 'Approver')) {
    return 'A policy needs an Approver step: only an approval puts a version in force';
  }
  return null;
}
