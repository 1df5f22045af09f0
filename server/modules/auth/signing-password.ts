import { AppError, validationError } from '#core/errors/errors.ts';
import type { SignerProof } from '#core/schemas/signer.schemas.ts';
import type { Db } from '#server/db/db.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { spendSigningProof } from '../sso/sso-signing.ts';
import { checkPasswordAttempt } from './password-attempts.ts';
import { loadPasswordPolicy } from './policy.ts';
import type { UserRow } from './users.repo.ts';

function refuse(message: string, property: 'password' | 'ssoProof' = 'password'): never {
  throw validationError([{ property, constraints: { [property]: message } }]);
}

type Signer = Pick<UserRow, 'id' | 'plan_id' | 'password_hash' | 'auth_type' | 'username'> & {
  is_service_account: boolean;
};

/** What a service account is told when it tries to sign. */
export const SERVICE_ACCOUNT_CANNOT_SIGN =
  'A service account cannot sign: an electronic signature is made only by a person.';

/**
 * An electronic signature re-authenticates its signer (21 CFR 11.200(a)), each by the way they
 * sign in: a local or directory user by their password, counted toward the lockout exactly as a
 * failed sign-in is; a single sign-on user by the proof of a sign-in at the provider under 60 s
 * old (sso-signing.ts). Refusals are DataValidationErrors on the field the client showed; the
 * session stays, so the signer may try again.
 */
export async function verifySigner(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  userId: number,
  proof: SignerProof,
): Promise<void> {
  const [user] = await db.query<Signer>(
    `select id, plan_id, password_hash, auth_type, username, owner_id is not null as is_service_account
       from users where id = $1`,
    [userId],
  );
  if (!user) refuse('Your password is not correct.');
  // 21 CFR 11.100(a), 11.200(a): a signature is unique to one individual; a machine never signs.
  if (user.is_service_account) {
    await writeAudit(db, actor, {
      planId: user.plan_id,
      domain: 'Authentication',
      action: 'SignatureFailed',
      entityId: user.id,
      newValues: { reason: 'a service account cannot sign' },
    });
    throw new AppError('NotAllowed', SERVICE_ACCOUNT_CANNOT_SIGN);
  }
  if (user.auth_type === 'sso') return verifySsoProof(db, actor, user, proof.ssoProof);
  if (proof.ssoProof) refuse('You sign with your password, not with single sign-on', 'ssoProof');
  return verifySigningPassword(db, config, actor, user, proof.password ?? '');
}

async function verifySsoProof(
  db: Db,
  actor: Actor,
  user: Signer,
  ssoProof: string | undefined,
): Promise<void> {
  if (!ssoProof) refuse('Sign in again with single sign-on to sign', 'ssoProof');
  if (await spendSigningProof(db, user.id, ssoProof)) return;
  // A random 256-bit proof is not guessed like a password: refused and audited, not counted.
  await writeAudit(db, actor, {
    planId: user.plan_id,
    domain: 'Authentication',
    action: 'SignatureFailed',
    entityId: user.id,
    newValues: { reason: 'single sign-on proof unknown, spent or expired' },
  });
  refuse(
    'Your single sign-on confirmation expired or was already used. Sign in again to sign.',
    'ssoProof',
  );
}

async function verifySigningPassword(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  user: Signer,
  password: string,
): Promise<void> {
  // Refused before any bind: many directories take an empty password as an anonymous bind.
  if (password === '') refuse('Please input your Password!');
  const policy = await loadPasswordPolicy(db, user.plan_id);
  const locked = `Your account is locked after ${policy.maxLoginAttempts} failed attempts. Try again in ${policy.lockoutMinutes} minutes or contact your administrator.`;
  const failed = { action: 'SignatureFailed' as const, values: { reason: 'wrong password' } };
  const checked = await checkPasswordAttempt(db, config, actor, user, password, policy, failed);
  if (checked.outcome === 'right') return;
  if (checked.outcome === 'unchecked') refuse(checked.message);
  if (checked.outcome === 'locked' || checked.locked) refuse(locked);
  const left = policy.maxLoginAttempts - checked.attempt;
  refuse(
    `Your password is not correct. ${left} attempt${left === 1 ? '' : 's'} left before your account is locked.`,
  );
}
