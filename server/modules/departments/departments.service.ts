import { departmentsDef as def } from '#core/entities/defs/departments.def.ts';
import type { TDepartment } from '#core/schemas/departments.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { likePattern, pageWindow } from '#server/db/paging.ts';
import { createEntity, updateEntity } from '#server/entities/entity-write.ts';
import type { AdminScope } from '../users-admin/users-admin.service.ts';
import { duplicateEntry, isUniqueViolation, notFound } from '../users-admin/records.ts';

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
      const { actor, planId } = scope;
      const made = await createEntity(tx, { actor, def, scope: { planId }, values: { name } });
      return findDepartment(tx, planId, made.id);
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
      const { actor, planId } = scope;
      // Archived departments are not found here, as in the list.
      await findDepartment(tx, planId, id);
      const { name, reason, version } = input;
      const edit = { name };
      await updateEntity(tx, { actor, def, scope: { planId }, id, edit, reason, version });
      return findDepartment(tx, planId, id);
    })
    .catch(mapUniqueViolation);
}
