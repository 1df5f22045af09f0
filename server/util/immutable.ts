/*
 * Values frozen all the way down, arrays among them marked so that code can rely on it: a
 * response writer may keep the JSON of such an array and write it again (response-serializer.ts).
 */

const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` and everything it holds; marks the arrays then wholly frozen; says whether it is. */
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
  // Only arrays are asked (response-serializer.ts keeps an array's JSON): a kept list page's
  // ten records and their values were ten times the marks, each a weak entry the collector
  // visits (issue 34).
  if (whole && Array.isArray(value)) deeplyFrozen.add(value);
  return whole;
}

/** Freezes `value` and everything it holds; returns it. */
export function freezeDeep<T>(value: T): T {
  freeze(value);
  return value;
}

/** Whether the array `value` was frozen by freezeDeep, all the way down (so can never change). */
export function isDeeplyFrozen(value: object): boolean {
  return deeplyFrozen.has(value);
}
