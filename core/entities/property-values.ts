import type { PropertyError } from '../errors/errors.ts';
import type { TPropertyDefinition } from '../schemas/additional-properties.schemas.ts';
import { MEASURES } from '../units/measures.ts';

export type PropertyValues = Record<string, unknown>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function canonical(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The problem with one value of a definition's kind, or undefined when it is fine. */
export function valueProblem(definition: TPropertyDefinition, value: unknown): string | undefined {
  switch (definition.kind) {
    case 'text':
      if (typeof value !== 'string') return 'must be a text';
      if (value.trim().length === 0) return `${definition.label} cannot be empty`;
      return value.length > 1000 ? 'must be at most 1000 characters' : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'date':
      return typeof value === 'string' && isDate(value)
        ? undefined
        : 'must be a date as YYYY-MM-DD';
    case 'select':
      return typeof value === 'string' && definition.options.includes(value)
        ? undefined
        : `must be one of ${definition.options.join(', ')}`;
    case 'quantity': {
      const measure = definition.measure ? MEASURES[definition.measure] : undefined;
      const q = value as { value?: unknown; unit?: unknown } | null;
      if (!measure || !q || typeof q !== 'object' || Array.isArray(q))
        return 'must be a quantity with a value and a unit';
      if (Object.keys(q).some((k) => k !== 'value' && k !== 'unit'))
        return 'must be a quantity with a value and a unit';
      if (typeof q.value !== 'number' || !Number.isFinite(q.value)) return 'must be a number';
      if (q.value < 0) return 'must not be negative';
      const allowed = measure.allowed as readonly string[];
      if (typeof q.unit !== 'string' || !allowed.includes(q.unit))
        return `must be one of ${allowed.join(', ')} (${measure.label})`;
      return undefined;
    }
  }
}

/**
 * Checks the additional property values a create or an edit sends against the facility's
 * definitions and gives the values to store. An edit names only the keys it changes (null
 * clears one); values of archived definitions are kept but can no longer be changed. Required
 * definitions are checked on a create, and on an edit that touches the additional properties.
 */
export function applyPropertyValues(
  definitions: readonly TPropertyDefinition[],
  previous: PropertyValues,
  incoming: PropertyValues,
): { values: PropertyValues; problems: PropertyError[] } {
  const problems: PropertyError[] = [];
  const values: PropertyValues = { ...previous };
  const problem = (key: string, rule: string, message: string) =>
    problems.push({ property: `additionalProperties.${key}`, constraints: { [rule]: message } });
  for (const [key, raw] of Object.entries(incoming)) {
    if (raw === undefined) continue;
    const value = typeof raw === 'string' && raw.trim() === '' ? null : raw;
    const definition = definitions.find((d) => d.key === key);
    if (!definition) {
      problem(key, 'unknown', `'${key}' is not an additional property of this facility`);
      continue;
    }
    if (definition.archived) {
      if (canonical(previous[key]) !== canonical(value))
        problem(key, 'archived', `${definition.label} is archived; its value is kept read-only`);
      continue;
    }
    if (value === null) {
      delete values[key];
      continue;
    }
    const wrong = valueProblem(definition, value);
    if (wrong) problem(key, 'kind', wrong);
    else values[key] = typeof value === 'string' ? value.trim() : value;
  }
  for (const definition of definitions) {
    if (!definition.required || definition.archived) continue;
    const value = values[definition.key];
    const reported = problems.some((p) => p.property === `additionalProperties.${definition.key}`);
    if ((value === undefined || value === null) && !reported)
      problem(definition.key, 'required', `${definition.label} is required`);
  }
  return { values, problems };
}
