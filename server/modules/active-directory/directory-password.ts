import type { Queryable as Db } from '#server/db/db.ts';
import { directoryOf, type KeyConfig } from './active-directory.settings.ts';
import {
  asServiceAccount,
  DirectoryUnavailable,
  findAccount,
  passwordIsRight,
  type Directory,
} from './directory-client.ts';

/**
 * Checks an `ad` user's password by binding as their account: 'unknown' when the directory has
 * no single account for the Employee ID. A DirectoryUnavailable is the directory's fault.
 */
export async function checkDirectoryPassword(
  db: Db,
  config: KeyConfig,
  planId: number,
  username: string,
  password: string,
): Promise<'right' | 'wrong' | 'unknown'> {
  if (password === '') return 'wrong';
  let directory: Directory;
  try {
    directory = await directoryOf(db, config, planId);
  } catch {
    throw new DirectoryUnavailable('Active Directory is not configured');
  }
  try {
    const entry = await asServiceAccount(directory, (client) =>
      findAccount(client, directory, username),
    );
    if (!entry) return 'unknown';
    return (await passwordIsRight(directory, entry.dn, password)) ? 'right' : 'wrong';
  } catch (error) {
    if (error instanceof DirectoryUnavailable) throw error;
    throw new DirectoryUnavailable(`The directory could not be searched: ${String(error)}`);
  }
}
