/**
 * Promise.all over named reads: each result under its read's name, so that a list of reads run
 * at once is not written twice (once as promises, once as the names that take their results).
 */
export async function allNamed<T extends Record<string, unknown>>(reads: {
  [K in keyof T]: T[K] | Promise<T[K]>;
}): Promise<T> {
  const keys = Object.keys(reads) as (keyof T)[];
  const values = await Promise.all(keys.map((key) => reads[key]));
  return Object.fromEntries(keys.map((key, i) => [key, values[i]])) as T;
}
