import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import type { PropertyError } from '#core/errors/errors.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import {
  parsePropertyPath,
  propertyHeading,
  type PropertyPath,
} from '#core/errors/property-path.ts';

/**
 * The form item a server property path belongs to, or null when the form has none (version,
 * reason, an unknown property): those messages are shown above the form instead. A quantity is
 * two items, value and unit; an error on the quantity as a whole goes on its value.
 */
export function formPathOf(
  def: EntityDef,
  property: string,
  propertyFields: readonly FieldDef[] = [],
): PropertyPath | null {
  const segments = parsePropertyPath(property);
  if (segments[0] === 'additionalProperties' && segments.length > 1) {
    // `additionalProperties.<key>`: the input of that definition, when the form shows one.
    const field = propertyFields.find((candidate) => candidate.name === segments[1]);
    if (!field) return null;
    const path: PropertyPath = ['additionalProperties', field.name];
    return field.kind === 'quantity' ? [...path, segments[2] === 'unit' ? 'unit' : 'value'] : path;
  }
  let fields: readonly FieldDef[] = def.fields;
  const path: PropertyPath = [];
  for (let i = 0; i < segments.length; i += 1) {
    const name = segments[i];
    const field = fields.find((candidate) => candidate.name === name);
    if (!field) return null;
    path.push(field.name);
    const rest = segments.slice(i + 1);
    switch (field.kind) {
      case 'quantity': {
        const part = rest[0];
        return [...path, part === 'unit' ? 'unit' : 'value'];
      }
      case 'list': {
        const index = rest[0];
        if (typeof index !== 'number' || rest.length < 2) return path;
        path.push(index);
        fields = field.of;
        i += 1;
        break;
      }
      default:
        // `equipmentIds[1]`: the select holds every id, so the message goes on the select.
        return path;
    }
  }
  return path.length > 0 ? path : null;
}

export interface MappedErrors {
  fields: { name: PropertyPath; errors: string[] }[];
  /** Messages for properties that have no form item. */
  general: string[];
}

/** The form's labels by field name, lists' fields too, as a sentence uses them. */
function fieldLabels(fields: readonly FieldDef[], into = new Map<string, string>()) {
  for (const field of fields) {
    into.set(field.name, lowerLabel(field.label));
    if (field.kind === 'list') fieldLabels(field.of, into);
  }
  return into;
}

/** Spec §5: the per-property messages of DataValidationError/DuplicateEntryError on their fields. */
export function mapPropertyErrors(
  def: EntityDef,
  errors: readonly PropertyError[] | undefined,
  propertyFields: readonly FieldDef[] = [],
): MappedErrors {
  const byPath = new Map<string, { name: PropertyPath; errors: string[] }>();
  const general: string[] = [];
  const labels = fieldLabels([...def.fields, ...propertyFields]);
  const label = (name: string) => labels.get(name);
  for (const error of errors ?? []) {
    const messages = Object.values(error.constraints ?? {});
    const name = formPathOf(def, error.property, propertyFields);
    if (!name) {
      const where = error.property ? `${propertyHeading(error.property, { label })}: ` : '';
      general.push(...messages.map((m) => `${where}${m}`));
      continue;
    }
    const key = JSON.stringify(name);
    const entry = byPath.get(key) ?? { name, errors: [] };
    entry.errors.push(...messages);
    byPath.set(key, entry);
  }
  return { fields: [...byPath.values()], general };
}
