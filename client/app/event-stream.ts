/* Reading a server-sent event stream (GET {F}/events) and pacing its reconnects. */

export interface StreamEvent {
  event: string;
  data: string;
}

/**
 * Splits server-sent event text into events; answers them and the unfinished rest, which the
 * next chunk continues. Comment lines (the heartbeats) carry nothing.
 */
export function parseEventStream(text: string): { events: StreamEvent[]; rest: string } {
  const events: StreamEvent[] = [];
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The wait before reconnect attempt `attempt` (0-based): doubling, capped, with jitter so
 * that every browser does not come back in the same second after a restart. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  return Math.round(base / 2 + random() * (base / 2));
}
