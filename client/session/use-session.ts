import { useSyncExternalStore } from 'react';
import { getSessionSnapshot, subscribeSession } from './session-store.ts';
import type { SessionSnapshot } from './session-store.ts';

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSessionSnapshot);
}
