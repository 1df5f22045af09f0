import { describe, expect, it } from 'vitest';
import { newStep, renumberSteps, stepsProblem } from './approval-steps.ts';

describe('renumberSteps', () => {
  it('numbers the steps by their place in the list and fills what the form left empty', () => {
    expect(
      renumberSteps([
        { order: 3, signerRole: 'Reviewer', roleIds: [4], minSignatures: 2 },
        { order: 1, signerRole: 'Approver' },
      ]),
    ).toEqual([
      { order: 1, signerRole: 'Reviewer', roleIds: [4], minSignatures: 2 },
      { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
    ]);
  });
});

describe('newStep', () => {
  it('adds one Approver signature after the last step', () => {
    expect(newStep(renumberSteps([{ signerRole: 'Reviewer' }]))).toEqual({
      order: 2,
      signerRole: 'Approver',
      roleIds: [],
      minSignatures: 1,
    });
  });
});

describe('stepsProblem', () => {
  it('needs at least one step and an Approver step', () => {
    expect(stepsProblem([])).toBe('A policy needs at least one step');
    expect(stepsProblem(renumberSteps([{ signerRole: 'Reviewer' }]))).toMatch(/Approver step/);
    expect(stepsProblem(renumberSteps([{ signerRole: 'Approver' }]))).toBeNull();
  });
});
