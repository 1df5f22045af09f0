import { LOGGED_IN_FLAG_KEY, SESSION_KEYS } from './session-keys.ts';
import {
  adoptSession,
  clearSession,
  getSessionSnapshot,
  getToken,
  sessionEntries,
} from './session-store.ts';

/**
 * The tabs of one browser share one session. The session lives in sessionStorage, which is per
 * tab, and a new sign-in ends the user's other session (419): so a second tab (or a ctrl-click on
 * a menu entry) asks the open tabs for their session instead of signing in again. A tab that signs
 * in again hands its new token to the others, and a logout ends the session in every tab.
 */
type Message =
  | { type: 'ask' }
  | { type: 'session'; entries: Record<string, string> }
  | { type: 'signed-in'; userId: number; entries: Record<string, string> }
  | { type: 'signed-out'; token: string };

const CHANNEL_NAME = 'carryover-session';
/** How long a new tab waits for an open tab to answer before it shows the sign-in screen. */
const ANSWER_WAIT_MS = 800;

let channel: BroadcastChannel | null = null;
let joining: Promise<void> | null = null;

function open(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.addEventListener('message', (event: MessageEvent<Message>) => receive(event.data));
  return channel;
}

function receive(message: Message): void {
  const session = getSessionSnapshot();
  switch (message.type) {
    case 'ask':
      if (session.isSignedIn) post({ type: 'session', entries: sessionEntries() });
      return;
    case 'session':
      return; // only a joining tab listens for these (joinOpenSession)
    case 'signed-in':
      // The same user signed in again in another tab: their old token here is now ended.
      if (session.user?.id === message.userId && session.currentFacilityId !== null)
        adoptSession(message.entries);
      return;
    case 'signed-out':
      if (getToken() === message.token) clearSession();
      return;
  }
}

function post(message: Message): void {
  open()?.postMessage(message);
}

/** True when this tab has no session of its own but another tab of the browser may have one. */
export function mayJoinOpenSession(): boolean {
  return (
    typeof BroadcastChannel !== 'undefined' &&
    !getToken() &&
    !getSessionSnapshot().ended &&
    localStorage.getItem(LOGGED_IN_FLAG_KEY) === 'true'
  );
}

/** Listens to the other tabs; in a tab without a session, first takes over an open tab's one. */
export function joinOpenSession(): Promise<void> {
  const listening = open();
  if (!listening || !mayJoinOpenSession()) return Promise.resolve();
  joining ??= new Promise<void>((resolve) => {
    const done = () => {
      listening.removeEventListener('message', onAnswer);
      window.clearTimeout(timer);
      resolve();
    };
    const onAnswer = (event: MessageEvent<Message>) => {
      if (event.data.type !== 'session' || getToken()) return;
      adoptSession(event.data.entries);
      done();
    };
    const timer = window.setTimeout(done, ANSWER_WAIT_MS);
    listening.addEventListener('message', onAnswer);
    post({ type: 'ask' });
  });
  return joining;
}

/** After a sign-in: the other tabs of the same user take the new token (and stay signed in). */
export function announceSignIn(userId: number): void {
  const entries = sessionEntries();
  const shared = [SESSION_KEYS.token, SESSION_KEYS.user, SESSION_KEYS.licenseInfo] as const;
  post({
    type: 'signed-in',
    userId,
    entries: Object.fromEntries(
      shared.filter((key) => entries[key] !== undefined).map((key) => [key, entries[key]!]),
    ),
  });
}

/** After a logout: every tab that held the same token ends its session too. */
export function announceSignOut(token: string | null): void {
  if (token) post({ type: 'signed-out', token });
}
