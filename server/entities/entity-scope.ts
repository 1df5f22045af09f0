import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf } from '#core/entities/field.ts';
import type { Scope } from './entity-store.ts';

/*
 * Where a declared record lives (EntityDef.scope): rows of a facility (facility_id), of a plan
 * (plan_id), or of a parent record in a facility (facility_id and the parent's reference field).
 */

/** The scope of a write: plan-scoped records need no facility, child records name their parent. */
export interface RecordScope {
  planId: number;
  facilityId?: number | undefined;
  parentId?: number | undefined;
}

export function ownerColumn(def: EntityDef): 'plan_id' | 'facility_id' {
  return def.scope === 'plan' ? 'plan_id' : 'facility_id';
}

/** The id the owner column holds for a write in `scope`. */
export function ownerId(def: EntityDef, scope: RecordScope): number {
  if (def.scope === 'plan') return scope.planId;
  if (scope.facilityId === undefined) throw new Error(`${def.key} records need a facility`);
  return scope.facilityId;
}

/** The facility scope a facility's (or a parent's) record is written in; null for a plan's. */
export function facilityScope(def: EntityDef, scope: RecordScope): Scope | null {
  return def.scope === 'plan' ? null : { planId: scope.planId, facilityId: ownerId(def, scope) };
}

/** The field naming a child record's parent, or null. */
export function parentField(def: EntityDef): string | null {
  return typeof def.scope === 'object' ? def.scope.parent : null;
}

/** The values to insert: a child record's parent comes from the scope when it names one. */
export function valuesInScope(
  def: EntityDef,
  scope: RecordScope,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const parent = parentField(def);
  if (!parent || scope.parentId === undefined) return values;
  return { ...values, [parent]: scope.parentId };
}

/** The column a unique field is unique under, beside the owner: the parent's, for child records. */
export function uniqueUnder(def: EntityDef): string | null {
  const parent = parentField(def);
  return parent ? columnOf({ name: parent }) : null;
}
