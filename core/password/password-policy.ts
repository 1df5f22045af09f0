/**
 * The password rules of a plan's policy (spec §5), shared by the server, which enforces them,
 * and the client, which shows them as a live checklist.
 */
export interface PasswordPolicySettings {
  minPasswordLength: number;
  minCapital: number;
  minNumber: number;
  specialCharacters: number;
}

/** Lockout, ageing, reuse and session rules that sit beside the composition rules. */
export interface PasswordSecuritySettings {
  maxLoginAttempts: number;
  lockoutMinutes: number;
  /** 0 turns ageing off. 21 CFR 11.300(b) expects ageing; ASVS V6.2.10 advises against it. */
  passwordExpiryDays: number;
  passwordHistoryCount: number;
}

export type PasswordPolicy = PasswordPolicySettings & PasswordSecuritySettings;

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minPasswordLength: 8,
  minCapital: 1,
  minNumber: 1,
  specialCharacters: 1,
  maxLoginAttempts: 5,
  lockoutMinutes: 15,
  passwordExpiryDays: 90,
  passwordHistoryCount: 5,
};

export const SPECIAL_CHARACTERS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?';

export type PasswordRule = 'length' | 'number' | 'capital' | 'special';

function count(password: string, test: (ch: string) => boolean): number {
  let n = 0;
  for (const ch of password) if (test(ch)) n += 1;
  return n;
}

/** The rules the password breaks, in the order the checklist shows them. */
export function brokenPasswordRules(
  password: string,
  policy: PasswordPolicySettings,
): PasswordRule[] {
  const broken: PasswordRule[] = [];
  if ([...password].length < policy.minPasswordLength) broken.push('length');
  if (count(password, (ch) => ch >= '0' && ch <= '9') < policy.minNumber) broken.push('number');
  if (count(password, (ch) => ch >= 'A' && ch <= 'Z') < policy.minCapital) broken.push('capital');
  if (count(password, (ch) => SPECIAL_CHARACTERS.includes(ch)) < policy.specialCharacters) {
    broken.push('special');
  }
  return broken;
}

/** Texts of PasswordNotComplexError (spec §5), one per broken composition rule. */
export const COMPLEXITY_MESSAGES: Record<Exclude<PasswordRule, 'length'>, string> = {
  number: 'Your password must contain atleast one number and alphabet',
  capital: 'Your password must contain atleast one capital letter',
  special: 'Your password must contain atleast one special character',
};

export function minLengthMessage(minPasswordLength: number): string {
  return `Your password must be minimum of ${minPasswordLength} characters long`;
}
