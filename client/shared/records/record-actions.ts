import type {
  TApprovalStep,
  TControlledState,
  TSignAction,
} from '#core/schemas/signatures.schemas.ts';
import type { FacilityKind } from '#core/facilities/facility-features.ts';
import { isSignedDirectly, type ChangeControlDecl } from '#core/records/change-controlled.ts';
import { NAME_PENDING } from '../display-labels.ts';

/** What the signed-in user may do to a controlled record. */
export interface SignerRights {
  /** May modify the record (its own Modify permission): the Submitter. */
  canModify: boolean;
  /**
   * The signature the version waits for from this user, as the server decides it by the step's
   * roles and self-approval (`GET {F}/signatures/eligibility`); null when it waits for others.
   */
  signs: 'Review' | 'Approve' | null;
}

/** Where the record is signed: its facility (unknown before the session names it) and its kind. */
export interface SigningPlace {
  facility: FacilityKind | undefined;
  /** The declaration's `changeControlled`: a change assessment puts it in force under change control. */
  controlled: ChangeControlDecl | undefined;
}

/**
 * The sign actions to offer now (contract: Submit from BeingBuilt; Review in BeingReviewed;
 * Approve in BeingApproved; Reject in either, by whoever may sign the step), less those the sign
 * service refuses where a change assessment puts the record in force (the same rule,
 * core/records/change-controlled.ts).
 */
export function availableActions(
  status: TControlledState['status'],
  rights: SignerRights,
  place?: SigningPlace,
) {
  const actions: TSignAction[] = [];
  if (status === 'BeingBuilt' && rights.canModify) actions.push('Submit');
  if (status === 'BeingReviewed' && rights.signs === 'Review') actions.push('Review', 'Reject');
  if (status === 'BeingApproved' && rights.signs === 'Approve') actions.push('Approve', 'Reject');
  const facility = place?.facility;
  if (!facility) return actions;
  return actions.filter((action) => isSignedDirectly(place.controlled, facility, action));
}

export function isLockedForEditing(status: TControlledState['status']): boolean {
  return status === 'BeingReviewed' || status === 'BeingApproved';
}

/** 'one Approver signature', '2 Reviewer signatures (roles: QA, QC)'. */
export function describeStep(step: TApprovalStep, roleName: (id: number) => string): string {
  const count = step.minSignatures === 1 ? 'one' : String(step.minSignatures);
  const noun = step.minSignatures === 1 ? 'signature' : 'signatures';
  const roles = step.roleIds.length > 0 ? ` (roles: ${step.roleIds.map(roleName).join(', ')})` : '';
  return `${count} ${step.signerRole} ${noun}${roles}`;
}

/** The signatures a version submitted under these steps will need, in order. */
export function requiredSignatures(
  steps: readonly TApprovalStep[],
  roleName: (id: number) => string = () => NAME_PENDING,
): string {
  return [...steps]
    .sort((a, b) => a.order - b.order)
    .map((step) => describeStep(step, roleName))
    .join(', then ');
}

/**
 * What a form says before an edit of the record, or null when an edit is plain. The version
 * number itself is on the record's tag; the notice names only the version an edit would start.
 */
export function editNotice(
  state: Pick<TControlledState, 'status' | 'versionNumber'>,
): { kind: 'newVersion' | 'locked'; title: string; message: string } | null {
  if (state.status === 'Approved') {
    return {
      kind: 'newVersion',
      title: `Saving starts version ${state.versionNumber + 1} in Being Built`,
      message: 'The version in force stays Active until the new version is approved.',
    };
  }
  if (isLockedForEditing(state.status)) {
    return {
      kind: 'locked',
      title: 'Locked for editing',
      message:
        'This version is under review. It can be edited again after it is approved or rejected.',
    };
  }
  return null;
}

/** Whether a record read carries the controlled state (servers before issue 10 do not). */
export function controlledStateOf(record: Record<string, unknown>): TControlledState | null {
  const { status, signatureState, versionNumber, version } = record;
  if (typeof status !== 'string' || typeof versionNumber !== 'number') return null;
  return {
    status: status as TControlledState['status'],
    signatureState: (signatureState ?? null) as TControlledState['signatureState'],
    versionNumber,
    version: typeof version === 'number' ? version : 0,
  };
}
