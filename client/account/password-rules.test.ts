import { describe, expect, it } from 'vitest';
import { passwordChecklist } from './password-rules.ts';

const strict = { minPasswordLength: 10, minCapital: 1, minNumber: 1, specialCharacters: 1 };
const lenient = { minPasswordLength: 8, minCapital: 0, minNumber: 0, specialCharacters: 0 };

function summary(password: string, confirm: string, policy = strict) {
  return Object.fromEntries(
    passwordChecklist(policy, password, confirm).map((rule) => [rule.label, rule.passes]),
  );
}

describe('passwordChecklist', () => {
  it('lists every rule the policy demands, with the spec texts', () => {
    expect(passwordChecklist(strict, '', '').map((rule) => rule.label)).toEqual([
      '10 characters minimum',
      'One number',
      'One uppercase character',
      'One special character',
      'Passwords Match',
    ]);
  });

  it('shows only length and match when the policy asks for nothing else', () => {
    expect(passwordChecklist(lenient, '', '').map((rule) => rule.label)).toEqual([
      '8 characters minimum',
      'Passwords Match',
    ]);
  });

  it('passes each rule independently', () => {
    expect(summary('abcdefghij', 'x')).toEqual({
      '10 characters minimum': true,
      'One number': false,
      'One uppercase character': false,
      'One special character': false,
      'Passwords Match': false,
    });
    expect(summary('Abcdefgh1!', 'Abcdefgh1!')).toEqual({
      '10 characters minimum': true,
      'One number': true,
      'One uppercase character': true,
      'One special character': true,
      'Passwords Match': true,
    });
  });

  it.each([...`!@#$%^&*()_+-=[]{};':"\\|,.<>/?`])('counts %s as a special character', (char) => {
    expect(summary(`abc${char}`, '')['One special character']).toBe(true);
  });

  it('does not count other punctuation as special', () => {
    expect(summary('abc~`€', '')['One special character']).toBe(false);
  });

  it('needs a non-empty match', () => {
    expect(summary('', '')['Passwords Match']).toBe(false);
  });
});
