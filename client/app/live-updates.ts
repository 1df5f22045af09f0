import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiUrl } from '../api/http-client.ts';
import { getToken } from '../session/session-store.ts';
import { parseEventStream, retryDelay } from './event-stream.ts';

/** One event of `GET {F}/events`: which record moved (never its content). */
export interface LiveChange {
  kind: string;
  id: number;
  version: number;
}

// No heartbeat for this long (the server sends one every 15 s): the connection is dead even if
// the socket does not say so (a sleeping laptop, a proxy that dropped it).
const SILENCE_MS = 45_000;

interface Handlers {
  /** The stream is listening: after a reconnect, what was missed meanwhile is read again. */
  onReady(): void;
  onChange(change: LiveChange): void;
}

/**
 * Holds the facility's event stream open, reconnecting with backoff, until `signal` aborts.
 * fetch rather than EventSource: the session token goes in its header like every other call,
 * and the backoff is ours.
 */
export async function followFacility(
  path: string,
  handlers: Handlers,
  signal: AbortSignal,
): Promise<void> {
  let attempt = 0;
  while (!signal.aborted) {
    const silence = new AbortController();
    let silenceTimer: ReturnType<typeof setTimeout> | undefined;
    const heardSomething = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => silence.abort(), SILENCE_MS);
    };
    try {
      const token = getToken();
      const response = await fetch(apiUrl(path), {
        headers: {
          Accept: 'text/event-stream',
          ...(token ? { token } : {}),
          // Listening is no sign of the user: it must not keep an unattended session open.
          'x-background-refresh': 'true',
        },
        signal: AbortSignal.any([signal, silence.signal]),
      });
      if (response.ok && response.body) {
        heardSomething();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          heardSomething();
          const parsed = parseEventStream(buffer + value);
          buffer = parsed.rest;
          for (const { event, data } of parsed.events) {
            if (event === 'ready') {
              attempt = 0;
              handlers.onReady();
            } else if (event === 'change') handlers.onChange(JSON.parse(data) as LiveChange);
          }
        }
      }
    } catch {
      // A dropped connection, a server restarting, or our own abort: tried again below.
    } finally {
      clearTimeout(silenceTimer);
    }
    if (signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
    attempt += 1;
  }
}

// Changes that come together (a signature writes the record and its approval) refetch once.
const GATHER_MS = 250;

/**
 * Keeps the open screens of the facility current (issue 30): every change any user commits in
 * it, this browser's own writes included, refetches the facility's queries that are on screen
 * (every facility query key starts with ['facility', id]: client/shared/query-keys.ts) and the
 * version histories; queries not on screen are only marked stale.
 */
export function useLiveUpdates(planId: number | null, facilityId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (planId === null || facilityId === null) return;
    const stop = new AbortController();
    let gathered: ReturnType<typeof setTimeout> | undefined;
    let isFirstReady = true;
    const refresh = () => {
      gathered = undefined;
      void queryClient.invalidateQueries({ queryKey: ['facility', facilityId] });
      void queryClient.invalidateQueries({ queryKey: ['versions'] });
    };
    const schedule = () => {
      gathered ??= setTimeout(refresh, GATHER_MS);
    };
    void followFacility(
      `/plans/${planId}/facilities/${facilityId}/events`,
      {
        onReady: () => {
          if (!isFirstReady) schedule();
          isFirstReady = false;
        },
        onChange: schedule,
      },
      stop.signal,
    );
    return () => {
      stop.abort();
      clearTimeout(gathered);
    };
  }, [queryClient, planId, facilityId]);
}
