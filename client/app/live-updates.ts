import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiUrl } from '../api/http-client.ts';
import { getToken } from '../session/session-store.ts';
import { retryDelay } from './reconnect-delay.ts';

/** One event of `GET {F}/events`: which record moved (never its content). */
export interface LiveChange {
  kind: string;
  id: number;
  version: number;
}

// No heartbeat for this long (the server sends one every 15 s): the connection is dead even if
// the socket does not say so (a sleeping laptop, a proxy that dropped it).
const SILENCE_MS = 45_000;
// With no session, or after the server ended the stream for this one, how often to look for a
// new sign-in.
const TOKEN_CHECK_MS = 2_000;

interface Handlers {
  /** The stream is listening: after a reconnect, what was missed meanwhile is read again. */
  onReady(): void;
  onChange(change: LiveChange): void;
}

/**
 * Holds the facility's event stream open until `signal` aborts, reconnecting with backoff.
 * EventSource sends the session cookie (a GET reads it like a download; it writes nothing), and
 * browsers and test drivers know it as a stream, not as a request that never finishes. Its own
 * reconnects are replaced by ours: doubling waits with jitter, and none while the session the
 * server ended the stream for is still the one held.
 */
export function followFacility(url: string, handlers: Handlers, signal: AbortSignal): void {
  let attempt = 0;
  let source: EventSource | null = null;
  let wait: ReturnType<typeof setTimeout> | undefined;
  let endedFor: string | null | undefined;

  function connect(): void {
    if (signal.aborted) return;
    const token = getToken();
    // No session (it ended under the open page, which waits for signing in again), or the one
    // the server ended the stream for: a stream would only be refused with 401, an error in the
    // browser's console each time (the idle warning's browser test met it at a load of 40).
    if (token === null || (endedFor !== undefined && token === endedFor)) {
      wait = setTimeout(connect, TOKEN_CHECK_MS);
      return;
    }
    endedFor = undefined;
    const current = new EventSource(url);
    source = current;
    let silence = setTimeout(retry, SILENCE_MS);
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(retry, SILENCE_MS);
    };
    function retry(): void {
      clearTimeout(silence);
      current.close();
      if (source !== current || signal.aborted) return;
      source = null;
      wait = setTimeout(connect, retryDelay(attempt));
      attempt += 1;
    }
    current.addEventListener('ready', () => {
      attempt = 0;
      heard();
      handlers.onReady();
    });
    current.addEventListener('change', (event) => {
      heard();
      handlers.onChange(JSON.parse((event as MessageEvent<string>).data) as LiveChange);
    });
    current.addEventListener('heartbeat', heard);
    // The session ended or lost the facility: a reconnect would only be refused.
    current.addEventListener('end', () => {
      endedFor = token;
      retry();
    });
    current.onerror = retry;
  }

  signal.addEventListener('abort', () => {
    clearTimeout(wait);
    source?.close();
    source = null;
  });
  connect();
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
    followFacility(
      apiUrl(`/plans/${planId}/facilities/${facilityId}/events`),
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
