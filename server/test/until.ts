/**
 * Reads `read` every `everyMs` until `ok` holds, and answers that value; throws with the last
 * value once `withinMs` has passed. For tests that wait on another worker or process.
 */
export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  { withinMs = 20_000, everyMs = 100 }: { withinMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
