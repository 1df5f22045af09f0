import { AppError } from '#core/errors/errors.ts';
import { mergePermissionMaps, type PermissionMap } from '#core/permissions/permission-map.ts';
import type { Db } from '../db/db.ts';
import { hashToken } from '../util/secrets.ts';
import { SESSION_USER_COLUMNS, type SessionUserRow } from './session-user.ts';

/** A facility the user holds roles in: its plan, and the union of those roles' permissions. */
export interface FacilityGrant {
  planId: number;
  permissions: PermissionMap;
}

/** A call made with a service account's API token: the token, and the person who owns the account. */
export interface ServiceAccountCall {
  tokenId: number;
  ownerId: number;
  ownerName: string;
}

export interface ResolvedSession {
  /** The session row; a call with an API token has none (negative: it matches no session). */
  sessionId: number;
  user: SessionUserRow;
  /** By facility id: read with the session, so a permission check costs no query. */
  grants: ReadonlyMap<number, FacilityGrant>;
  /** Set when the caller is a service account with an API token (server/sessions/api-token-lookup.ts). */
  serviceAccount?: ServiceAccountCall;
}

/** A session ends after `idleMinutes` without a call, and `maxHours` after sign-in whatever the activity. */
export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

interface SessionLookupRow extends SessionUserRow {
  session_id: number;
  end_reason: string | null;
  ended: boolean;
  idle_seconds: number;
  age_seconds: number;
  usable: boolean;
  access_epoch: string;
  grants: GrantRow[];
}

/** One role a user holds in a facility, as the lookup queries aggregate them. */
export interface GrantRow {
  facilityId: number;
  planId: number;
  permissions: PermissionMap;
}

/** A resolved session and what a cache of it needs (server/http/access-cache.ts). */
export interface SessionLookup {
  session: ResolvedSession;
  /** The access_epoch the session was read at, in the same snapshot. */
  epoch: number;
  /** Seconds since the last call that kept the session alive, and since sign-in. */
  idleSeconds: number;
  ageSeconds: number;
}

export function grantsOf(rows: readonly GrantRow[]): Map<number, FacilityGrant> {
  const byFacility = new Map<number, { planId: number; maps: PermissionMap[] }>();
  for (const row of rows) {
    const entry = byFacility.get(row.facilityId) ?? { planId: row.planId, maps: [] };
    entry.maps.push(row.permissions);
    byFacility.set(row.facilityId, entry);
  }
  return new Map(
    [...byFacility].map(([id, { planId, maps }]) => [
      id,
      { planId, permissions: mergePermissionMaps(maps) },
    ]),
  );
}

/** The column `grants` (GrantRow[]) of the user `u`: each active role they hold, by facility. */
export const GRANTS_OF_USER = `coalesce((select json_agg(json_build_object(
    'facilityId', ufr.facility_id, 'planId', f.plan_id, 'permissions', r.permissions))
    from user_facility_roles ufr
    join roles r on r.id = ufr.role_id and r.archived_at is null
    join facilities f on f.id = ufr.facility_id
   where ufr.user_id = u.id), '[]') as grants`;

/** Whether a session has passed its idle timeout or its maximum age. */
export function isPastLimits(
  at: { idleSeconds: number; ageSeconds: number },
  limits: SessionLimits,
): boolean {
  return at.idleSeconds > limits.idleMinutes * 60 || at.ageSeconds > limits.maxHours * 3600;
}

/** Writing on every request would cost a write per read; a minute's precision is enough for idling. */
export const TOUCH_AFTER_SECONDS = 30;

/**
 * The user behind a session token with their grants, or the catalogue's 401/419, in one query.
 * Touches the session when due.
 */
export async function lookupSession(
  db: Db,
  token: string | undefined,
  limits: SessionLimits,
  options: { isBackground?: boolean } = {},
): Promise<SessionLookup> {
  if (!token) throw new AppError('SessionExpired');
  const [row] = await db.query<SessionLookupRow>(
    `select s.id as session_id, s.end_reason, s.ended_at is not null as ended,
            extract(epoch from (now() - s.last_seen_at))::float8 as idle_seconds,
            extract(epoch from (now() - s.created_at))::float8 as age_seconds,
            (not u.is_blocked and u.archived_at is null) as usable,
            (select epoch from access_epoch)::text as access_epoch,
            ${GRANTS_OF_USER},
            ${SESSION_USER_COLUMNS}
       from sessions s join users u on u.id = s.user_id
       left join departments d on d.id = u.department_id
      where s.token_hash = $1`,
    [hashToken(token)],
  );
  if (!row) throw new AppError('SessionExpired');
  if (row.ended) {
    throw new AppError(row.end_reason === 'superseded' ? 'SimultaneousSession' : 'SessionExpired');
  }
  if (!row.usable) throw new AppError('SessionExpired');
  const at = { idleSeconds: row.idle_seconds, ageSeconds: row.age_seconds };
  if (isPastLimits(at, limits)) {
    await db.query(
      `update sessions set ended_at = now(), end_reason = 'expired' where id = $1 and ended_at is null`,
      [row.session_id],
    );
    throw new AppError('SessionExpired');
  }
  // A background refresh (a count polled in the menu) is no sign of the user: it must not keep an
  // unattended session open forever.
  if (row.idle_seconds > TOUCH_AFTER_SECONDS && !options.isBackground) {
    await touchSession(db, row.session_id);
    at.idleSeconds = 0;
  }
  const { grants, access_epoch, ...user } = row;
  return {
    session: { sessionId: row.session_id, user, grants: grantsOf(grants) },
    epoch: Number(access_epoch),
    ...at,
  };
}

/** The user behind a session token, or the catalogue's 401/419. Touches the session when due. */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  limits: SessionLimits,
  options: { isBackground?: boolean } = {},
): Promise<ResolvedSession> {
  return (await lookupSession(db, token, limits, options)).session;
}

/** "Stay signed in": the idle clock of this session starts again now. */
export async function touchSession(db: Db, sessionId: number): Promise<void> {
  await db.query('update sessions set last_seen_at = now() where id = $1', [sessionId]);
}
