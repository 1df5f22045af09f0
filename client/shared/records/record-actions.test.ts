import { describe, expect, it } from 'vitest';
import { macFormulasDef } from '#core/entities/defs/mac-formulas.def.ts';
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

  // Issue 32: a MAC formula moves limits; with change control (the full tier) a change
  // assessment puts it in force and the sign service refuses its own Submit and Approve.
  describe('of a record a change assessment puts in force under change control', () => {
    const full = { tier: 'full', productType: 'product' } as const;
    const lite = { tier: 'lite', productType: 'api' } as const;
    const formula = macFormulasDef.controlled;
    const author = { canModify: true, signs: null };
    const approver = { canModify: true, signs: 'Approve' } as const;

    it('offers no Submit or Approve where the facility has change control, only Reject', () => {
      expect(
        availableActions('BeingBuilt', author, { facility: full, controlled: formula }),
      ).toEqual([]);
      expect(
        availableActions('BeingApproved', approver, { facility: full, controlled: formula }),
      ).toEqual(['Reject']);
      expect(
        availableActions(
          'BeingReviewed',
          { canModify: true, signs: 'Review' },
          {
            facility: full,
            controlled: formula,
          },
        ),
      ).toEqual(['Review', 'Reject']);
    });

    it('offers its own signatures where the facility has none (the lite tier)', () => {
      expect(
        availableActions('BeingBuilt', author, { facility: lite, controlled: formula }),
      ).toEqual(['Submit']);
      expect(
        availableActions('BeingApproved', approver, { facility: lite, controlled: formula }),
      ).toEqual(['Approve', 'Reject']);
    });

    it('leaves other records, and a facility not known yet, to the other rules', () => {
      expect(
        availableActions('BeingBuilt', author, { facility: full, controlled: undefined }),
      ).toEqual(['Submit']);
      expect(
        availableActions('BeingBuilt', author, { facility: undefined, controlled: formula }),
      ).toEqual(['Submit']);
    });
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
