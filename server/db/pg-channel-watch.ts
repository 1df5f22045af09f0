import pg from 'pg';

/*
 * One connection of its own that LISTENs on a channel of a PostgreSQL server for as long as the
 * watch is open, and connects again after losing the server. Notifications are what other
 * clients' commits announce; a caller that keeps what it read must know whether it could have
 * missed one, so every change of state (listening or not) is reported as a notification too.
 */

export interface ChannelWatch {
  /** True while LISTEN is in force: every later commit's notification will arrive. */
  readonly listening: boolean;
  close(): Promise<void>;
}

const RETRY_MS = 1000;

export function watchChannel(
  connectionString: string,
  channel: string,
  onNotice: () => void,
  onError?: (error: Error) => void,
): ChannelWatch {
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lose = (lost: pg.Client, error?: Error) => {
    if (client !== lost) return;
    client = null;
    listening = false;
    onNotice();
    if (error) onError?.(error);
    lost.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, RETRY_MS).unref();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const attempt = new pg.Client({ connectionString });
    client = attempt;
    attempt.on('error', (error) => lose(attempt, error));
    attempt.on('end', () => lose(attempt));
    attempt.on('notification', () => onNotice());
    try {
      await attempt.connect();
      await attempt.query(`listen ${channel}`);
    } catch (error) {
      lose(attempt, error as Error);
      return;
    }
    if (client !== attempt) return;
    listening = true;
    onNotice();
  }

  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      listening = false;
      await open?.end().catch(() => undefined);
    },
  };
}
