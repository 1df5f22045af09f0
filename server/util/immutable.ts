/*
 * Values frozen all the way down, marked so that code can rely on it: a response writer may
 * keep the JSON of such a value and write it again (response-serializer.ts).
 */

const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` and everything it holds; marks what is then wholly frozen, and says so. */
function freeze(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || deeplyFrozen.has(value)) return true;
  // Only arrays and plain objects hold nothing but their properties (a Date or a Map has
  // state that freezing leaves changeable; a typed array cannot be frozen): what holds
  // anything else stays unmarked.
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  let whole = true;
  for (const inner of Object.values(value)) whole = freeze(inner) && whole;
  Object.freeze(value);
  if (whole) deeplyFrozen.add(value);
  return whole;
}

/** Freezes `value` and everything it holds; returns it. */
export function freezeDeep<T>(value: T): T {
  freeze(value);
  return value;
}

/** Whether `value` was frozen by freezeDeep, all the way down (so can never change). */
export function isDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}
