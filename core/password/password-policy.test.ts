import { describe, expect, it } from 'vitest';
import { brokenPasswordRules, DEFAULT_PASSWORD_POLICY } from './password-policy.ts';

describe('brokenPasswordRules', () => {
  it.each([
    ['Abcdef1!', []],
    ['abcdef1!', ['capital']],
    ['Abcdefg!', ['number']],
    ['Abcdefg1', ['special']],
    ['Ab1!', ['length']],
    ['', ['length', 'number', 'capital', 'special']],
    ['Pass word1;', []],
  ] as const)('%j breaks %j', (password, expected) => {
    expect(brokenPasswordRules(password, DEFAULT_PASSWORD_POLICY)).toEqual(expected);
  });

  it('follows the counts of the policy', () => {
    const policy = { minPasswordLength: 12, minCapital: 2, minNumber: 0, specialCharacters: 0 };
    expect(brokenPasswordRules('Abcdefghijkl', policy)).toEqual(['capital']);
    expect(brokenPasswordRules('ABcdefghijkl', policy)).toEqual([]);
  });
});
