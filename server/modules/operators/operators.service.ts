import { AppError, validationError } from '../../../core/errors/errors.ts';
import type {
  TCreateOperatorRequest,
  TOperator,
  TUpdateOperatorRequest,
} from '../../../core/schemas/operators.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { likePattern, pageWindow } from '../../http/paging.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit } from '../audit/audit.service.ts';
import type { FacilityScope } from '../roles/roles.service.ts';
import {
  archivedEntry,
  assertVersion,
  duplicateEntry,
  iso,
  isUniqueViolation,
  notFound,
} from '../users-admin/records.ts';

const DOMAIN = 'Operator';

interface OperatorRow {
  id: number;
  first_name: string;
  last_name: string;
  operator_id: string;
  department_id: number | null;
  department_name: string | null;
  version: number;
  archived_at: Date | string | null;
  archive_reason: string | null;
}

const SELECT = `select o.id, o.first_name, o.last_name, o.operator_id, o.department_id,
    d.name as department_name, o.version, o.archived_at, o.archive_reason
  from operators o left join departments d on d.id = o.department_id`;

function toOperator(row: OperatorRow): TOperator {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    operatorId: row.operator_id,
    department:
      row.department_id === null || row.department_name === null
        ? null
        : { id: row.department_id, name: row.department_name },
    version: row.version,
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
    archiveReason: row.archive_reason,
  };
}

async function findOperator(
  q: Queryable,
  scope: FacilityScope,
  id: number,
  lock = false,
): Promise<OperatorRow> {
  if (lock) await q.query('select id from operators where id = $1 for update', [id]);
  const [row] = await q.query<OperatorRow>(`${SELECT} where o.id = $1 and o.facility_id = $2`, [
    id,
    scope.facilityId,
  ]);
  if (!row) throw notFound('The operator');
  return row;
}

const DUPLICATE = 'An operator with this Operator ID already exists in this facility';

async function assertOperatorIdFree(
  q: Queryable,
  facilityId: number,
  operatorId: string,
  exceptId: number | null,
): Promise<void> {
  const [clash] = await q.query<{ archived: boolean }>(
    `select archived_at is not null as archived from operators
      where facility_id = $1 and lower(operator_id) = lower($2) and ($3::int is null or id <> $3)`,
    [facilityId, operatorId, exceptId],
  );
  if (!clash) return;
  if (clash.archived) throw archivedEntry('operatorId');
  throw duplicateEntry('operatorId', DUPLICATE);
}

async function assertDepartment(q: Queryable, scope: FacilityScope, id: number | null | undefined) {
  if (id === null || id === undefined) return;
  const [row] = await q.query(
    'select id from departments where id = $1 and plan_id = $2 and archived_at is null',
    [id, scope.planId],
  );
  if (!row) {
    throw validationError([
      { property: 'departmentId', constraints: { exists: 'Choose a department of this plan' } },
    ]);
  }
}

function mapUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error)) throw duplicateEntry('operatorId', DUPLICATE);
  throw error;
}

export async function listOperators(
  db: Db,
  scope: FacilityScope,
  query: { pageNumber: number; pageLimit: number; search?: string | undefined; archived: boolean },
) {
  const { limit, offset } = pageWindow(query);
  const where = `o.facility_id = $1 and (o.archived_at is not null) = $3 and ($2::text is null
      or o.first_name ilike $2 or o.last_name ilike $2 or o.operator_id ilike $2
      or (o.first_name || ' ' || o.last_name) ilike $2 or d.name ilike $2)`;
  const params = [scope.facilityId, likePattern(query.search), query.archived];
  const rows = await db.query<OperatorRow>(
    `${SELECT} where ${where} order by lower(o.last_name), lower(o.first_name), o.id
      limit $4 offset $5`,
    [...params, limit, offset],
  );
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from operators o left join departments d on d.id = o.department_id
      where ${where}`,
    params,
  );
  return { rows: rows.map(toOperator), total: count?.n ?? 0 };
}

/** An active operator's name by their Operator ID, e.g. from a scanned badge. */
export async function operatorName(db: Db, scope: FacilityScope, operatorId: string) {
  const [row] = await db.query<OperatorRow>(
    `${SELECT} where o.facility_id = $1 and lower(o.operator_id) = lower($2)
        and o.archived_at is null`,
    [scope.facilityId, operatorId],
  );
  if (!row) throw notFound('The operator');
  return { id: row.id, operatorId: row.operator_id, name: `${row.first_name} ${row.last_name}` };
}

export async function createOperator(
  db: Db,
  scope: FacilityScope,
  input: TCreateOperatorRequest,
): Promise<TOperator> {
  return db
    .transaction(async (tx) => {
      await assertOperatorIdFree(tx, scope.facilityId, input.operatorId, null);
      await assertDepartment(tx, scope, input.departmentId);
      const [row] = await tx.query<{ id: number }>(
        `insert into operators (facility_id, first_name, last_name, operator_id, department_id,
                                created_by, updated_by)
         values ($1, $2, $3, $4, $5, $6, $6) returning id`,
        [
          scope.facilityId,
          input.firstName,
          input.lastName,
          input.operatorId,
          input.departmentId ?? null,
          scope.actor.userId,
        ],
      );
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        facilityId: scope.facilityId,
        domain: DOMAIN,
        action: 'Create',
        entityId: row!.id,
        newValues: {
          firstName: input.firstName,
          lastName: input.lastName,
          operatorId: input.operatorId,
          departmentId: input.departmentId ?? null,
        },
      });
      return toOperator(await findOperator(tx, scope, row!.id));
    })
    .catch(mapUniqueViolation);
}

export async function updateOperator(
  db: Db,
  scope: FacilityScope,
  id: number,
  input: TUpdateOperatorRequest,
): Promise<TOperator> {
  return db
    .transaction(async (tx) => {
      const row = await findOperator(tx, scope, id, true);
      if (row.archived_at !== null) throw archivedEntry('id');
      assertVersion(row.version, input.version);
      const { oldValues, newValues } = changedFields(
        {
          firstName: row.first_name,
          lastName: row.last_name,
          operatorId: row.operator_id,
          departmentId: row.department_id,
        },
        {
          firstName: input.firstName,
          lastName: input.lastName,
          operatorId: input.operatorId,
          departmentId: input.departmentId,
        },
      );
      if (input.operatorId !== undefined && 'operatorId' in newValues) {
        await assertOperatorIdFree(tx, scope.facilityId, input.operatorId, id);
      }
      if ('departmentId' in newValues) await assertDepartment(tx, scope, input.departmentId);
      const updated = await tx.query(
        `update operators set first_name = $3, last_name = $4, operator_id = $5,
                department_id = $6, version = version + 1, updated_at = now(), updated_by = $7
          where id = $1 and version = $2 returning id`,
        [
          id,
          row.version,
          input.firstName ?? row.first_name,
          input.lastName ?? row.last_name,
          input.operatorId ?? row.operator_id,
          input.departmentId === undefined ? row.department_id : input.departmentId,
          scope.actor.userId,
        ],
      );
      if (updated.length === 0) throw new AppError('VersionConflictError');
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        facilityId: scope.facilityId,
        domain: DOMAIN,
        action: 'Update',
        entityId: id,
        reason: input.reason,
        oldValues,
        newValues,
      });
      return toOperator(await findOperator(tx, scope, id));
    })
    .catch(mapUniqueViolation);
}

export async function setOperatorArchived(
  db: Db,
  scope: FacilityScope,
  id: number,
  archive: boolean,
  reason: string,
): Promise<TOperator> {
  return db.transaction(async (tx) => {
    const row = await findOperator(tx, scope, id, true);
    if ((row.archived_at !== null) === archive) throw new AppError('NothingToChangeError');
    await tx.query(
      `update operators set archived_at = case when $2 then now() else null end,
              archived_by = case when $2 then $3::int else null end,
              archive_reason = case when $2 then $4 else null end,
              version = version + 1, updated_at = now(), updated_by = $3
        where id = $1`,
      [id, archive, scope.actor.userId, reason],
    );
    await writeAudit(tx, scope.actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: archive ? 'Archive' : 'Unarchive',
      entityId: id,
      reason,
      oldValues: { archived: !archive },
      newValues: { archived: archive },
    });
    return toOperator(await findOperator(tx, scope, id));
  });
}
