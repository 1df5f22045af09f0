import { MODULE_RECORD_DEFS, RECORD_DEFS } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf } from '#core/entities/field.ts';
import { referringFields, type ReferringField } from '#core/entities/where-used.ts';
import {
  WHERE_USED_LIMIT,
  type TWhereUsed,
  type TWhereUsedGroup,
} from '#core/schemas/where-used.schemas.ts';
import type { Queryable, SqlValue } from '../db/db.ts';
import { recordNameSql } from './record-name-sql.ts';

// A facility's record is named only by records of the same facility; a plan's records are not.
const FACILITY_DEFS = [...RECORD_DEFS, ...MODULE_RECORD_DEFS].filter((def) => def.scope !== 'plan');

/** The fields of the facility's records that name records of `def`. */
export function referrersOf(def: EntityDef): ReferringField[] {
  return referringFields(def.key, FACILITY_DEFS);
}

/** The condition "this field names record $2", and the value $2 takes. */
function condition({ field, inner }: ReferringField, id: number): [string, SqlValue] {
  const column = columnOf(field);
  if (!inner) {
    const multiple = field.kind === 'reference' && field.multiple;
    return [multiple ? `$2::int = any(${column})` : `${column} = $2::int`, id];
  }
  // A list is stored as jsonb: a row whose list holds an item naming the id.
  const value = inner.kind === 'reference' && inner.multiple ? [id] : id;
  return [`${column} @> $2::jsonb`, JSON.stringify([{ [inner.name]: value }])];
}

/**
 * What a record is called in the list: its name, else its first text field, else what it is
 * named by (a step's substance: its active or intermediate).
 */
function nameSql(def: EntityDef): string | null {
  const text =
    def.fields.find((f) => f.name === 'name') ?? def.fields.find((f) => f.kind === 'text');
  return recordNameSql(def, def.table, text);
}

/** Samples and sampling locations are shown on their equipment's page. */
function hasEquipment(def: EntityDef): boolean {
  return def.fields.some((f) => f.name === 'equipmentId' && f.kind === 'integer');
}

async function groupOf(
  q: Queryable,
  referrer: ReferringField,
  facilityId: number,
  id: number,
): Promise<TWhereUsedGroup> {
  const { def, field } = referrer;
  const [where, value] = condition(referrer, id);
  const name = nameSql(def);
  const rows = await q.query<{
    id: number;
    name: string | null;
    equipment_id?: number;
    total: number;
  }>(
    `select id, ${name ?? 'null'} as name,
        ${hasEquipment(def) ? 'equipment_id,' : ''} count(*) over ()::int as total
      from ${def.table}
      where facility_id = $1 and archived_at is null and ${where}
      order by ${name ? `lower(${name}), ` : ''}id limit $3`,
    [facilityId, value, WHERE_USED_LIMIT],
  );
  return {
    entity: def.key,
    label: def.pluralLabel,
    field: referrer.inner ? `${field.label}: ${referrer.inner.label}` : field.label,
    records: rows.map((row) => ({
      id: row.id,
      name: row.name ?? `${def.label} ${row.id}`,
      ...(typeof row.equipment_id === 'number' ? { equipmentId: row.equipment_id } : {}),
    })),
    total: rows[0]?.total ?? 0,
  };
}

/**
 * The live records of the facility that name record `id` of `def`, kind by kind, leaving out
 * the kinds the caller may not read, the kinds that do not name it, and the referring fields
 * `only` does not accept (an archive asks only for the uses that move limits).
 */
export async function listWhereUsed(
  q: Queryable,
  options: {
    def: EntityDef;
    facilityId: number;
    id: number;
    canRead: (def: EntityDef) => boolean;
    only?: (referrer: ReferringField) => boolean;
  },
): Promise<TWhereUsed> {
  const { def, facilityId, id, canRead, only = () => true } = options;
  const groups: TWhereUsedGroup[] = [];
  for (const referrer of referrersOf(def)) {
    if (!canRead(referrer.def) || !only(referrer)) continue;
    const group = await groupOf(q, referrer, facilityId, id);
    if (group.total > 0) groups.push(group);
  }
  return { usedBy: groups };
}
