import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';

/** The fields the server sorts by (text, enum and number columns); others are not offered. */
export function isSortable(field: FieldDef): boolean {
  return field.kind === 'text' || field.kind === 'enum' || field.kind === 'number';
}

/** The declared fields of the list's columns, in the declaration's column order. */
export function listFields(def: EntityDef): FieldDef[] {
  return def.listColumns
    .map((name) => def.fields.find((field) => field.name === name))
    .filter((field): field is FieldDef => field !== undefined);
}

/** The entities whose names the given fields show (references, also inside lists). */
export function referencedEntities(fields: readonly FieldDef[]): string[] {
  const keys = new Set<string>();
  for (const field of fields) {
    if (field.kind === 'reference') keys.add(field.entity);
    if (field.kind === 'list') for (const key of referencedEntities(field.of)) keys.add(key);
  }
  return [...keys];
}

/** antd's sort order ↔ the server's. */
export function toServerOrder(order: 'ascend' | 'descend' | null | undefined) {
  return order === 'ascend' ? 'asc' : order === 'descend' ? 'desc' : undefined;
}
