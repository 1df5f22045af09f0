import { describe, expect, it } from 'vitest';
import { canStartStudyFor, hasApprovedVersion, originLink, passesText } from './study-format.ts';

describe('passesText', () => {
  it('counts consecutive passes against the required number', () => {
    expect(passesText({ consecutivePasses: 0, requiredPasses: 3 })).toBe('0 of 3');
    expect(passesText({ consecutivePasses: 2, requiredPasses: 2 })).toBe('2 of 2');
  });
});

describe('originLink', () => {
  it('has no link for a study started on its own', () => {
    expect(originLink({ kind: 'none', id: null, label: null })).toBeNull();
  });

  it('opens the qualification tasks, named by the server’s label', () => {
    expect(originLink({ kind: 'qualificationTask', id: 4, label: 'Tablet A on Line 1' })).toEqual({
      to: '/cleaning-assessments?tab=tasks',
      text: 'Tablet A on Line 1',
    });
  });

  it('opens the change assessment, named by its kind (never its id) when the label is missing', () => {
    expect(originLink({ kind: 'changeAssessment', id: 9, label: null })).toEqual({
      to: '/change-control/9',
      text: 'Change assessment',
    });
  });
});

describe('canStartStudyFor', () => {
  it('starts a first study, and another only after every earlier one failed', () => {
    expect(canStartStudyFor([])).toBe(true);
    expect(canStartStudyFor([{ outcome: 'Failed' }])).toBe(true);
    expect(canStartStudyFor([{ outcome: 'Failed' }, { outcome: 'On Going' }])).toBe(false);
    expect(canStartStudyFor([{ outcome: 'Validated' }])).toBe(false);
  });
});

describe('hasApprovedVersion', () => {
  it('offers approved protocols and those whose approved version is being revised', () => {
    expect(hasApprovedVersion({ status: 'Approved', versionNumber: 1 })).toBe(true);
    expect(hasApprovedVersion({ status: 'BeingBuilt', versionNumber: 1 })).toBe(false);
    expect(hasApprovedVersion({ status: 'BeingApproved', versionNumber: 1 })).toBe(false);
    expect(hasApprovedVersion({ status: 'BeingBuilt', versionNumber: 2 })).toBe(true);
    expect(hasApprovedVersion({ status: 'Deprecated', versionNumber: 3 })).toBe(false);
  });
});
