import type { EntityDef } from '#core/entities/entity.ts';
import { applyPropertyValues, type PropertyValues } from '#core/entities/property-values.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '../db/db.ts';
import { definitionsFor } from './property-definitions.ts';

const PREFIX = 'additionalProperties.';

/** The extra column of an entity that carries the facility's additional properties. */
export function propertiesColumn(def: EntityDef): string {
  return def.propertyTarget ? ', additional_properties' : '';
}

export function readProperties(def: EntityDef, row: Record<string, unknown>): PropertyValues {
  return def.propertyTarget ? ((row.additional_properties as PropertyValues | null) ?? {}) : {};
}

/**
 * The values to store after a create (incoming may be absent) or an edit (undefined when the
 * edit does not touch them), checked against the facility's definitions in this transaction.
 */
export async function checkedProperties(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  previous: PropertyValues | undefined,
  incoming: unknown,
): Promise<PropertyValues | undefined> {
  if (!def.propertyTarget) return undefined;
  const creating = previous === undefined;
  if (!creating && incoming === undefined) return undefined;
  const definitions = await definitionsFor(q, facilityId, def.propertyTarget);
  const { values, problems } = applyPropertyValues(
    definitions,
    previous ?? {},
    (incoming ?? {}) as PropertyValues,
  );
  if (problems.length > 0) throw validationError(problems);
  return values;
}

/** One audit entry per property, `additionalProperties.<key>`, like the other fields. */
export function flatProperties(
  values: PropertyValues,
  keys: Iterable<string> = Object.keys(values),
): Record<string, unknown> {
  return Object.fromEntries([...keys].map((key) => [`${PREFIX}${key}`, values[key] ?? null]));
}

/** The flat entries of an edit: every key that was there before or is there now. */
export function editedProperties(before: PropertyValues, after: PropertyValues) {
  return flatProperties(after, new Set([...Object.keys(before), ...Object.keys(after)]));
}

export function touchesProperties(changed: Record<string, unknown>): boolean {
  return Object.keys(changed).some((key) => key.startsWith(PREFIX));
}
