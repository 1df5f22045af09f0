import type { EntityDef } from './entity.ts';
import type { FieldDef } from './field.ts';

/**
 * A field of one declared record that names records of another: a reference at the top
 * (`productions.equipmentIds`), or inside a list (`products.actives[].activeId`).
 */
export interface ReferringField {
  def: EntityDef;
  /** The top-level field. */
  field: FieldDef;
  /** The reference inside the list, when the top-level field is a list. */
  inner?: FieldDef;
}

/** Every field of the given declarations that names records of `entityKey`. */
export function referringFields(entityKey: string, defs: readonly EntityDef[]): ReferringField[] {
  const found: ReferringField[] = [];
  for (const def of defs) {
    for (const field of def.fields) {
      if (field.kind === 'reference' && field.entity === entityKey) found.push({ def, field });
      if (field.kind === 'list') {
        for (const inner of field.of)
          if (inner.kind === 'reference' && inner.entity === entityKey)
            found.push({ def, field, inner });
      }
    }
  }
  return found;
}
