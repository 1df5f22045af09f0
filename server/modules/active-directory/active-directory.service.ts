import type { Entry } from 'ldapts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { TActiveDirectoryUser } from '#core/schemas/active-directory.schemas.ts';
import type { TFacilityRoles, TUserWithKey } from '#core/schemas/users.schemas.ts';
import type { Db } from '#server/db/db.ts';
import type { Mailer } from '#server/util/mailer.ts';
import { createUser, type AdminScope } from '../users-admin/users-admin.service.ts';
import { directoryOf, type KeyConfig } from './active-directory.settings.ts';
import {
  asServiceAccount,
  DirectoryUnavailable,
  findAccountByDn,
  first,
  groupMatches,
  groupsOf,
  searchAccounts,
  type Directory,
} from './directory-client.ts';

/** `POST …/ping`: the service account binds and reads the base DN. */
export async function pingDirectory(db: Db, config: KeyConfig, planId: number) {
  const directory = await directoryOf(db, config, planId);
  try {
    await asServiceAccount(directory, (client) =>
      client.search(directory.baseDn, { scope: 'base', attributes: ['1.1'] }),
    );
    return { success: true, message: 'The directory answered and accepted the service account' };
  } catch (error) {
    return { success: false, message: (error as Error).message };
  }
}

function unavailable(error: unknown): never {
  if (error instanceof AppError) throw error;
  throw new AppError(
    'ServiceUnavailable',
    error instanceof DirectoryUnavailable ? error.message : 'The directory could not be searched',
  );
}

function toDirectoryUser(
  directory: Directory,
  entry: Entry,
  groups: string[],
  existing: Map<string, number>,
): TActiveDirectoryUser {
  const username = first(entry, directory.userSearchAttributes[0]!);
  return {
    dn: entry.dn,
    username,
    firstName: first(entry, 'givenName') ?? first(entry, 'cn'),
    lastName: first(entry, 'sn'),
    email: first(entry, 'mail'),
    groups,
    existingUserId: username ? (existing.get(username.toLowerCase()) ?? null) : null,
  };
}

async function existingUsers(db: Db, planId: number, usernames: string[]) {
  const rows = await db.query<{ id: number; username: string }>(
    `select id, lower(username) as username from users
      where plan_id = $1 and lower(username) = any($2::text[])`,
    [planId, usernames.map((u) => u.toLowerCase())],
  );
  return new Map(rows.map((r) => [r.username, r.id]));
}

/** `POST …/search`: accounts whose `fields` (default: the search attributes) contain `query`. */
export async function searchDirectory(
  db: Db,
  config: KeyConfig,
  planId: number,
  query: string,
  fields: string[] | undefined,
): Promise<TActiveDirectoryUser[]> {
  const directory = await directoryOf(db, config, planId);
  const found = await asServiceAccount(directory, async (client) => {
    const entries = await searchAccounts(
      client,
      directory,
      query,
      fields ?? directory.userSearchAttributes,
    );
    return Promise.all(
      entries.map(async (entry) => ({ entry, groups: await groupsOf(client, directory, entry) })),
    );
  }).catch(unavailable);
  const usernames = found
    .map(({ entry }) => first(entry, directory.userSearchAttributes[0]!))
    .filter((u): u is string => u !== null);
  const existing = await existingUsers(db, planId, usernames);
  return found.map(({ entry, groups }) => toDirectoryUser(directory, entry, groups, existing));
}

/** The facilities and roles the mapping gives to members of `groups`. */
export function rolesOfGroups(directory: Directory, groups: string[]): TFacilityRoles[] {
  const byFacility = new Map<number, Set<number>>();
  for (const mapping of directory.groupRoles) {
    if (!groups.some((group) => groupMatches(mapping.group, group))) continue;
    const roles = byFacility.get(mapping.facilityId) ?? new Set<number>();
    roles.add(mapping.roleId);
    byFacility.set(mapping.facilityId, roles);
  }
  return [...byFacility].map(([facilityId, roles]) => ({ facilityId, roleIds: [...roles] }));
}

/**
 * Adds a directory account as a user of auth type `ad`: names, e-mail and groups are read again
 * from the directory (not taken from the client), and the groups give the roles by the mapping.
 */
export async function addDirectoryUser(
  db: Db,
  mailer: Mailer,
  config: KeyConfig,
  scope: AdminScope,
  input: { dn: string; departmentId?: number | null | undefined },
  baseUrl: string,
): Promise<TUserWithKey> {
  const directory = await directoryOf(db, config, scope.planId);
  const found = await asServiceAccount(directory, async (client) => {
    const entry = await findAccountByDn(client, directory, input.dn);
    return entry && { entry, groups: await groupsOf(client, directory, entry) };
  }).catch(unavailable);
  if (!found) throw new AppError('NotFoundError', 'The directory has no account with this DN');
  const user = toDirectoryUser(directory, found.entry, found.groups, new Map());
  const missing = (
    [
      ['username', user.username],
      ['firstName', user.firstName],
      ['lastName', user.lastName],
    ] as const
  ).filter(([, value]) => !value);
  if (missing.length) {
    throw validationError(
      missing.map(([property]) => ({
        property,
        constraints: { required: `The directory account has no ${property}` },
      })),
    );
  }
  return createUser(
    db,
    mailer,
    scope,
    {
      firstName: user.firstName!,
      lastName: user.lastName!,
      username: user.username!,
      email: user.email,
      departmentId: input.departmentId ?? null,
      facilityRoles: rolesOfGroups(directory, found.groups),
      authType: 'ad',
    },
    baseUrl,
  );
}
