import { noteServerCall } from '../session/idle-clock.ts';
import { getToken } from '../session/session-store.ts';
import { parseErrorBody } from './api-error.ts';
import { handleHttpError } from './http-error-handler.ts';
import type { HandlerOptions } from './http-error-handler.ts';

export const API_BASE = '/api/v2';

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions extends HandlerOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Overrides the session token, e.g. the one `/logout?token=` carries. */
  token?: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * A poll no user asked for (a count in the menu): the server does not count it as activity,
   * nor does the idle warning, so it cannot keep an unattended session open.
   */
  isBackground?: boolean;
}

// The server's session-guard.ts reads the same header.
const BACKGROUND_HEADER = 'x-background-refresh';

export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function buildInit(options: RequestOptions): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.token === undefined ? getToken() : options.token;
  if (token) headers.token = token;
  if (options.isBackground) headers[BACKGROUND_HEADER] = 'true';
  const init: RequestInit = { method: options.method ?? 'GET', headers };
  if (options.body instanceof FormData) {
    // The browser writes the multipart Content-Type with its boundary.
    init.body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const signals = [
    options.signal,
    options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : null,
  ].filter((signal): signal is AbortSignal => Boolean(signal));
  if (signals.length) init.signal = AbortSignal.any(signals);
  return init;
}

/** A call the session answered moved the server's idle clock (idle-clock.ts). */
function noteSessionCall(init: RequestInit, status: number): void {
  const headers = init.headers as Record<string, string>;
  const isActivity = Boolean(headers.token) && !headers[BACKGROUND_HEADER];
  if (isActivity && status !== 401 && status !== 419) noteServerCall();
}

/**
 * One call to the server. A failed fetch (no response: offline, aborted) rejects with the
 * browser's own error, unchanged; any error status goes through the spec §8 handler.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const init = buildInit(options);
  const response = await fetch(apiUrl(path, options.query), init);
  noteSessionCall(init, response.status);
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await response.text()), options);
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A file download. The error body of a blob response is still JSON: spec §8 says to read it
 * from the blob, so the handler sees the same error as for any other call.
 */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<Blob> {
  const init = buildInit(options);
  (init.headers as Record<string, string>).Accept = '*/*';
  const response = await fetch(apiUrl(path, options.query), init);
  noteSessionCall(init, response.status);
  const blob = await response.blob();
  if (!response.ok) handleHttpError(response.status, parseErrorBody(await blob.text()), options);
  return blob;
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
