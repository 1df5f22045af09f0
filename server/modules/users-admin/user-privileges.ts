import { rightText } from '#core/permissions/permission-texts.ts';
import { AppError } from '#core/errors/errors.ts';
import {
  emptyPermissionMap,
  isAllowed,
  mergePermissionMaps,
  missingPermissions,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import type { Db, Queryable, RecordedAfterRollback } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { writeRefusal } from '#server/http/refusal-audit.ts';

interface RefusalDetails {
  planId: number;
  /** The audit domain of what was attempted: User or UserRole. */
  domain: 'User' | 'UserRole';
  entityId: number | null;
  facilityId?: number | undefined;
  /** What was attempted, e.g. 'Update', 'Block', 'SecretKeyIssued'. */
  attempted: string;
  why: string;
  missing?: string[] | undefined;
}

/**
 * A refusal to widen someone's access or to act on a more privileged account: 403 NotAllowed,
 * and an audit row written after the refused transaction rolled back (see withRefusalsAudited).
 */
export class PrivilegeRefusal extends AppError implements RecordedAfterRollback {
  /** Who attempted it; set by withRefusalsAudited. */
  actor: Actor | undefined;

  constructor(readonly details: RefusalDetails) {
    super(
      'NotAllowed',
      // The reason in words (issue 30): what was attempted is kept in the audit row.
      `Not allowed: ${details.why}`,
    );
  }

  async recordAfterRollback(db: Db): Promise<void> {
    if (!this.actor) return;
    const { planId, domain, entityId, facilityId, attempted, why, missing } = this.details;
    await writeRefusal(db, this.actor, {
      planId,
      facilityId: facilityId ?? null,
      domain,
      action: 'AccessRefused',
      entityId,
      values: { attempted, why, ...(missing ? { missing } : {}) },
    });
  }
}

/**
 * Runs a command; when it is refused for privileges, records the refusal, then answers 403.
 * Inside a transaction someone else owns (an idempotent create), that owner records it once
 * its transaction has rolled back.
 */
export async function withRefusalsAudited<T>(
  db: Db,
  actor: Actor,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PrivilegeRefusal) {
      error.actor = actor;
      if (!db.joinsTransaction) await error.recordAfterRollback(db);
    }
    throw error;
  }
}

export interface Privileges {
  isSystemAdmin: boolean;
  /** The merged permission map of the user's active roles, per facility granted. */
  byFacility: Map<number, PermissionMap>;
}

export async function isSystemAdmin(q: Queryable, userId: number): Promise<boolean> {
  const [user] = await q.query<{ is_system_admin: boolean }>(
    'select is_system_admin from users where id = $1',
    [userId],
  );
  return user?.is_system_admin === true;
}

export async function privilegesOf(q: Queryable, userId: number): Promise<Privileges> {
  const rows = await q.query<{ facility_id: number; permissions: PermissionMap }>(
    `select ufr.facility_id, r.permissions from user_facility_roles ufr
       join roles r on r.id = ufr.role_id and r.archived_at is null
      where ufr.user_id = $1`,
    [userId],
  );
  const maps = new Map<number, PermissionMap[]>();
  for (const row of rows)
    maps.set(row.facility_id, [...(maps.get(row.facility_id) ?? []), row.permissions]);
  return {
    isSystemAdmin: await isSystemAdmin(q, userId),
    byFacility: new Map(
      [...maps].map(([facilityId, list]) => [facilityId, mergePermissionMaps(list)]),
    ),
  };
}

function inFacility(privileges: Privileges, facilityId: number): PermissionMap {
  return privileges.byFacility.get(facilityId) ?? emptyPermissionMap();
}

interface ActOn {
  planId: number;
  actorId: number;
  targetId: number;
  attempted: string;
}

/**
 * Only a system administrator acts on a system administrator, or on an account that holds, in
 * some facility, a permission the actor does not hold in that same facility: otherwise anyone
 * with User Modify could take over a stronger account (issue 8).
 */
export async function assertMayActOn(q: Queryable, act: ActOn): Promise<Privileges> {
  const actor = await privilegesOf(q, act.actorId);
  if (actor.isSystemAdmin) return actor;
  const base = {
    planId: act.planId,
    domain: 'User' as const,
    entityId: act.targetId,
    attempted: act.attempted,
  };
  const target = await privilegesOf(q, act.targetId);
  if (target.isSystemAdmin) {
    throw new PrivilegeRefusal({ ...base, why: 'the account is a system administrator' });
  }
  for (const [facilityId, map] of target.byFacility) {
    const missing = missingPermissions(inFacility(actor, facilityId), map);
    if (missing.length > 0) {
      throw new PrivilegeRefusal({
        ...base,
        facilityId,
        missing,
        why: 'the account holds permissions the current user lacks',
      });
    }
  }
  return actor;
}

type Grants = readonly { facilityId: number; roleIds: readonly number[] }[];

/**
 * Changing who holds which role in a facility needs User Modify in that facility, and a role
 * given must allow nothing its giver does not hold there. Nobody changes their own grants.
 */
export async function assertMayGrant(
  q: Queryable,
  act: Omit<ActOn, 'targetId'> & { targetId: number | null; before: Grants; after: Grants },
): Promise<void> {
  const base = {
    planId: act.planId,
    domain: 'User' as const,
    entityId: act.targetId,
    attempted: act.attempted,
  };
  const rolesIn = (grants: Grants, facilityId: number) =>
    new Set(grants.find((g) => g.facilityId === facilityId)?.roleIds ?? []);
  const facilities = new Set([...act.before, ...act.after].map((g) => g.facilityId));
  const changed = [...facilities].filter((facilityId) => {
    const before = rolesIn(act.before, facilityId);
    const after = rolesIn(act.after, facilityId);
    return before.size !== after.size || [...after].some((id) => !before.has(id));
  });
  if (changed.length === 0) return;
  if (act.actorId === act.targetId) {
    throw new PrivilegeRefusal({ ...base, why: 'nobody may change their own facilities or roles' });
  }
  const actor = await privilegesOf(q, act.actorId);
  for (const facilityId of changed) {
    const held = inFacility(actor, facilityId);
    if (!isAllowed(held, 'User', 'Modify')) {
      throw new PrivilegeRefusal({
        ...base,
        facilityId,
        why: `granting roles in a facility needs ${rightText('User', 'Modify')} in that facility`,
      });
    }
    const before = rolesIn(act.before, facilityId);
    const added = [...rolesIn(act.after, facilityId)].filter((id) => !before.has(id));
    const roles = await q.query<{ permissions: PermissionMap }>(
      'select permissions from roles where id = any($1::int[])',
      [added],
    );
    const missing = missingPermissions(held, mergePermissionMaps(roles.map((r) => r.permissions)));
    if (missing.length > 0) {
      throw new PrivilegeRefusal({
        ...base,
        facilityId,
        missing,
        why: 'nobody may grant a permission they do not hold in that facility',
      });
    }
  }
}

/**
 * A role given an action gives it to everyone holding the role, its editor included: the actions a
 * role gains must be held by its editor in the role's facility. Actions it had before stay.
 */
export async function assertMayDefineRole(
  q: Queryable,
  act: {
    planId: number;
    actorId: number;
    facilityId: number;
    roleId: number | null;
    attempted: string;
  },
  permissions: { before: PermissionMap; after: PermissionMap },
): Promise<void> {
  const actor = await privilegesOf(q, act.actorId);
  const had = new Set(missingPermissions(emptyPermissionMap(), permissions.before));
  const missing = missingPermissions(inFacility(actor, act.facilityId), permissions.after).filter(
    (key) => !had.has(key),
  );
  if (missing.length === 0) return;
  throw new PrivilegeRefusal({
    planId: act.planId,
    domain: 'UserRole',
    entityId: act.roleId,
    facilityId: act.facilityId,
    attempted: act.attempted,
    missing,
    why: 'nobody may grant a permission they do not hold in that facility',
  });
}
