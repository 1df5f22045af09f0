import { AppError } from '#core/errors/errors.ts';
import type { Queryable, SqlValue } from '../db/db.ts';
import { jsonRows, recordsetOf } from '../db/json-rows.ts';

/** A column set to the statement's time rather than to a value (archived_at, closed_at). */
export const NOW = Symbol('now()');

export type Assigned = SqlValue | typeof NOW;

export interface VersionedTarget {
  table: string;
  /** The column that scopes the record (facility_id, plan_id) and its value. */
  ownerColumn: string;
  ownerId: number;
  id: number;
  /** The record's key column: `id`, or `plan_id` for the one row per plan of plan_settings. */
  idColumn?: string;
  /**
   * The version the change was made from: the row is written only at that version, else 409
   * VersionConflictError, whatever the caller checked before (a stale edit never overwrites).
   */
  version?: number | undefined;
}

/**
 * The one UPDATE of a versioned record, for declared records and lifecycle records alike: the
 * columns given, the optimistic-lock version bumped, who changed it and when. The caller has
 * locked the row; the trigger keeps the history row.
 */
export async function updateVersioned(
  tx: Queryable,
  target: VersionedTarget,
  userId: number | null,
  assignments: Readonly<Record<string, Assigned>>,
  returning = '*',
): Promise<Record<string, unknown>> {
  const params: SqlValue[] = [target.ownerId, target.id, userId];
  const sets = Object.entries(assignments).map(([column, value]) => {
    if (value === NOW) return `${column} = now()`;
    params.push(value);
    return `${column} = $${params.length}`;
  });
  sets.push('version = version + 1', 'updated_at = now()', 'updated_by = $3');
  let where = `${target.ownerColumn} = $1 and ${target.idColumn ?? 'id'} = $2`;
  if (target.version !== undefined) {
    params.push(target.version);
    where += ` and version = $${params.length}`;
  }
  const [row] = await tx.query<Record<string, unknown>>(
    `update ${target.table} set ${sets.join(', ')} where ${where} returning ${returning}`,
    params,
  );
  if (!row) throw new AppError('VersionConflictError');
  return row;
}

export interface VersionedRows {
  table: string;
  ownerColumn: string;
  ownerId: number;
  /**
   * Each record's id and the new values of the same columns, as JSON gives them
   * (server/db/json-rows.ts).
   */
  rows: readonly { id: number; set: Readonly<Record<string, SqlValue>> }[];
}

/**
 * The one UPDATE of many versioned records at once, each with values of its own (a run's
 * repeats supersede their originals): one statement, the same columns, version, author and
 * time as updateVersioned gives each, the values typed by the table's own row type
 * (server/db/json-rows.ts). The caller has locked the rows; the trigger keeps a history row of
 * each.
 */
export async function updateVersionedMany(
  tx: Queryable,
  { table, ownerColumn, ownerId, rows }: VersionedRows,
  userId: number | null,
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!.set);
  // A column one row leaves out would be set to null in it.
  if (rows.some((r) => Object.keys(r.set).join() !== columns.join()))
    throw new Error(`updateVersionedMany: every row of ${table} sets the same columns`);
  const sets = [
    ...columns.map((column) => `${column} = v.${column}`),
    'version = t.version + 1',
    'updated_at = now()',
    'updated_by = $2',
  ];
  const values = rows.map((r) => ({ ...r.set, id: r.id }));
  const updated = await tx.query<Record<string, unknown>>(
    `update ${table} t set ${sets.join(', ')}
       from ${recordsetOf(table, 3, 'v')}
      where t.${ownerColumn} = $1 and t.id = v.id
     returning t.*`,
    [ownerId, userId, jsonRows(values)],
  );
  if (updated.length !== new Set(rows.map((r) => r.id)).size)
    throw new AppError('VersionConflictError');
  return updated;
}
