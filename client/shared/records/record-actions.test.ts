import { describe, expect, it } from 'vitest';
import {
  availableActions,
  controlledStateOf,
  editNotice,
  isLockedForEditing,
  requiredSignatures,
} from './record-actions.ts';

describe('availableActions', () => {
  it('offers Submit from Being Built only to who may modify the record', () => {
    expect(availableActions('BeingBuilt', { canModify: true, signs: null })).toEqual(['Submit']);
    expect(availableActions('BeingBuilt', { canModify: false, signs: null })).toEqual([]);
  });

  it('offers Review or Approve, and Reject, only when the version waits for this signer', () => {
    expect(availableActions('BeingReviewed', { canModify: true, signs: 'Review' })).toEqual([
      'Review',
      'Reject',
    ]);
    expect(availableActions('BeingApproved', { canModify: true, signs: 'Approve' })).toEqual([
      'Approve',
      'Reject',
    ]);
    // The submitter without self-approval, or a signer of other roles: the server says null.
    expect(availableActions('BeingApproved', { canModify: true, signs: null })).toEqual([]);
    expect(availableActions('BeingApproved', { canModify: true, signs: 'Review' })).toEqual([]);
  });

  it('offers nothing on an Active or Deprecated version', () => {
    expect(availableActions('Approved', { canModify: true, signs: 'Approve' })).toEqual([]);
    expect(availableActions('Deprecated', { canModify: true, signs: 'Approve' })).toEqual([]);
  });
});

describe('editNotice', () => {
  it('says an edit of an Approved version starts the next one in Being Built', () => {
    expect(editNotice({ status: 'Approved', versionNumber: 3 })).toEqual({
      kind: 'newVersion',
      title: 'Saving starts version 4 in Being Built',
      message: 'The version in force stays Active until the new version is approved.',
    });
  });

  it('says a version under review is locked, and nothing for one being built', () => {
    expect(editNotice({ status: 'BeingReviewed', versionNumber: 1 })?.kind).toBe('locked');
    expect(editNotice({ status: 'BeingApproved', versionNumber: 1 })?.kind).toBe('locked');
    expect(editNotice({ status: 'BeingBuilt', versionNumber: 2 })).toBeNull();
    expect(isLockedForEditing('BeingBuilt')).toBe(false);
  });
});

describe('requiredSignatures', () => {
  it('lists the steps in their order with counts and roles', () => {
    const text = requiredSignatures(
      [
        { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
        { order: 1, signerRole: 'Reviewer', roleIds: [7, 8], minSignatures: 2 },
      ],
      (id) => (id === 7 ? 'QA' : 'QC'),
    );
    expect(text).toBe('2 Reviewer signatures (roles: QA, QC), then one Approver signature');
  });
});

describe('controlledStateOf', () => {
  it('reads the state a controlled record carries, and nothing from a plain record', () => {
    expect(
      controlledStateOf({
        status: 'Approved',
        signatureState: 'Signed',
        versionNumber: 2,
        version: 5,
      }),
    ).toEqual({ status: 'Approved', signatureState: 'Signed', versionNumber: 2, version: 5 });
    expect(controlledStateOf({ id: 1, version: 1 })).toBeNull();
  });
});
