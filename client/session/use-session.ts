import { useSyncExternalStore } from 'react';
import { getSessionSnapshot, subscribeSession } from './session-store.ts';
import type { SessionSnapshot } from './session-store.ts';
import type { FacilityKind } from '#core/facilities/facility-features.ts';

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSessionSnapshot);
}

/** The current facility's tier and product type, which decide its features (facility-features.ts). */
export function useFacilityKind(): FacilityKind | undefined {
  const { tier, productType } = useSession();
  return tier && productType ? { tier, productType } : undefined;
}
