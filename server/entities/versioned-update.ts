import { AppError } from '#core/errors/errors.ts';
import type { Queryable, SqlValue } from '../db/db.ts';

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
