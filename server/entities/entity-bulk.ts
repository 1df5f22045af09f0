import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf } from '#core/entities/field.ts';
import type { Queryable } from '../db/db.ts';
import { jsonRows, recordsetOf } from '../db/json-rows.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import type { Actor } from '../db/audit-write.ts';
import { stored, type Scope } from './entity-store.ts';

/**
 * Rows a statement inserts at most. PGlite's WASM memory grows to fit the largest statement it
 * has parsed and planned, and never shrinks: a 4,000-row VALUES list grew it by 80 MiB. Each
 * statement also moves the audit chain's head once, so batches are not made smaller than this.
 */
export const ROWS_PER_STATEMENT = 500;

/**
 * Creates many records of one entity in a few statements, with their audit rows, inside the
 * caller's transaction. The caller has validated the values (schema, uniqueness, references).
 * Returns the new ids in the order of `rows`.
 */
export async function createEntitiesBulk(
  q: Queryable,
  actor: Actor,
  def: EntityDef,
  scope: Scope,
  rows: readonly Record<string, unknown>[],
  reason: string | null = null,
): Promise<number[]> {
  const columns = def.fields.map(columnOf);
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const param = jsonRows(
      chunk.map((values) => {
        const row: Record<string, unknown> = {};
        def.fields.forEach((f, i) => (row[columns[i]!] = stored(f, values[f.name])));
        return row;
      }),
    );
    // Names are unique in a facility: they match each new id to its row whatever the order.
    const inserted = await q.query<{ id: number; name: string }>(
      `insert into ${def.table} (facility_id, created_by, updated_by, ${columns.join(', ')})
       select $2::int, $3::int, $3::int, ${columns.map((c) => `v.${c}`).join(', ')}
         from ${recordsetOf(def.table, 1, 'v')} order by v.ordinality returning id, name`,
      [param, scope.facilityId, actor.userId],
    );
    const idByName = new Map(inserted.map((r) => [r.name.toLowerCase(), r.id]));
    const chunkIds = chunk.map((values) => idByName.get(String(values.name).toLowerCase())!);
    ids.push(...chunkIds);
    // Each batch's audit rows follow it, so none is built for the whole import at once; the
    // audit trail holds the same rows in the same order as when all of them came last.
    await writeAuditMany(
      q,
      actor,
      chunk.map((values, i) => ({
        planId: scope.planId,
        facilityId: scope.facilityId,
        domain: def.domain,
        action: 'Create' as const,
        entityId: chunkIds[i] ?? null,
        reason,
        newValues: Object.fromEntries(def.fields.map((f) => [f.name, values[f.name] ?? null])),
      })),
    );
  }
  return ids;
}
