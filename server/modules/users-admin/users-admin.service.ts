import { AppError, validationError } from '#core/errors/errors.ts';
import {
  isReservedUsername,
  type TCreateUserRequest,
  type TFacilityRoles,
  type TUpdateUserRequest,
  type TUser,
  type TUserWithKey,
} from '#core/schemas/users.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { NOW, updateVersioned, type Assigned } from '#server/entities/versioned-update.ts';
import { issueOneTimeToken, RESET_LINK_HOURS } from '../auth/one-time-tokens.ts';
import { resetPath } from '../auth/one-time-tokens.ts';
import { invitationMail } from '../mail/mail-templates.ts';
import type { Mailer } from '#server/util/mailer.ts';
import {
  archivedEntry,
  assertVersion,
  duplicateEntry,
  isUniqueViolation,
  notFound,
} from './records.ts';
import { checkFacilityRoles, replaceFacilityRoles } from './user-access.ts';
import {
  assertMayActOn,
  assertMayGrant,
  isSystemAdmin,
  PrivilegeRefusal,
  withRefusalsAudited,
} from './user-privileges.ts';
import { facilityRolesOf, findUser, toUser, type UserAdminRow } from './users-admin.repo.ts';

const DOMAIN = 'User';

/** A user of the plan, as the one versioned UPDATE (updateVersioned) finds it. */
const userTarget = (scope: { planId: number }, id: number) => ({
  table: 'users',
  ownerColumn: 'plan_id',
  ownerId: scope.planId,
  id,
});

/** Who acts and in which plan: every command is scoped to the administrator's own plan. */
export interface AdminScope {
  actor: Actor;
  planId: number;
  /** The signed-in administrator, who may not lock, block or archive themself. */
  selfId: number;
}

function fieldError(property: string, message: string): AppError {
  return validationError([{ property, constraints: { invalid: message } }]);
}

function assertUsernameAllowed(username: string): void {
  if (isReservedUsername(username)) {
    throw fieldError('username', `The username '${username}' is reserved for system accounts`);
  }
}

/** Usernames and e-mails are unique across all users, archived ones included (21 CFR 11.100(a)). */
async function assertUnique(
  q: Queryable,
  values: { username?: string | undefined; email?: string | null | undefined },
  exceptId: number | null,
): Promise<void> {
  const username = values.username ?? null;
  const email = values.email ?? null;
  if (username === null && email === null) return;
  const clashes = await q.query<{ by_username: boolean; archived: boolean }>(
    `select ($1::text is not null and lower(username) = lower($1)) as by_username,
            archived_at is not null as archived
       from users
      where (($1::text is not null and lower(username) = lower($1))
          or ($2::text is not null and lower(email) = lower($2)))
        and ($3::int is null or id <> $3)`,
    [username, email, exceptId],
  );
  const clash = clashes.find((c) => c.by_username) ?? clashes[0];
  if (!clash) return;
  const property = clash.by_username ? 'username' : 'email';
  if (clash.archived) throw archivedEntry(property);
  throw duplicateEntry(
    property,
    clash.by_username
      ? 'A user with this Employee ID already exists'
      : 'A user with this e-mail already exists',
  );
}

/** When the plan lists allowed e-mail domains, an address must be in one of them. */
async function assertAllowedDomain(q: Queryable, planId: number, email: string): Promise<void> {
  const [row] = await q.query<{ allowed_domains: string[] | null }>(
    'select allowed_domains from plan_settings where plan_id = $1',
    [planId],
  );
  const allowed = (row?.allowed_domains ?? [])
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  if (allowed.length === 0) return;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!allowed.includes(domain)) {
    throw fieldError(
      'email',
      `E-mail addresses must belong to an allowed domain: ${allowed.join(', ')}`,
    );
  }
}

async function assertDepartment(
  q: Queryable,
  planId: number,
  departmentId: number | null | undefined,
): Promise<void> {
  if (departmentId === null || departmentId === undefined) return;
  const [row] = await q.query(
    'select id from departments where id = $1 and plan_id = $2 and archived_at is null',
    [departmentId, planId],
  );
  if (!row) throw fieldError('departmentId', 'Choose a department of this plan');
}

async function endSessions(q: Queryable, userId: number): Promise<number> {
  const ended = await q.query(
    `update sessions set ended_at = now(), end_reason = 'revoked'
      where user_id = $1 and ended_at is null returning id`,
    [userId],
  );
  return ended.length;
}

/**
 * The user acted on, held for the rest of the transaction, once it is clear the administrator may
 * act on them at all (see assertMayActOn).
 */
async function lockedUser(
  q: Queryable,
  scope: AdminScope,
  userId: number,
  attempted: string,
): Promise<UserAdminRow> {
  const row = await findUser(q, scope.planId, userId, { lock: true });
  if (!row) throw notFound('The user');
  await assertMayActOn(q, {
    planId: scope.planId,
    actorId: scope.selfId,
    targetId: userId,
    attempted,
  });
  return row;
}

/** A command on users whose privilege refusals are audited (they roll back with the command). */
function guarded<T>(db: Db, scope: AdminScope, run: () => Promise<T>): Promise<T> {
  return withRefusalsAudited(db, scope.actor, run);
}

async function reload(q: Queryable, scope: AdminScope, userId: number): Promise<TUser> {
  const row = await findUser(q, scope.planId, userId);
  if (!row) throw notFound('The user');
  return toUser(row);
}

function grantsOf(row: UserAdminRow) {
  return facilityRolesOf(row.grants).map(({ facilityId, roleIds }) => ({ facilityId, roleIds }));
}

function fullName(row: { first_name: string; last_name: string }): string {
  return `${row.first_name} ${row.last_name}`;
}

/** Sends the set-password link of an invitation, valid 24 hours, inside the transaction. */
async function invite(
  tx: Queryable,
  mailer: Mailer,
  planId: number,
  user: { id: number; email: string; name: string; username: string },
  baseUrl: string,
): Promise<void> {
  const token = await issueOneTimeToken(tx, user.id, 'reset', RESET_LINK_HOURS);
  await mailer.enqueue(
    tx,
    planId,
    user.email,
    invitationMail(user.name, user.username, baseUrl + resetPath(user.id, token)),
  );
}

/**
 * The facilities and roles a new account (a user or a service account) is given, checked against
 * the plan's roles and against what the administrator may grant.
 */
export async function grantsOfNewAccount(
  tx: Queryable,
  scope: AdminScope,
  facilityRoles: readonly TFacilityRoles[],
): Promise<{ facilityId: number; roleIds: number[] }[]> {
  const grants = await checkFacilityRoles(tx, scope.planId, facilityRoles);
  await assertMayGrant(tx, {
    planId: scope.planId,
    actorId: scope.selfId,
    targetId: null,
    attempted: 'Create',
    before: [],
    after: grants,
  });
  return grants;
}

export async function getUser(db: Db, scope: AdminScope, userId: number): Promise<TUser> {
  return reload(db, scope, userId);
}

export async function createUser(
  db: Db,
  mailer: Mailer,
  scope: AdminScope,
  input: TCreateUserRequest,
  baseUrl: string,
): Promise<TUserWithKey> {
  assertUsernameAllowed(input.username);
  const email = input.email ?? null;
  let result: TUserWithKey;
  try {
    result = await guarded(db, scope, () =>
      db.transaction(async (tx) => {
        await assertUnique(tx, { username: input.username, email }, null);
        if (email) await assertAllowedDomain(tx, scope.planId, email);
        await assertDepartment(tx, scope.planId, input.departmentId);
        const grants = await grantsOfNewAccount(tx, scope, input.facilityRoles);
        const [created] = await tx.query<{ id: number }>(
          `insert into users (plan_id, first_name, last_name, username, email, department_id,
                            auth_type, created_by, updated_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id`,
          [
            scope.planId,
            input.firstName,
            input.lastName,
            input.username,
            email,
            input.departmentId ?? null,
            input.authType,
            scope.actor.userId,
          ],
        );
        const id = created!.id;
        await replaceFacilityRoles(tx, id, grants);
        const local = input.authType === 'local';
        let secretKey: string | null = null;
        if (!local) {
          // The directory or the provider proves who they are: there is no password to set.
        } else if (email) {
          const name = `${input.firstName} ${input.lastName}`;
          await invite(
            tx,
            mailer,
            scope.planId,
            { id, email, name, username: input.username },
            baseUrl,
          );
        } else {
          secretKey = await issueOneTimeToken(tx, id, 'secret', null);
        }
        await writeAudit(tx, scope.actor, {
          planId: scope.planId,
          domain: DOMAIN,
          action: 'Create',
          entityId: id,
          newValues: {
            firstName: input.firstName,
            lastName: input.lastName,
            username: input.username,
            email,
            departmentId: input.departmentId ?? null,
            facilityRoles: grants,
            authType: input.authType,
            // The key itself is never recorded: only that one was issued.
            invitation: !local ? 'none' : email ? 'mail' : 'secretKey',
          },
        });
        return {
          user: await reload(tx, scope, id),
          secretKey,
          invitationSent: local && email !== null,
        };
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEntry('username', 'This user already exists');
    throw error;
  }
  if (result.invitationSent) await mailer.deliverPending();
  return result;
}

export async function updateUser(
  db: Db,
  scope: AdminScope,
  userId: number,
  input: TUpdateUserRequest,
): Promise<TUser> {
  if (input.unArchive) return unarchiveUser(db, scope, userId, input.reason, input.version);
  try {
    return await guarded(db, scope, () =>
      db.transaction(async (tx) => {
        const row = await lockedUser(tx, scope, userId, 'Update');
        if (row.archived_at !== null) throw archivedEntry('id');
        assertVersion(row.version, input.version);
        const before = {
          firstName: row.first_name,
          lastName: row.last_name,
          username: row.username,
          email: row.email,
          departmentId: row.department_id,
          facilityRoles: grantsOf(row),
          authType: row.auth_type,
        };
        const grants =
          input.facilityRoles === undefined
            ? undefined
            : await checkFacilityRoles(tx, scope.planId, input.facilityRoles);
        const { oldValues, newValues } = changedFields(before, {
          firstName: input.firstName,
          lastName: input.lastName,
          username: input.username,
          email: input.email,
          departmentId: input.departmentId,
          facilityRoles: grants,
          authType: input.authType,
        });
        if (grants && 'facilityRoles' in newValues) {
          await assertMayGrant(tx, {
            planId: scope.planId,
            actorId: scope.selfId,
            targetId: userId,
            attempted: 'Update',
            before: before.facilityRoles,
            after: grants,
          });
        }
        if ('email' in newValues && userId !== scope.selfId) {
          await assertPendingOrSystemAdmin(tx, scope, row, {
            attempted: 'Update',
            why: 'only a system administrator changes the e-mail of an account that has set its password',
          });
        }
        if ('authType' in newValues) await assertMayChangeAuthType(tx, scope, row);
        if ('username' in newValues) assertUsernameAllowed(String(newValues.username));
        await assertUnique(
          tx,
          {
            username: 'username' in newValues ? input.username : undefined,
            email: 'email' in newValues ? input.email : undefined,
          },
          userId,
        );
        if (input.email && 'email' in newValues) {
          await assertAllowedDomain(tx, scope.planId, input.email);
        }
        if ('departmentId' in newValues) {
          await assertDepartment(tx, scope.planId, input.departmentId);
        }
        await updateVersioned(
          tx,
          { ...userTarget(scope, userId), version: row.version },
          scope.actor.userId,
          {
            first_name: input.firstName ?? row.first_name,
            last_name: input.lastName ?? row.last_name,
            username: input.username ?? row.username,
            email: input.email === undefined ? row.email : input.email,
            department_id:
              input.departmentId === undefined ? row.department_id : input.departmentId,
            auth_type: input.authType ?? row.auth_type,
          },
        );
        if ('authType' in newValues) await forgetLocalPassword(tx, userId);
        if (grants && 'facilityRoles' in newValues) await replaceFacilityRoles(tx, userId, grants);
        if ('email' in newValues) {
          // A link mailed to the old address must not work after the address changed.
          await tx.query(
            `update one_time_tokens set used_at = now()
            where user_id = $1 and kind = 'reset' and used_at is null`,
            [userId],
          );
        }
        await writeAudit(tx, scope.actor, {
          planId: scope.planId,
          domain: DOMAIN,
          action: 'Update',
          entityId: userId,
          reason: input.reason,
          oldValues,
          newValues,
        });
        return reload(tx, scope, userId);
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEntry('username', 'This user already exists');
    throw error;
  }
}

async function unarchiveUser(
  db: Db,
  scope: AdminScope,
  userId: number,
  reason: string,
  version: number | undefined,
): Promise<TUser> {
  return guarded(db, scope, () =>
    db.transaction(async (tx) => {
      const row = await lockedUser(tx, scope, userId, 'Unarchive');
      assertVersion(row.version, version);
      if (row.archived_at === null) throw new AppError('NothingToChangeError');
      await updateVersioned(tx, userTarget(scope, userId), scope.actor.userId, {
        archived_at: null,
        archived_by: null,
        archive_reason: null,
      });
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Unarchive',
        entityId: userId,
        reason,
        oldValues: { archived: true },
        newValues: { archived: false },
      });
      return reload(tx, scope, userId);
    }),
  );
}

function assertNotSelf(scope: AdminScope, userId: number, what: string): void {
  if (scope.selfId === userId) throw fieldError('id', `You cannot ${what} your own account`);
}

export async function archiveUser(
  db: Db,
  scope: AdminScope,
  userId: number,
  input: { reason: string; force_delete: boolean },
): Promise<TUser> {
  assertNotSelf(scope, userId, 'archive');
  return guarded(db, scope, () =>
    db.transaction(async (tx) => {
      const row = await lockedUser(tx, scope, userId, 'Archive');
      if (row.archived_at !== null) throw new AppError('NothingToChangeError');
      await updateVersioned(tx, userTarget(scope, userId), scope.actor.userId, {
        archived_at: NOW,
        archived_by: scope.actor.userId,
        archive_reason: input.reason,
      });
      const sessionsEnded = await endSessions(tx, userId);
      // Links and keys handed out before must not open an archived account.
      await tx.query(
        'update one_time_tokens set used_at = now() where user_id = $1 and used_at is null',
        [userId],
      );
      const oldValues: Record<string, unknown> = { archived: false };
      const newValues: Record<string, unknown> = { archived: true, sessionsEnded };
      if (input.force_delete) {
        oldValues.facilityRoles = grantsOf(row);
        newValues.facilityRoles = [];
        await replaceFacilityRoles(tx, userId, []);
      }
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Archive',
        entityId: userId,
        reason: input.reason,
        oldValues,
        newValues,
      });
      return reload(tx, scope, userId);
    }),
  );
}

export type AccountAction = 'Lock' | 'Unlock' | 'Block' | 'Unblock' | 'Enable';

interface AccountState {
  isLocked: boolean;
  isBlocked: boolean;
}

/** What each action makes of the account; undefined leaves that part as it is. */
const TARGET: Record<AccountAction, Partial<AccountState>> = {
  Lock: { isLocked: true },
  Unlock: { isLocked: false },
  Block: { isBlocked: true },
  Unblock: { isBlocked: false },
  Enable: { isLocked: false, isBlocked: false },
};

/**
 * Lock and block both keep a user out; a lock is the sign-in lockout (also set by failed
 * attempts) that unlock or its lock period lifts, a block stays until an administrator lifts it.
 * Enable lifts both. Locking or blocking ends the user's sessions.
 */
export async function setAccountState(
  db: Db,
  scope: AdminScope,
  userId: number,
  action: AccountAction,
  reason: string,
): Promise<TUser> {
  if (action === 'Lock' || action === 'Block') assertNotSelf(scope, userId, action.toLowerCase());
  return guarded(db, scope, () =>
    db.transaction(async (tx) => {
      const row = await lockedUser(tx, scope, userId, action);
      if (row.archived_at !== null) throw archivedEntry('id');
      const { oldValues, newValues } = changedFields(
        { isLocked: row.is_locked, isBlocked: row.is_blocked },
        TARGET[action],
      );
      const target = { isLocked: row.is_locked, isBlocked: row.is_blocked, ...TARGET[action] };
      const lockChange =
        TARGET[action].isLocked === undefined
          ? 'keep'
          : TARGET[action].isLocked
            ? 'lock'
            : 'unlock';
      // A lock by an administrator has no end ('infinity'); an unlock also clears the count of
      // failed sign-ins, so the next wrong password does not lock the account again at once.
      const lockColumns: Record<string, Assigned> =
        lockChange === 'keep'
          ? {}
          : lockChange === 'lock'
            ? { locked_until: 'infinity' }
            : { locked_until: null, failed_attempts: 0 };
      await updateVersioned(tx, userTarget(scope, userId), scope.actor.userId, {
        is_blocked: target.isBlocked,
        ...lockColumns,
      });
      if (target.isLocked || target.isBlocked)
        newValues.sessionsEnded = await endSessions(tx, userId);
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action,
        entityId: userId,
        reason,
        oldValues,
        newValues,
      });
      return reload(tx, scope, userId);
    }),
  );
}

/** A fresh invitation mail, or with generateKey a fresh secret key (the old one stops working). */
export async function resendInvitation(
  db: Db,
  mailer: Mailer,
  scope: AdminScope,
  userId: number,
  input: { reason: string; generateKey: boolean },
  baseUrl: string,
): Promise<TUserWithKey> {
  const attempted = input.generateKey ? 'SecretKeyIssued' : 'InvitationSent';
  const result = await guarded(db, scope, () =>
    db.transaction(async (tx) => {
      const row = await lockedUser(tx, scope, userId, attempted);
      if (row.archived_at !== null) throw archivedEntry('id');
      if (row.auth_type !== 'local') {
        throw fieldError('authType', 'This user signs in without a password here: no invitation');
      }
      let secretKey: string | null = null;
      if (input.generateKey) {
        await assertPendingOrSystemAdmin(tx, scope, row, {
          attempted,
          why: 'only a system administrator issues a secret key for an account that has set its password',
        });
        secretKey = await issueOneTimeToken(tx, userId, 'secret', null);
      } else {
        if (!row.email) {
          throw fieldError(
            'email',
            'This user has no e-mail address: generate a secret key for them instead',
          );
        }
        await invite(
          tx,
          mailer,
          scope.planId,
          { id: userId, email: row.email, name: fullName(row), username: row.username },
          baseUrl,
        );
      }
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: attempted,
        entityId: userId,
        reason: input.reason,
        newValues: input.generateKey ? { secretKeyIssued: true } : { invitationSentTo: row.email },
      });
      return {
        user: await reload(tx, scope, userId),
        secretKey,
        invitationSent: !input.generateKey,
      };
    }),
  );
  if (result.invitationSent) await mailer.deliverPending();
  return result;
}

/**
 * A secret key, or a new e-mail address, opens the account to whoever holds it (register or a
 * reset link, then a password of their choosing). For an account that has already set its
 * password only a system administrator may do either; a pending invitation is anyone's to fix.
 */
/**
 * How an account proves who it is decides who can be it: only a system administrator changes
 * it on an account in use, and nobody on their own account.
 */
async function assertMayChangeAuthType(q: Queryable, scope: AdminScope, row: UserAdminRow) {
  if (row.id === scope.selfId) {
    throw fieldError('authType', 'You cannot change how you sign in yourself');
  }
  await assertPendingOrSystemAdmin(q, scope, row, {
    attempted: 'Update',
    why: 'only a system administrator changes how an account in use signs in',
  });
}

/**
 * A change of auth type drops the local password, its pending links and secret keys, the
 * provider identities linked to it, and the open sessions: switching back to local starts with
 * a fresh invitation, not an old password, and back to single sign-on with a fresh link.
 */
async function forgetLocalPassword(q: Queryable, userId: number): Promise<void> {
  await q.query(
    `update users set password_hash = null, failed_attempts = 0, locked_until = null
      where id = $1`,
    [userId],
  );
  await q.query(
    `update one_time_tokens set used_at = now() where user_id = $1 and used_at is null`,
    [userId],
  );
  await q.query('delete from sso_identities where user_id = $1', [userId]);
  await endSessions(q, userId);
}

async function assertPendingOrSystemAdmin(
  q: Queryable,
  scope: AdminScope,
  row: UserAdminRow,
  refusal: { attempted: string; why: string },
): Promise<void> {
  if (!row.is_registered || (await isSystemAdmin(q, scope.selfId))) return;
  throw new PrivilegeRefusal({
    planId: scope.planId,
    domain: DOMAIN,
    entityId: row.id,
    ...refusal,
  });
}

export async function cancelSecretKey(
  db: Db,
  scope: AdminScope,
  userId: number,
  reason: string,
): Promise<TUser> {
  return guarded(db, scope, () =>
    db.transaction(async (tx) => {
      await lockedUser(tx, scope, userId, 'SecretKeyCancelled');
      const cancelled = await tx.query(
        `update one_time_tokens set used_at = now()
        where user_id = $1 and kind = 'secret' and used_at is null and expires_at > now()
        returning id`,
        [userId],
      );
      if (cancelled.length === 0) throw new AppError('NothingToChangeError');
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'SecretKeyCancelled',
        entityId: userId,
        reason,
        oldValues: { hasSecretKey: true },
        newValues: { hasSecretKey: false },
      });
      return reload(tx, scope, userId);
    }),
  );
}
