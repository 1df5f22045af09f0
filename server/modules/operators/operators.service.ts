import { operatorsDef as def } from '#core/entities/defs/operators.def.ts';
import type {
  TCreateOperatorRequest,
  TOperator,
  TUpdateOperatorRequest,
} from '#core/schemas/operators.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { likePattern, pageWindow } from '#server/db/paging.ts';
import {
  archiveEntity,
  createEntity,
  restoreEntity,
  updateEntity,
} from '#server/entities/entity-write.ts';
import type { FacilityScope } from '../roles/roles.service.ts';
import { duplicateEntry, iso, isUniqueViolation, notFound } from '../users-admin/records.ts';

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
      const { actor, ...where } = scope;
      const values = { ...input, departmentId: input.departmentId ?? null };
      const made = await createEntity(tx, { actor, def, scope: where, values });
      return toOperator(await findOperator(tx, scope, made.id));
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
      await findOperator(tx, scope, id);
      const { actor, ...where } = scope;
      const { reason, version, ...fields } = input;
      const edit = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      await updateEntity(tx, { actor, def, scope: where, id, edit, reason, version });
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
    await findOperator(tx, scope, id);
    const { actor, ...where } = scope;
    const write = { actor, def, scope: where, id, reason };
    await (archive ? archiveEntity(tx, write) : restoreEntity(tx, write));
    return toOperator(await findOperator(tx, scope, id));
  });
}
