import { refusalText } from '#core/permissions/permission-texts.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import {
  nextDay,
  startOfDayInZone,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import type { TAuditLogFilters, TAuditLogRow } from '#core/schemas/audit.schemas.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import type { ResolvedSession } from '#server/sessions/session-lookup.ts';

/**
 * Who reads which audit rows: a user reads the rows of every facility where a role gives them
 * AuditLog Get, and, once they hold it anywhere in the plan, the plan-wide rows (sign-ins,
 * users, password policy) that belong to no facility. Nobody reads another plan's rows.
 */
export interface AuditScope {
  planId: number;
  facilityIds: number[];
}

export async function auditScope(q: Queryable, session: ResolvedSession): Promise<AuditScope> {
  const rows = await q.query<{ facility_id: number }>(
    `select distinct ufr.facility_id from user_facility_roles ufr
       join roles r on r.id = ufr.role_id and r.archived_at is null
       join facilities f on f.id = ufr.facility_id
      where ufr.user_id = $1 and f.plan_id = $2
        and coalesce((r.permissions -> 'AuditLog' ->> 'Get')::boolean, false)
      order by ufr.facility_id`,
    [session.user.id, session.user.plan_id],
  );
  if (rows.length === 0) {
    throw new AppError('NotAllowed', refusalText('AuditLog', 'Get'));
  }
  return { planId: session.user.plan_id, facilityIds: rows.map((r) => r.facility_id) };
}

/** The plan's chain and those of the facilities in the scope. */
export function auditChains(scope: AuditScope): string[] {
  return [`plan:${scope.planId}`, ...scope.facilityIds.map((id) => `facility:${id}`)];
}

export function assertFacilityInScope(scope: AuditScope, facilityId: number): void {
  if (!scope.facilityIds.includes(facilityId)) {
    throw new AppError('NotAllowed', refusalText('AuditLog', 'Get'));
  }
}

/** A date-only bound means the facility's calendar day; a full moment is taken as given. */
function bound(value: string, zone: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return startOfDayInZone(end ? nextDay(value) : value, zone);
  }
  return new Date(value);
}

export interface AuditWhere {
  sql: string;
  params: SqlValue[];
}

/** The WHERE clause of the scope and of the filters that are set (spec §5). */
export function auditWhere(scope: AuditScope, filters: TAuditLogFilters, zone: string): AuditWhere {
  const params: SqlValue[] = [scope.planId];
  const clauses = ['a.plan_id = $1'];
  const add = (clause: (n: string) => string, value: SqlValue) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filters.facilityId !== undefined) {
    assertFacilityInScope(scope, filters.facilityId);
    add((n) => `a.facility_id = ${n}`, filters.facilityId);
  } else {
    add((n) => `(a.facility_id is null or a.facility_id = any(${n}::int[]))`, scope.facilityIds);
  }
  if (filters.domains?.length) add((n) => `a.domain = any(${n}::text[])`, filters.domains);
  if (filters.actions?.length) add((n) => `a.action = any(${n}::text[])`, filters.actions);
  if (filters.userIds?.length) add((n) => `a.user_id = any(${n}::int[])`, filters.userIds);
  const start = filters.startDate ? bound(filters.startDate, zone, false) : null;
  const end = filters.endDate ? bound(filters.endDate, zone, true) : null;
  if (start && end && start > end) {
    throw validationError([
      { property: 'endDate', constraints: { order: 'The end date is before the start date' } },
    ]);
  }
  if (start) add((n) => `a.at >= ${n}::timestamptz`, start.toISOString());
  if (end) {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(filters.endDate ?? '');
    add((n) => `a.at ${dateOnly ? '<' : '<='} ${n}::timestamptz`, end.toISOString());
  }
  return { sql: clauses.join(' and '), params };
}

interface AuditRow {
  id: number | string;
  at: Date | string;
  at_key: string;
  user_id: number | null;
  user_name: string | null;
  facility_id: number | null;
  facility_name: string | null;
  domain: string;
  action: string;
  entity_id: string | null;
  reason: string | null;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
}

const SELECT = `select a.id, a.at, a.at::text as at_key, a.user_id,
         coalesce(a.user_name, nullif(trim(u.first_name || ' ' || u.last_name), '')) as user_name,
         a.facility_id, f.name as facility_name, a.domain, a.action, a.entity_id, a.reason,
         a.old_values, a.new_values
    from audit_log a
    left join facilities f on f.id = a.facility_id
    left join users u on u.id = a.user_id`;

function toRow(row: AuditRow): TAuditLogRow {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    userId: row.user_id,
    userName: row.user_name,
    facilityId: row.facility_id,
    facilityName: row.facility_name,
    domain: row.domain,
    action: row.action,
    entityId: row.entity_id,
    reason: row.reason,
    oldValues: row.old_values,
    newValues: row.new_values,
  };
}

export async function countAuditRows(q: Queryable, where: AuditWhere): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `select count(*)::int as n from audit_log a where ${where.sql}`,
    where.params,
  );
  return row?.n ?? 0;
}

/** One page, newest first. */
export async function listAuditRows(
  q: Queryable,
  where: AuditWhere,
  page: { limit: number; offset: number },
): Promise<TAuditLogRow[]> {
  const n = where.params.length;
  const rows = await q.query<AuditRow>(
    `${SELECT} where ${where.sql} order by a.at desc, a.id desc limit $${n + 1} offset $${n + 2}`,
    [...where.params, page.limit, page.offset],
  );
  return rows.map(toRow);
}

/**
 * Every matching row, newest first, fetched in pages by key (time at full database precision,
 * then id) so that a large export never holds one huge result or an ever-growing OFFSET.
 */
export async function* allAuditRows(
  q: Queryable,
  where: AuditWhere,
  pageSize = 1000,
): AsyncGenerator<TAuditLogRow[]> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const n = where.params.length;
    const params: SqlValue[] = [...where.params, pageSize];
    let keyset = '';
    if (after) {
      params.push(after.at, after.id);
      keyset = ` and (a.at, a.id) < ($${n + 2}::timestamptz, $${n + 3}::bigint)`;
    }
    const rows: AuditRow[] = await q.query<AuditRow>(
      `${SELECT} where ${where.sql}${keyset} order by a.at desc, a.id desc limit $${n + 1}`,
      params,
    );
    if (rows.length === 0) return;
    yield rows.map(toRow);
    const last: AuditRow = rows[rows.length - 1]!;
    after = { at: last.at_key, id: Number(last.id) };
    if (rows.length < pageSize) return;
  }
}

export async function facilityDateTimeSettings(
  q: Queryable,
  facilityId: number,
): Promise<DateTimeSettings & { name: string }> {
  const [row] = await q.query<{
    name: string;
    timezone: string;
    date_format: DateTimeSettings['dateFormat'];
    time_format: DateTimeSettings['timeFormat'];
    significant_digits: number;
  }>(
    'select name, timezone, date_format, time_format, significant_digits from facilities where id = $1',
    [facilityId],
  );
  if (!row) throw new AppError('NotFoundError', 'No such facility');
  return {
    name: row.name,
    timezone: row.timezone,
    dateFormat: row.date_format,
    timeFormat: row.time_format,
    significantDigits: row.significant_digits,
  };
}

export async function auditFilterOptions(q: Queryable, scope: AuditScope) {
  const where = auditWhere(scope, {}, 'UTC');
  const [domains, actions, facilities] = await Promise.all([
    q.query<{ v: string }>(
      `select distinct a.domain as v from audit_log a where ${where.sql} order by 1`,
      where.params,
    ),
    q.query<{ v: string }>(
      `select distinct a.action as v from audit_log a where ${where.sql} order by 1`,
      where.params,
    ),
    q.query<{ id: number; name: string }>(
      'select id, name from facilities where id = any($1::int[]) order by name',
      [scope.facilityIds],
    ),
  ]);
  return {
    domains: domains.map((r) => r.v),
    actions: actions.map((r) => r.v),
    facilities,
  };
}

export async function auditUsers(q: Queryable, planId: number) {
  const rows = await q.query<{
    id: number;
    first_name: string;
    last_name: string;
    username: string;
  }>(
    `select id, first_name, last_name, username from users where plan_id = $1
      order by lower(first_name), lower(last_name), id`,
    [planId],
  );
  return rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    username: r.username,
  }));
}
