/**
 * `make` run once per key object, its result kept while the key lives: zod schemas do not change
 * once made, and every app built in a process (a start, each test file's) and every staged change
 * or import asks for the same ones of each declared record and field.
 */
export function madeOnce<K extends object, T>(make: (key: K) => T): (key: K) => T {
  const made = new WeakMap<K, T>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}
