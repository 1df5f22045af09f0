import { assertUnreachable } from '#core/errors/errors.ts';
import type { Db } from '#server/db/db.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { DirectoryUnavailable } from '../active-directory/directory-client.ts';
import { checkDirectoryPassword } from '../active-directory/directory-password.ts';
import { verifyPassword } from '#server/util/secrets.ts';
import type { UserRow } from './users.repo.ts';

/** The user's password could not be checked at all (not a wrong password): said as `message`. */
export class PasswordNotCheckable extends Error {}

/** A password is never checked for an SSO user: the provider proves who they are. */
export const SSO_PASSWORD_MESSAGE = 'This account signs in with single sign-on.';

/**
 * The one place that proves a password for each auth type (spec §3: local, ad, sso): sign-in and
 * every password re-authentication go through it (an SSO signer proves themself at the
 * provider instead: signing-password.ts).
 */
export async function passwordMatches(
  db: Db,
  config: KeyConfig,
  user: Pick<UserRow, 'plan_id' | 'auth_type' | 'password_hash' | 'username'>,
  password: string,
): Promise<boolean> {
  switch (user.auth_type) {
    case 'local':
      return verifyPassword(user.password_hash, password);
    case 'ad':
      try {
        const found = await checkDirectoryPassword(
          db,
          config,
          user.plan_id,
          user.username,
          password,
        );
        return found === 'right';
      } catch (error) {
        if (!(error instanceof DirectoryUnavailable)) throw error;
        throw new PasswordNotCheckable(
          'The directory could not check your password. Try again later or contact your administrator.',
        );
      }
    case 'sso':
      throw new PasswordNotCheckable(SSO_PASSWORD_MESSAGE);
    default:
      return assertUnreachable(user.auth_type);
  }
}
