/**
 * Browser storage for unit tests, which run in Node without it: the calls the session code
 * makes, kept in a Map the test can clear.
 */
export function memoryStorage(): { storage: Storage; entries: Map<string, string> } {
  const entries = new Map<string, string>();
  const storage = {
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  } as Storage;
  return { storage, entries };
}
