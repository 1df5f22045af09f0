/** Structural equality of JSON-like values (what a form and the server exchange). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  return keysA.every((key) => key in recordB && deepEqual(recordA[key], recordB[key]));
}

/**
 * The top-level fields whose value differs from the document as loaded. A nested field (a
 * quantity, the limit representation) is sent whole, because the server replaces a top-level
 * field as a unit. Fields in `never` are not sent even if the form holds another value (the
 * Intermediate safety factor is fixed by the server).
 */
export function changedFields<T extends object>(
  original: T,
  edited: Partial<T>,
  never: readonly (keyof T)[] = [],
): Partial<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(edited) as (keyof T)[]) {
    if (never.includes(key) || !(key in original)) continue;
    if (!deepEqual(original[key], edited[key])) changes[key] = edited[key];
  }
  return changes;
}

/**
 * After a version conflict: the current document with the user's own changes laid over it, so
 * reloading loses none of their edits.
 */
export function rebase<T extends object>(loaded: T, current: T, edited: Partial<T>): T {
  return { ...current, ...changedFields(loaded, edited) };
}
