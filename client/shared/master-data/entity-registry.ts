import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';

export { lowerLabel } from '#core/entities/labels.ts';

/** The declared entity a reference points to (references name the entity's key). */
export function referencedDef(entityKey: string): EntityDef | undefined {
  return ENTITY_DEFS.find((def) => def.key === entityKey);
}

/** The entity of a master-data route segment (its API path, e.g. 'apis', 'equipments'). */
export function defByPath(path: string | undefined): EntityDef | undefined {
  return ENTITY_DEFS.find((def) => def.path === path);
}
