import { AppError, validationError, type PropertyError } from '../../core/errors/errors.ts';
import { recordProblems, type EntityDef } from '../../core/entities/entity.ts';
import { columnOf, type FieldDef } from '../../core/entities/field.ts';
import { entityDef } from '../../core/entities/defs/index.ts';
import type { TListQuery } from '../../core/schemas/common.schemas.ts';
import type { Db, Queryable, SqlValue } from '../db/db.ts';
import { likePattern, orderBy, pageOf, pageWindow } from '../http/paging.ts';
import { changedFields } from '../modules/audit/audit-diff.ts';
import { writeAudit, type Actor } from '../modules/audit/audit.service.ts';
import { onEntitySaved } from '../records/controlled-entities.ts';
import { runBeforeArchive, type ArchiveOptions } from './archive-hooks.ts';
import { tableAsOf, type AsOfOptions } from './entity-history.ts';
import {
  checkedProperties,
  editedProperties,
  flatProperties,
  propertiesColumn,
  readProperties,
  touchesProperties,
} from './entity-properties.ts';

export interface Scope {
  planId: number;
  facilityId: number;
}

export interface EntityRecord {
  id: number;
  facilityId: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  archiveReason: string | null;
  [field: string]: unknown;
}

const RECORD_COLUMNS = `id, facility_id, version, created_at, updated_at, archived_at, archive_reason`;

function isJson(field: FieldDef): boolean {
  return field.kind === 'quantity' || field.kind === 'list';
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

export function toRecord(def: EntityDef, row: Record<string, unknown>): EntityRecord {
  const record: Record<string, unknown> = { id: row.id, facilityId: row.facility_id };
  for (const field of def.fields) {
    const value = row[columnOf(field)];
    record[field.name] = value === undefined ? null : value;
  }
  if (def.propertyTarget) record.additionalProperties = readProperties(def, row);
  record.version = row.version;
  record.createdAt = iso(row.created_at);
  record.updatedAt = iso(row.updated_at);
  record.archivedAt = iso(row.archived_at);
  record.archiveReason = row.archive_reason ?? null;
  return record as unknown as EntityRecord;
}

function selectList(def: EntityDef): string {
  return `${RECORD_COLUMNS}, ${def.fields.map(columnOf).join(', ')}${propertiesColumn(def)}`;
}

/** A field's value as a query parameter: JSON for quantities and lists, empty lists for none. */
export function encode(field: FieldDef, value: unknown): SqlValue {
  if (value === undefined || value === null) {
    if (field.kind === 'list') return '[]';
    if (field.kind === 'reference' && field.multiple) return [];
    return null;
  }
  return isJson(field) ? JSON.stringify(value) : (value as SqlValue);
}

export async function listEntities(
  db: Db,
  def: EntityDef,
  facilityId: number,
  query: TListQuery,
  archived: boolean,
  options: AsOfOptions = {},
) {
  const { asOf } = options;
  const source = asOf ? tableAsOf(def.table, 1, 5) : def.table;
  const asOfParams = asOf ? [asOf] : [];
  const pattern = likePattern(query.search);
  const searchSql = def.search.map((name) => `${columnOf({ name })} ilike $2`).join(' or ');
  const where = `facility_id = $1 and archived_at is ${archived ? 'not null' : 'null'}
    and ($2::text is null or ${searchSql})`;
  const sortable = Object.fromEntries(
    def.fields
      .filter((f) => f.kind === 'text' || f.kind === 'enum' || f.kind === 'number')
      .map((f) => [f.name, columnOf(f)]),
  );
  const { limit, offset } = pageWindow(query);
  const rows = await db.query<Record<string, unknown>>(
    `select ${selectList(def)}, count(*) over () as total_count from ${source}
      where ${where} order by ${orderBy(query, { ...sortable, createdAt: 'created_at', updatedAt: 'updated_at' }, 'lower(name), id')}
      limit $3 offset $4`,
    [facilityId, pattern, limit, offset, ...asOfParams],
  );
  let total = Number(rows[0]?.total_count ?? 0);
  if (rows.length === 0 && offset > 0) {
    const [count] = await db.query<{ n: number }>(
      `select count(*)::int as n from ${asOf ? tableAsOf(def.table, 1, 3) : def.table} where ${where}`,
      [facilityId, pattern, ...asOfParams],
    );
    total = count?.n ?? 0;
  }
  return pageOf(
    rows.map((row) => toRecord(def, row)),
    total,
    query,
  );
}

/**
 * Every active record of an entity in a facility, for computations over the whole facility;
 * with `asOf`, those active at that moment, as they were then.
 */
export async function allEntities(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  options: AsOfOptions = {},
): Promise<EntityRecord[]> {
  const { asOf } = options;
  const rows = await q.query<Record<string, unknown>>(
    `select ${selectList(def)} from ${asOf ? tableAsOf(def.table, 1, 2) : def.table}
      where facility_id = $1 and archived_at is null order by id`,
    asOf ? [facilityId, asOf] : [facilityId],
  );
  return rows.map((row) => toRecord(def, row));
}

export async function getEntity(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  id: number,
  lock = false,
  options: AsOfOptions = {},
) {
  const { asOf } = options;
  const [row] = await q.query<Record<string, unknown>>(
    `select ${selectList(def)} from ${asOf ? tableAsOf(def.table, 1, 3, 2) : def.table}
      where facility_id = $1 and id = $2 ${lock && !asOf ? 'for update' : ''}`,
    asOf ? [facilityId, id, asOf] : [facilityId, id],
  );
  // Before the record existed (asOf earlier than its first version) there was nothing to find.
  if (!row) throw new AppError('NotFoundError', `${def.label} ${id} was not found`);
  return toRecord(def, row);
}

/** References must name live rows of the same facility. */
async function checkReferences(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  values: Record<string, unknown>,
) {
  const problems: PropertyError[] = [];
  const check = async (field: FieldDef, value: unknown, path: string) => {
    if (field.kind === 'reference' && value !== null && value !== undefined) {
      const target = entityDef(field.entity);
      const ids = (Array.isArray(value) ? value : [value]) as number[];
      if (ids.length === 0) return;
      const found = await q.query<{ id: number }>(
        `select id from ${target.table} where facility_id = $1 and id = any($2::int[]) and archived_at is null`,
        [facilityId, ids],
      );
      const known = new Set(found.map((r) => r.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) {
        problems.push({
          property: path,
          constraints: {
            reference: `No ${target.label.toLowerCase()} with id ${missing.join(', ')} in this facility`,
          },
        });
      }
      if (Array.isArray(value) && new Set(ids).size !== ids.length) {
        problems.push({ property: path, constraints: { unique: 'lists the same item twice' } });
      }
    }
    if (field.kind === 'list' && Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        for (const sub of field.of)
          await check(
            sub,
            (item as Record<string, unknown>)[sub.name],
            `${path}[${index}].${sub.name}`,
          );
      }
    }
  };
  for (const field of def.fields)
    if (field.name in values) await check(field, values[field.name], field.name);
  if (problems.length > 0) throw validationError(problems);
}

/** The declaration's rules across fields, on the record as it would be saved. */
function checkRecord(def: EntityDef, record: Readonly<Record<string, unknown>>): void {
  const problems = recordProblems(def, record);
  if (problems.length > 0) throw validationError(problems);
}

/** A duplicate of a unique field: DuplicateEntryError, or ArchivedEntryError when the other one is archived. */
async function checkUnique(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  values: Record<string, unknown>,
  exceptId: number | null,
) {
  for (const name of def.unique) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    const [other] = await q.query<{ id: number; archived: boolean }>(
      `select id, archived_at is not null as archived from ${def.table}
        where facility_id = $1 and lower(${columnOf({ name })}) = lower($2) and ($3::int is null or id <> $3)`,
      [facilityId, value, exceptId],
    );
    if (!other) continue;
    const errors = [
      {
        property: name,
        constraints: { unique: `${def.label} with ${name} '${value}' already exists` },
      },
    ];
    if (other.archived) {
      throw new AppError(
        'ArchivedEntryError',
        `Data Archived: a ${def.label.toLowerCase()} with ${name} '${value}' is archived. Restore it from the archived list, or change the ${name} to create a new one.`,
        { errors },
      );
    }
    throw new AppError(
      'DuplicateEntryError',
      `${def.label} with ${name} '${value}' already exists`,
      { errors },
    );
  }
}

export async function createEntity(
  db: Db,
  actor: Actor,
  def: EntityDef,
  scope: Scope,
  values: Record<string, unknown>,
) {
  checkRecord(def, values);
  return db.transaction(async (tx) => {
    await checkUnique(tx, def, scope.facilityId, values, null);
    await checkReferences(tx, def, scope.facilityId, values);
    const properties = await checkedProperties(
      tx,
      def,
      scope.facilityId,
      undefined,
      values.additionalProperties,
    );
    const columns = def.fields.map(columnOf);
    const params: SqlValue[] = def.fields.map((f) => encode(f, values[f.name]));
    if (properties) {
      columns.push('additional_properties');
      params.push(JSON.stringify(properties));
    }
    const placeholders = params.map((_, i) => `$${i + 3}`).join(', ');
    const [row] = await tx.query<Record<string, unknown>>(
      `insert into ${def.table} (facility_id, created_by, updated_by, ${columns.join(', ')})
       values ($1, $2, $2, ${placeholders}) returning ${selectList(def)}`,
      [scope.facilityId, actor.userId, ...params],
    );
    const record = toRecord(def, row!);
    await onEntitySaved(tx, actor, def, scope, record);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: def.domain,
      action: 'Create',
      entityId: record.id,
      newValues: {
        ...Object.fromEntries(def.fields.map((f) => [f.name, record[f.name]])),
        ...flatProperties(properties ?? {}),
      },
    });
    return record;
  });
}

export async function updateEntity(
  db: Db,
  actor: Actor,
  def: EntityDef,
  scope: Scope,
  id: number,
  edit: Record<string, unknown>,
  meta: { reason: string; version?: number | undefined },
) {
  return db.transaction(async (tx) => {
    const before = await getEntity(tx, def, scope.facilityId, id, true);
    if (before.archivedAt)
      throw new AppError(
        'ArchivedEntryError',
        `Data Archived: this ${def.label.toLowerCase()} is archived. Restore it from the archived list before editing it.`,
      );
    if (meta.version !== undefined && meta.version !== before.version) {
      throw new AppError('VersionConflictError');
    }
    const { additionalProperties: incoming, ...fieldEdit } = edit;
    const previous = (before.additionalProperties ?? {}) as Record<string, unknown>;
    const properties = await checkedProperties(tx, def, scope.facilityId, previous, incoming);
    const { oldValues, newValues } = changedFields(
      { ...before, ...flatProperties(previous) },
      { ...fieldEdit, ...(properties ? editedProperties(previous, properties) : {}) },
    );
    checkRecord(def, { ...before, ...newValues });
    await checkUnique(tx, def, scope.facilityId, newValues, id);
    await checkReferences(tx, def, scope.facilityId, newValues);
    const fields = def.fields.filter((f) => f.name in newValues);
    const sets = fields.map((f, i) => `${columnOf(f)} = $${i + 4}`);
    const params: SqlValue[] = fields.map((f) => encode(f, newValues[f.name]));
    if (properties && touchesProperties(newValues)) {
      params.push(JSON.stringify(properties));
      sets.push(`additional_properties = $${params.length + 3}`);
    }
    const [row] = await tx.query<Record<string, unknown>>(
      `update ${def.table} set ${sets.join(', ')}, version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning ${selectList(def)}`,
      [scope.facilityId, id, actor.userId, ...params],
    );
    const saved = toRecord(def, row!);
    await onEntitySaved(tx, actor, def, scope, saved);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: def.domain,
      action: 'Update',
      entityId: id,
      reason: meta.reason,
      oldValues,
      newValues,
    });
    return saved;
  });
}

export async function setArchived(
  db: Db,
  actor: Actor,
  def: EntityDef,
  scope: Scope,
  id: number,
  archived: boolean,
  reason: string,
  options: ArchiveOptions = {},
) {
  return db.transaction(async (tx) => {
    const before = await getEntity(tx, def, scope.facilityId, id, true);
    if (Boolean(before.archivedAt) === archived) {
      throw new AppError(
        'NothingToChangeError',
        archived
          ? `This ${def.label.toLowerCase()} is already archived.`
          : `This ${def.label.toLowerCase()} is not archived.`,
      );
    }
    if (!archived) await checkUnique(tx, def, scope.facilityId, before, id);
    else await runBeforeArchive(tx, def, scope, before, options);
    const [row] = await tx.query<Record<string, unknown>>(
      `update ${def.table}
          set archived_at = ${archived ? 'now()' : 'null'}, archived_by = ${archived ? '$3' : 'null'},
              archive_reason = ${archived ? '$4' : 'null'}, version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning ${selectList(def)}`,
      archived
        ? [scope.facilityId, id, actor.userId, reason]
        : [scope.facilityId, id, actor.userId],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: def.domain,
      action: archived ? 'Archive' : 'Unarchive',
      entityId: id,
      reason,
      oldValues: { archived: !archived },
      newValues: { archived },
    });
    return toRecord(def, row!);
  });
}
