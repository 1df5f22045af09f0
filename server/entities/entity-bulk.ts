import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf, type FieldDef } from '#core/entities/field.ts';
import type { Queryable, SqlValue } from '../db/db.ts';
import { writeAuditMany } from '../modules/audit/audit-bulk.ts';
import type { Actor } from '../db/audit-write.ts';
import { encode, type Scope } from './entity-store.ts';

function sqlType(field: FieldDef): string {
  switch (field.kind) {
    case 'number':
      return 'float8';
    case 'integer':
      return 'int';
    case 'boolean':
      return 'boolean';
    case 'quantity':
    case 'list':
      return 'jsonb';
    case 'reference':
      return field.multiple ? 'int[]' : 'int';
    default:
      return 'text';
  }
}

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
  // A multi-row VALUES list types its parameters as text unless told: cast each one.
  const types = ['int', 'int', 'int', ...def.fields.map(sqlType)];
  const perRow = types.length;
  const chunkSize = Math.max(1, Math.floor(60_000 / perRow));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const params: SqlValue[] = [];
    const tuples = chunk.map((values) => {
      const first = params.length + 1;
      params.push(
        scope.facilityId,
        actor.userId,
        actor.userId,
        ...def.fields.map((f) => encode(f, values[f.name])),
      );
      return `(${types.map((type, i) => `$${first + i}::${type}`).join(', ')})`;
    });
    // Names are unique in a facility: they match each new id to its row whatever the order.
    const inserted = await q.query<{ id: number; name: string }>(
      `insert into ${def.table} (facility_id, created_by, updated_by, ${columns.join(', ')})
       values ${tuples.join(', ')} returning id, name`,
      params,
    );
    const idByName = new Map(inserted.map((r) => [r.name.toLowerCase(), r.id]));
    for (const values of chunk) ids.push(idByName.get(String(values.name).toLowerCase())!);
  }
  await writeAuditMany(
    q,
    actor,
    rows.map((values, i) => ({
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: def.domain,
      action: 'Create',
      entityId: ids[i] ?? null,
      reason,
      newValues: Object.fromEntries(def.fields.map((f) => [f.name, values[f.name] ?? null])),
    })),
  );
  return ids;
}
