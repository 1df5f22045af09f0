import { randomUUID } from 'node:crypto';
import { NOW, updateVersioned } from '#server/entities/versioned-update.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type {
  TApiToken,
  TCreateServiceAccountRequest,
  TIssuedToken,
  TIssueTokenRequest,
  TServiceAccount,
  TUpdateServiceAccountRequest,
} from '#core/schemas/service-accounts.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { hashToken, randomToken } from '#server/util/secrets.ts';
import { archivedEntry, assertVersion, duplicateEntry, iso, notFound } from './records.ts';
import { checkFacilityRoles, replaceFacilityRoles } from './user-access.ts';
import { assertMayGrant, withRefusalsAudited } from './user-privileges.ts';
import { facilityRolesOf, GRANT_ROWS, type GrantRow } from './users-admin.repo.ts';
import { grantsOfNewAccount, type AdminScope } from './users-admin.service.ts';

/*
 * Service accounts (issue 33): rows of users marked by their owner, so that roles, permissions
 * and audit attribution are a person's. Accounts and tokens are administered with the User
 * rights (Add to create and issue, Modify to edit and revoke, Archive to archive), by a person:
 * a service account never administers accounts or tokens, its own or another's.
 */

const DOMAIN = 'ServiceAccount';
/** What a service account's last name holds, so that every list naming users shows what it is. */
const LAST_NAME = '(service account)';

export interface AccountScope extends AdminScope {
  /** Set when the caller is itself a service account. */
  isServiceAccount: boolean;
}

interface AccountRow {
  id: number;
  first_name: string;
  description: string | null;
  owner_id: number;
  owner_name: string;
  version: number;
  created_at: Date | string;
  archived_at: Date | string | null;
  active_tokens: number;
  last_used_at: Date | string | null;
  grants: GrantRow[];
}

const ACCOUNT_COLUMNS = `u.id, u.first_name, u.service_account_description as description,
  u.owner_id, o.first_name || ' ' || o.last_name as owner_name, u.version, u.created_at,
  u.archived_at,
  (select count(*)::int from api_tokens t
    where t.user_id = u.id and t.revoked_at is null and t.expires_at > now()) as active_tokens,
  (select max(t.last_used_at) from api_tokens t where t.user_id = u.id) as last_used_at,
  ${GRANT_ROWS}`;
const ACCOUNT_FROM = 'users u join users o on o.id = u.owner_id';

function toAccount(row: AccountRow): TServiceAccount {
  return {
    id: row.id,
    name: row.first_name,
    description: row.description,
    owner: { id: row.owner_id, name: row.owner_name },
    facilityRoles: facilityRolesOf(row.grants),
    roles: row.grants.map((g) => ({ id: g.roleId, name: g.roleName, facilityId: g.facilityId })),
    activeTokens: row.active_tokens,
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
    version: row.version,
    createdAt: iso(row.created_at),
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
  };
}

function assertPerson(scope: AccountScope, attempted: string): void {
  if (scope.isServiceAccount) {
    throw new AppError(
      'NotAllowed',
      `ServiceAccount ${attempted} failed as current user is not allowed: a service account does not administer service accounts`,
    );
  }
}

async function findAccount(
  q: Queryable,
  planId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<AccountRow> {
  if (options.lock) {
    await q.query(
      'select id from users where id = $1 and plan_id = $2 and owner_id is not null for update',
      [id, planId],
    );
  }
  const [row] = await q.query<AccountRow>(
    `select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM} where u.id = $1 and u.plan_id = $2`,
    [id, planId],
  );
  if (!row) throw notFound('The service account');
  return row;
}

export async function listAccounts(
  db: Db,
  scope: AccountScope,
  archived: boolean,
): Promise<TServiceAccount[]> {
  const rows = await db.query<AccountRow>(
    `select ${ACCOUNT_COLUMNS} from ${ACCOUNT_FROM}
      where u.plan_id = $1 and (u.archived_at is not null) = $2
      order by lower(u.first_name), u.id`,
    [scope.planId, archived],
  );
  return rows.map(toAccount);
}

export async function getAccount(
  db: Db,
  scope: AccountScope,
  id: number,
): Promise<TServiceAccount> {
  return toAccount(await findAccount(db, scope.planId, id));
}

/** The owner answers for the account: an active person of the plan, never another account. */
async function assertOwner(q: Queryable, planId: number, ownerId: number): Promise<void> {
  const [row] = await q.query(
    `select id from users where id = $1 and plan_id = $2 and owner_id is null
        and archived_at is null and not is_blocked`,
    [ownerId, planId],
  );
  if (!row) {
    throw validationError([
      { property: 'ownerId', constraints: { exists: 'Choose an active user of this plan' } },
    ]);
  }
}

/** Names are unique among the plan's service accounts, archived ones included. */
async function assertNameFree(
  q: Queryable,
  planId: number,
  name: string,
  exceptId: number | null,
): Promise<void> {
  const [clash] = await q.query<{ archived: boolean }>(
    `select archived_at is not null as archived from users
      where plan_id = $1 and owner_id is not null and lower(first_name) = lower($2)
        and ($3::int is null or id <> $3)`,
    [planId, name, exceptId],
  );
  if (!clash) return;
  if (clash.archived) throw archivedEntry('name');
  throw duplicateEntry('name', 'A service account with this name already exists');
}

export async function createAccount(
  db: Db,
  scope: AccountScope,
  input: TCreateServiceAccountRequest,
): Promise<TServiceAccount> {
  assertPerson(scope, 'Create');
  return withRefusalsAudited(db, scope.actor, () =>
    db.transaction(async (tx) => {
      await assertNameFree(tx, scope.planId, input.name, null);
      await assertOwner(tx, scope.planId, input.ownerId);
      const grants = await grantsOfNewAccount(tx, scope, input.facilityRoles);
      // The username is never typed: a service account does not sign in.
      const [created] = await tx.query<{ id: number }>(
        `insert into users (plan_id, first_name, last_name, username, auth_type,
                            must_change_password, owner_id, service_account_description,
                            created_by, updated_by)
         values ($1, $2, $3, $4, 'local', false, $5, $6, $7, $7) returning id`,
        [
          scope.planId,
          input.name,
          LAST_NAME,
          `service-account-${randomUUID()}`,
          input.ownerId,
          input.description ?? null,
          scope.actor.userId,
        ],
      );
      const id = created!.id;
      await replaceFacilityRoles(tx, id, grants);
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Create',
        entityId: id,
        newValues: {
          name: input.name,
          description: input.description ?? null,
          ownerId: input.ownerId,
          facilityRoles: grants,
        },
      });
      return toAccount(await findAccount(tx, scope.planId, id));
    }),
  );
}

function grantsOf(row: AccountRow) {
  return facilityRolesOf(row.grants).map(({ facilityId, roleIds }) => ({ facilityId, roleIds }));
}

/** An account is a row of users, scoped by its plan: changed through the one versioned update. */
const accountTarget = (planId: number, id: number) => ({
  table: 'users',
  ownerColumn: 'plan_id',
  ownerId: planId,
  id,
});

export async function updateAccount(
  db: Db,
  scope: AccountScope,
  id: number,
  input: TUpdateServiceAccountRequest,
): Promise<TServiceAccount> {
  assertPerson(scope, 'Update');
  return withRefusalsAudited(db, scope.actor, () =>
    db.transaction(async (tx) => {
      const row = await findAccount(tx, scope.planId, id, { lock: true });
      if (row.archived_at !== null) throw archivedEntry('id');
      assertVersion(row.version, input.version);
      const before = {
        name: row.first_name,
        description: row.description,
        ownerId: row.owner_id,
        facilityRoles: grantsOf(row),
      };
      const after = {
        name: input.name ?? before.name,
        description: input.description === undefined ? before.description : input.description,
        ownerId: input.ownerId ?? before.ownerId,
        facilityRoles:
          input.facilityRoles === undefined
            ? before.facilityRoles
            : await checkFacilityRoles(tx, scope.planId, input.facilityRoles),
      };
      if (after.name !== before.name) await assertNameFree(tx, scope.planId, after.name, id);
      if (after.ownerId !== before.ownerId) await assertOwner(tx, scope.planId, after.ownerId);
      await assertMayGrant(tx, {
        planId: scope.planId,
        actorId: scope.selfId,
        targetId: id,
        attempted: 'Update',
        before: before.facilityRoles,
        after: after.facilityRoles,
      });
      const diff = changedFields(before, after);
      await updateVersioned(
        tx,
        { ...accountTarget(scope.planId, id), version: input.version },
        scope.actor.userId,
        {
          first_name: after.name,
          service_account_description: after.description,
          owner_id: after.ownerId,
        },
      );
      if (input.facilityRoles !== undefined)
        await replaceFacilityRoles(tx, id, after.facilityRoles);
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Update',
        entityId: id,
        reason: input.reason,
        oldValues: diff.oldValues,
        newValues: diff.newValues,
      });
      return toAccount(await findAccount(tx, scope.planId, id));
    }),
  );
}

/** Archiving revokes every token of the account; the account and its tokens stay listed. */
export async function archiveAccount(
  db: Db,
  scope: AccountScope,
  id: number,
  reason: string,
): Promise<TServiceAccount> {
  assertPerson(scope, 'Archive');
  return db.transaction(async (tx) => {
    const row = await findAccount(tx, scope.planId, id, { lock: true });
    if (row.archived_at !== null) throw archivedEntry('id');
    const revoked = await tx.query<{ id: number }>(
      `update api_tokens set revoked_at = now(), revoked_by = $2, revoke_reason = $3
        where user_id = $1 and revoked_at is null returning id`,
      [id, scope.actor.userId, reason],
    );
    await updateVersioned(tx, accountTarget(scope.planId, id), scope.actor.userId, {
      archived_at: NOW,
      archived_by: scope.actor.userId,
      archive_reason: reason,
    });
    await writeAudit(tx, scope.actor, {
      planId: scope.planId,
      domain: DOMAIN,
      action: 'Archive',
      entityId: id,
      reason,
      newValues: { name: row.first_name, tokensRevoked: revoked.map((t) => t.id) },
    });
    return toAccount(await findAccount(tx, scope.planId, id));
  });
}

interface TokenRow {
  id: number;
  name: string;
  created_at: Date | string;
  created_by_name: string | null;
  expires_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  revoked_by_name: string | null;
  revoke_reason: string | null;
  expired: boolean;
}

const TOKEN_COLUMNS = `t.id, t.name, t.created_at, c.first_name || ' ' || c.last_name as created_by_name,
  t.expires_at, t.last_used_at, t.revoked_at,
  r.first_name || ' ' || r.last_name as revoked_by_name, t.revoke_reason,
  t.expires_at <= now() as expired`;
const TOKEN_FROM = `api_tokens t left join users c on c.id = t.created_by
  left join users r on r.id = t.revoked_by`;

function toToken(row: TokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    state: row.revoked_at !== null ? 'revoked' : row.expired ? 'expired' : 'active',
    createdAt: iso(row.created_at),
    createdBy: row.created_by_name,
    expiresAt: iso(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
    revokedBy: row.revoked_by_name,
    revokeReason: row.revoke_reason,
  };
}

async function findToken(q: Queryable, accountId: number, tokenId: number): Promise<TokenRow> {
  const [row] = await q.query<TokenRow>(
    `select ${TOKEN_COLUMNS} from ${TOKEN_FROM} where t.id = $1 and t.user_id = $2`,
    [tokenId, accountId],
  );
  if (!row) throw notFound('The token');
  return row;
}

/** The account's tokens, newest first; a token's value is never among what is read back. */
export async function listTokens(
  db: Db,
  scope: AccountScope,
  accountId: number,
): Promise<TApiToken[]> {
  await findAccount(db, scope.planId, accountId);
  const rows = await db.query<TokenRow>(
    `select ${TOKEN_COLUMNS} from ${TOKEN_FROM} where t.user_id = $1 order by t.id desc`,
    [accountId],
  );
  return rows.map(toToken);
}

/** Issues a token, answered once; only its hash is kept (21 CFR 11.300: codes are controlled). */
export async function issueToken(
  db: Db,
  scope: AccountScope,
  accountId: number,
  input: TIssueTokenRequest,
): Promise<TIssuedToken> {
  assertPerson(scope, 'TokenIssued');
  return db.transaction(async (tx) => {
    const account = await findAccount(tx, scope.planId, accountId, { lock: true });
    if (account.archived_at !== null) throw archivedEntry('id');
    const token = `co_${randomToken()}`;
    const [created] = await tx.query<{ id: number }>(
      `insert into api_tokens (user_id, name, token_hash, expires_at, created_by)
       values ($1, $2, $3, now() + make_interval(days => $4), $5) returning id`,
      [accountId, input.name, hashToken(token), input.expiresInDays, scope.actor.userId],
    );
    const apiToken = toToken(await findToken(tx, accountId, created!.id));
    await writeAudit(tx, scope.actor, {
      planId: scope.planId,
      domain: DOMAIN,
      action: 'TokenIssued',
      entityId: accountId,
      // The token itself is never recorded: only which one was issued and until when.
      newValues: { tokenId: apiToken.id, name: apiToken.name, expiresAt: apiToken.expiresAt },
    });
    return { token, apiToken };
  });
}

export async function revokeToken(
  db: Db,
  scope: AccountScope,
  accountId: number,
  tokenId: number,
  reason: string,
): Promise<TApiToken> {
  assertPerson(scope, 'TokenRevoked');
  return db.transaction(async (tx) => {
    await findAccount(tx, scope.planId, accountId);
    const [revoked] = await tx.query<{ id: number }>(
      `update api_tokens set revoked_at = now(), revoked_by = $3, revoke_reason = $4
        where id = $1 and user_id = $2 and revoked_at is null returning id`,
      [tokenId, accountId, scope.actor.userId, reason],
    );
    const row = await findToken(tx, accountId, tokenId);
    if (!revoked) throw new AppError('NothingToChangeError', 'This token is already revoked');
    await writeAudit(tx, scope.actor, {
      planId: scope.planId,
      domain: DOMAIN,
      action: 'TokenRevoked',
      entityId: accountId,
      reason,
      newValues: { tokenId, name: row.name },
    });
    return toToken(row);
  });
}
