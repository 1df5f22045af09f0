/* Pacing the reconnects of the facility's event stream (client/app/live-updates.ts). */

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The wait before reconnect attempt `attempt` (0-based): doubling, capped, with jitter so
 * that every browser does not come back in the same second after a restart. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(base / 2 + random() * (base / 2));
}
