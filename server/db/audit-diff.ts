import { AppError } from '#core/errors/errors.ts';

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * The fields an edit changes, old and new, for the audit row (one entry per changed field).
 * Fields the edit does not mention are not changes. No change at all is NothingToChangeError.
 */
export function changedFields(
  before: Record<string, unknown>,
  edit: Record<string, unknown>,
): { oldValues: Record<string, unknown>; newValues: Record<string, unknown> } {
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(edit)) {
    if (value === undefined || same(before[field], value)) continue;
    oldValues[field] = before[field] ?? null;
    newValues[field] = value;
  }
  if (Object.keys(newValues).length === 0) {
    throw new AppError(
      'NothingToChangeError',
      'No changes have been made from the current values. Please check all fields and try again.',
    );
  }
  return { oldValues, newValues };
}
