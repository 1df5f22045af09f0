import { IDLE_TIMEOUT_KEY, LAST_SERVER_CALL_KEY } from './session-keys.ts';

/**
 * The server ends a session after its idle timeout without a call. Its clock moves on a call
 * only when the last touch is more than 30 s old (server/sessions/session-lookup.ts), so the client
 * counts from its own last call less that slack: the warning comes early rather than late. The
 * time of the last call is shared by the tabs (localStorage): work in one tab keeps all of them.
 */
const SERVER_TOUCH_SLACK_MS = 30_000;
/** The warning shows this long before the end, or a quarter of a short timeout. */
const WARNING_LEAD_MS = 3 * 60_000;

export function noteServerCall(now = Date.now()): void {
  localStorage.setItem(LAST_SERVER_CALL_KEY, String(now));
}

export function storeIdleTimeout(seconds: number): void {
  localStorage.setItem(IDLE_TIMEOUT_KEY, String(seconds));
}

export interface IdleState {
  /** Milliseconds until the session may end; null when the timeout is not known yet. */
  msLeft: number | null;
  isWarning: boolean;
}

export function idleState(now = Date.now()): IdleState {
  const timeoutMs = Number(localStorage.getItem(IDLE_TIMEOUT_KEY)) * 1000;
  const lastCall = Number(localStorage.getItem(LAST_SERVER_CALL_KEY));
  if (!timeoutMs || !lastCall) return { msLeft: null, isWarning: false };
  const usableMs = Math.max(timeoutMs - SERVER_TOUCH_SLACK_MS, timeoutMs / 2);
  const msLeft = lastCall + usableMs - now;
  const leadMs = Math.min(WARNING_LEAD_MS, usableMs / 4);
  return { msLeft, isWarning: msLeft <= leadMs };
}
