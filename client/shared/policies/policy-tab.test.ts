import { describe, expect, it } from 'vitest';
import { policyTabFor } from './policy-tab.ts';

describe('policyTabFor', () => {
  const policies = [
    { id: 11, residueType: 'Chemical' },
    { id: 12, residueType: 'Detergent' },
    { id: 14, residueType: 'Nitrosamine' },
  ];

  it('opens a residue type’s policy on its tab', () => {
    expect(policyTabFor(12, policies)).toBe('Detergent');
    expect(policyTabFor(14, policies)).toBe('Nitrosamine');
  });

  it('opens the microbial tab for the one policy of the type without a residue type', () => {
    expect(policyTabFor(15, policies)).toBe('microbial');
  });
});
