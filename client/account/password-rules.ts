import { brokenPasswordRules } from '#core/password/password-policy.ts';
import type { PasswordPolicySettings } from '#core/password/password-policy.ts';

export interface ChecklistRule {
  key: 'length' | 'number' | 'capital' | 'special' | 'match';
  label: string;
  passes: boolean;
}

/**
 * The live checklist of the reset screen (spec §5). The composition rules are the server's own
 * (core/password), so the checklist and the server never disagree; number, uppercase and special
 * appear only when the policy demands them.
 */
export function passwordChecklist(
  policy: PasswordPolicySettings,
  password: string,
  confirmPassword: string,
): ChecklistRule[] {
  const broken = new Set(brokenPasswordRules(password, policy));
  const rules: ChecklistRule[] = [
    {
      key: 'length',
      label: `${policy.minPasswordLength} characters minimum`,
      passes: !broken.has('length'),
    },
  ];
  if (policy.minNumber > 0) {
    rules.push({ key: 'number', label: 'One number', passes: !broken.has('number') });
  }
  if (policy.minCapital > 0) {
    rules.push({
      key: 'capital',
      label: 'One uppercase character',
      passes: !broken.has('capital'),
    });
  }
  if (policy.specialCharacters) {
    rules.push({ key: 'special', label: 'One special character', passes: !broken.has('special') });
  }
  rules.push({
    key: 'match',
    label: 'Passwords Match',
    passes: password.length > 0 && password === confirmPassword,
  });
  return rules;
}
