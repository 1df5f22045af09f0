import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import { MEASURES } from '#core/units/measures.ts';
import type { EntityRecord } from './entity-api.ts';

/** What the antd form holds: field name → the value of its form item(s). */
export type FormValues = Record<string, unknown>;

/** A quantity as the form holds it: the unit is always chosen, the value may still be empty. */
export interface QuantityFormValue {
  value?: number | null;
  unit: string;
}

function emptyQuantity(field: Extract<FieldDef, { kind: 'quantity' }>): QuantityFormValue {
  return { value: null, unit: MEASURES[field.measure].default };
}

/** A new row of a list field: its quantities start in their default units. */
export function newListRow(field: Extract<FieldDef, { kind: 'list' }>): FormValues {
  return Object.fromEntries(
    field.of.filter((sub) => sub.kind === 'quantity').map((sub) => [sub.name, emptyQuantity(sub)]),
  );
}

export function initialValue(field: FieldDef, value: unknown): unknown {
  switch (field.kind) {
    case 'quantity':
      return value && typeof value === 'object'
        ? { ...emptyQuantity(field), ...(value as object) }
        : emptyQuantity(field);
    case 'list':
      return Array.isArray(value)
        ? value.map((row: unknown) => ({
            ...newListRow(field),
            ...Object.fromEntries(
              field.of.map((sub) => [
                sub.name,
                initialValue(sub, (row as Record<string, unknown> | null)?.[sub.name]),
              ]),
            ),
          }))
        : [];
    case 'reference':
      return field.multiple ? (Array.isArray(value) ? value : []) : (value ?? undefined);
    default:
      return value ?? undefined;
  }
}

/** The form's starting values: a record's values, or empty ones with default units preselected. */
export function initialFormValues(def: EntityDef, record?: EntityRecord | null): FormValues {
  return Object.fromEntries(def.fields.map((f) => [f.name, initialValue(f, record?.[f.name])]));
}

/**
 * One field's value as the server takes it, or null when it is empty: a blank text, a quantity
 * without a number, an empty selection. Null clears the field on an edit.
 */
export function normaliseField(field: FieldDef, raw: unknown): unknown {
  if (raw === undefined || raw === null) return null;
  switch (field.kind) {
    case 'text':
    case 'longText': {
      const text = String(raw).trim();
      return text === '' ? null : text;
    }
    case 'number':
    case 'integer':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case 'boolean':
      return Boolean(raw);
    case 'enum':
      return raw === '' ? null : raw;
    case 'quantity': {
      const q = raw as Partial<QuantityFormValue>;
      return typeof q.value === 'number' && Number.isFinite(q.value)
        ? { value: q.value, unit: q.unit ?? MEASURES[field.measure].default }
        : null;
    }
    case 'reference':
      if (field.multiple) return Array.isArray(raw) && raw.length > 0 ? raw : null;
      return raw;
    case 'list': {
      if (!Array.isArray(raw) || raw.length === 0) return null;
      return raw.map((row: unknown) => {
        const values = (row ?? {}) as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const sub of field.of) {
          const value = normaliseField(sub, values[sub.name]);
          if (value !== null) out[sub.name] = value;
        }
        return out;
      });
    }
  }
}

/** The body of a create: every field that has a value (the server fills the rest with null). */
export function createBody(def: EntityDef, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of def.fields) {
    const value = normaliseField(field, values[field.name]);
    if (value !== null) body[field.name] = value;
  }
  return body;
}

/** JSON with sorted keys, so {unit, value} and {value, unit} compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * The fields an edit changes, compared with the record it was made from: an edit names only
 * what changed (the audit trail records field by field), and an empty result means nothing to save.
 */
export function changedFields(
  def: EntityDef,
  record: EntityRecord,
  values: FormValues,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of def.fields) {
    const next = normaliseField(field, values[field.name]);
    const before = normaliseField(field, record[field.name]);
    if (canonical(next) !== canonical(before)) changes[field.name] = next;
  }
  return changes;
}
