import type { TRecordStatus, TSignAction, TSignatureState } from '../schemas/signatures.schemas.ts';

/** Spec §4's labels ('Being Built', 'Active'); the statuses it shows no label for, in words. */
export const STATUS_LABELS: Record<TRecordStatus, string> = {
  BeingBuilt: 'Being Built',
  BeingReviewed: 'Being reviewed',
  BeingApproved: 'Being approved',
  Approved: 'Active',
  Deprecated: 'Deprecated',
  IntegrityBroken: 'Integrity broken',
};

/** Ant Design tag colours: in force green, waiting blue/gold, withdrawn grey, broken red. */
export const STATUS_COLOURS: Record<TRecordStatus, string> = {
  BeingBuilt: 'default',
  BeingReviewed: 'processing',
  BeingApproved: 'gold',
  Approved: 'success',
  Deprecated: 'default',
  IntegrityBroken: 'error',
};

export const SIGNATURE_STATE_LABELS: Record<TSignatureState, string> = {
  PendingApproval: 'Signing Pending',
  Signed: 'Signed',
  ChangesRequested: 'Changes Requested',
};

/** How a rejection reads, by the status it was made in (spec §4). */
export function rejectionLabel(statusWhenRejected: TRecordStatus): string {
  if (statusWhenRejected === 'BeingReviewed') return 'Review Rejected';
  if (statusWhenRejected === 'BeingApproved') return 'Approval Rejected';
  return 'Rejected';
}

export const ACTION_LABELS: Record<TSignAction, string> = {
  Submit: 'Submit',
  Review: 'Review',
  Approve: 'Approve',
  Reject: 'Reject',
};
