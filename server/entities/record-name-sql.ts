import { AUDIT_DEFS, nameFieldOf } from '#core/audit/audit-format.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf, type FieldDef } from '#core/entities/field.ts';

/**
 * A declared record's name as an SQL expression over its row (`row`: the table or its alias),
 * or null where it has none: the column of `field` (its name field unless told), or for a
 * record named by what it references (`EntityDef.nameFrom`, a step's substance) the name of the
 * first referenced record that is set. Where-used lists and the audit trail name records with it.
 */
export function recordNameSql(
  def: EntityDef,
  row: string,
  field: FieldDef | undefined = nameFieldOf(def),
): string | null {
  if (!def.nameFrom) return field ? `${row}.${columnOf(field)}::text` : null;
  const names = def.nameFrom.flatMap((name) => {
    const reference = def.fields.find((f) => f.name === name);
    const target =
      reference?.kind === 'reference' ? AUDIT_DEFS.find((d) => d.key === reference.entity) : null;
    const targetName = target ? nameFieldOf(target) : undefined;
    if (!reference || !target || !targetName) return [];
    return [
      `(select named.${columnOf(targetName)}::text from ${target.table} named
         where named.id = ${row}.${columnOf(reference)})`,
    ];
  });
  return names.length === 0 ? null : `coalesce(${names.join(', ')})`;
}
