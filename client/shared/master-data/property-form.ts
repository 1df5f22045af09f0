import type { FieldDef } from '#core/entities/field.ts';
import type { TPropertyDefinition } from '#core/schemas/additional-properties.schemas.ts';
import type { EntityRecord } from './entity-api.ts';
import { initialValue, normaliseField, type FormValues } from './form-values.ts';

/** Where the form keeps the additional properties: a nested object, as the server takes them. */
export const PROPERTIES = 'additionalProperties';

/** A definition as a field of the generic form, so FieldInput renders it by kind. */
export function propertyField(definition: TPropertyDefinition): FieldDef {
  const base = {
    name: definition.key,
    label: definition.label,
    required: definition.required && !definition.archived,
    ...(definition.helpText ? { description: definition.helpText } : {}),
  };
  switch (definition.kind) {
    case 'text':
      return { ...base, kind: 'text', max: 1000 };
    case 'number':
      return { ...base, kind: 'number' };
    case 'date':
      return { ...base, kind: 'text', max: 10, description: definition.helpText || 'YYYY-MM-DD' };
    case 'select':
      return { ...base, kind: 'enum', options: definition.options };
    case 'quantity':
      return { ...base, kind: 'quantity', measure: definition.measure ?? 'strength' };
  }
}

function storedValues(record: EntityRecord | null | undefined): Record<string, unknown> {
  return (record?.[PROPERTIES] as Record<string, unknown> | undefined) ?? {};
}

/** Starting values of the active definitions' inputs. */
export function initialPropertyValues(
  definitions: readonly TPropertyDefinition[],
  record: EntityRecord | null | undefined,
): FormValues {
  const stored = storedValues(record);
  return Object.fromEntries(
    definitions
      .filter((d) => !d.archived)
      .map((d) => [d.key, initialValue(propertyField(d), stored[d.key])]),
  );
}

/** The values a create sends: every active definition that has one. */
export function propertyCreateValues(
  definitions: readonly TPropertyDefinition[],
  values: FormValues,
): Record<string, unknown> {
  const form = (values[PROPERTIES] ?? {}) as FormValues;
  const out: Record<string, unknown> = {};
  for (const d of definitions.filter((x) => !x.archived)) {
    const value = normaliseField(propertyField(d), form[d.key]);
    if (value !== null) out[d.key] = value;
  }
  return out;
}

/** The keys an edit changes (null clears one); archived definitions are read-only. */
export function propertyChanges(
  definitions: readonly TPropertyDefinition[],
  record: EntityRecord,
  values: FormValues,
): Record<string, unknown> {
  const stored = storedValues(record);
  const form = (values[PROPERTIES] ?? {}) as FormValues;
  const out: Record<string, unknown> = {};
  for (const d of definitions.filter((x) => !x.archived)) {
    const field = propertyField(d);
    const next = normaliseField(field, form[d.key]);
    const before = normaliseField(field, stored[d.key]);
    if (JSON.stringify(sorted(next)) !== JSON.stringify(sorted(before))) out[d.key] = next;
  }
  return out;
}

function sorted(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

/** Archived definitions with a value on this record: shown, never edited. */
export function archivedValues(
  definitions: readonly TPropertyDefinition[],
  record: EntityRecord | null | undefined,
): { definition: TPropertyDefinition; value: unknown }[] {
  const stored = storedValues(record);
  return definitions
    .filter((d) => d.archived && stored[d.key] !== undefined && stored[d.key] !== null)
    .map((definition) => ({ definition, value: stored[definition.key] }));
}
