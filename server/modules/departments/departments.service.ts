import { AppError } from '../../../core/errors/errors.ts';
import type { TDepartment } from '../../../core/schemas/departments.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { likePattern, pageWindow } from '../../http/paging.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit } from '../audit/audit.service.ts';
import type { AdminScope } from '../users-admin/users-admin.service.ts';
import {
  archivedEntry,
  assertVersion,
  duplicateEntry,
  isUniqueViolation,
  notFound,
} from '../users-admin/records.ts';

const DOMAIN = 'Department';

const SELECT = `select d.id, d.name, d.version,
    (select count(*)::int from users u where u.department_id = d.id and u.archived_at is null)
      as "userCount"
  from departments d`;

async function findDepartment(q: Queryable, planId: number, id: number): Promise<TDepartment> {
  const [row] = await q.query<TDepartment>(
    `${SELECT} where d.id = $1 and d.plan_id = $2 and d.archived_at is null`,
    [id, planId],
  );
  if (!row) throw notFound('The department');
  return row;
}

async function assertNameFree(q: Queryable, planId: number, name: string, exceptId: number | null) {
  const [clash] = await q.query<{ archived: boolean }>(
    `select archived_at is not null as archived from departments
      where plan_id = $1 and lower(name) = lower($2) and ($3::int is null or id <> $3)`,
    [planId, name, exceptId],
  );
  if (!clash) return;
  if (clash.archived) throw archivedEntry('name');
  throw duplicateEntry('name', 'A department with this name already exists');
}

function mapUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error)) {
    throw duplicateEntry('name', 'A department with this name already exists');
  }
  throw error;
}

export async function listDepartments(
  db: Db,
  planId: number,
  query: { pageNumber: number; pageLimit: number; search?: string | undefined },
) {
  const { limit, offset } = pageWindow(query);
  const where = `d.plan_id = $1 and d.archived_at is null and ($2::text is null or d.name ilike $2)`;
  const params = [planId, likePattern(query.search)];
  const rows = await db.query<TDepartment>(
    `${SELECT} where ${where} order by lower(d.name), d.id limit $3 offset $4`,
    [...params, limit, offset],
  );
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from departments d where ${where}`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

export async function createDepartment(
  db: Db,
  scope: AdminScope,
  name: string,
): Promise<TDepartment> {
  return db
    .transaction(async (tx) => {
      await assertNameFree(tx, scope.planId, name, null);
      const [row] = await tx.query<{ id: number }>(
        `insert into departments (plan_id, name, created_by, updated_by)
         values ($1, $2, $3, $3) returning id`,
        [scope.planId, name, scope.actor.userId],
      );
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Create',
        entityId: row!.id,
        newValues: { name },
      });
      return findDepartment(tx, scope.planId, row!.id);
    })
    .catch(mapUniqueViolation);
}

export async function updateDepartment(
  db: Db,
  scope: AdminScope,
  id: number,
  input: { name: string; reason: string; version: number },
): Promise<TDepartment> {
  return db
    .transaction(async (tx) => {
      await tx.query('select id from departments where id = $1 for update', [id]);
      const current = await findDepartment(tx, scope.planId, id);
      assertVersion(current.version, input.version);
      const { oldValues, newValues } = changedFields({ name: current.name }, { name: input.name });
      await assertNameFree(tx, scope.planId, input.name, id);
      const updated = await tx.query(
        `update departments set name = $3, version = version + 1, updated_at = now(), updated_by = $4
          where id = $1 and version = $2 returning id`,
        [id, current.version, input.name, scope.actor.userId],
      );
      if (updated.length === 0) throw new AppError('VersionConflictError');
      await writeAudit(tx, scope.actor, {
        planId: scope.planId,
        domain: DOMAIN,
        action: 'Update',
        entityId: id,
        reason: input.reason,
        oldValues,
        newValues,
      });
      return findDepartment(tx, scope.planId, id);
    })
    .catch(mapUniqueViolation);
}
