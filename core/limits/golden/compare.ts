/**
 * Structural comparison for the golden cases: the same keys, arrays and strings, and numbers
 * that agree to a relative tolerance (the contract's 1e-6). Returns every difference with its
 * path, so a failing case says exactly where it differs.
 */
export function differences(
  actual: unknown,
  expected: unknown,
  relTol: number,
  path = '',
): string[] {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(Math.abs(actual), Math.abs(expected));
    return Math.abs(actual - expected) <= relTol * scale
      ? []
      : [`${path}: ${actual} ≠ ${expected}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array`];
    if (actual.length !== expected.length) {
      return [`${path}: length ${actual.length} ≠ ${expected.length}`];
    }
    return expected.flatMap((e, i) => differences(actual[i], e, relTol, `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
    return [...keys].flatMap((k) =>
      k in e && k in a
        ? differences(a[k], e[k], relTol, `${path}.${k}`)
        : [`${path}.${k}: ${k in e ? 'missing' : 'unexpected'}`],
    );
  }
  return Object.is(actual, expected)
    ? []
    : [`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`];
}
