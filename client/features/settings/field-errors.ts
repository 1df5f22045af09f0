import { isApiError } from '../../api/api-error.ts';

export type FieldPath = (string | number)[];

/** 'passwordPolicySettings.minCapital' or 'allowedDomains[1]' → an antd name path. */
export function fieldPath(property: string): FieldPath {
  return property
    .split(/\.|\[(\d+)\]/)
    .filter((part): part is string => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * DataValidationError's per-property messages as antd `setFields` entries (spec §5), so each
 * message shows under its own field. A list edited in one field (tags) gets its items' messages,
 * numbered from 1, because the form has no field per item.
 */
export function formFieldErrors(error: unknown): { name: FieldPath; errors: string[] }[] {
  if (!isApiError(error) || !error.errors) return [];
  const byField = new Map<string, { name: FieldPath; errors: string[] }>();
  for (const item of error.errors) {
    const path = fieldPath(item.property);
    const last = path[path.length - 1];
    const isItem = typeof last === 'number' && path.length > 1;
    const name = isItem ? path.slice(0, -1) : path;
    const messages = Object.values(item.constraints ?? {}).map((message) =>
      isItem ? `Item ${last + 1}: ${message}` : message,
    );
    const key = JSON.stringify(name);
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(...messages);
    byField.set(key, entry);
  }
  return [...byField.values()];
}
