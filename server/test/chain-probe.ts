import type { AuditEntry } from '#server/db/audit-write.ts';

/**
 * A row outside the audit catalogue, for tests of the hash chain itself: the chain takes any
 * row the database accepts, and these tests mark their rows by action ('w3-t1') to read back
 * the order they were chained in. Nothing but such a test writes under the domain 'Test'.
 */
export interface ChainProbe {
  planId: number | null;
  facilityId?: number | null;
  action: string;
  entityId?: number;
  newValues?: Record<string, unknown>;
}

export function chainProbe(row: ChainProbe): AuditEntry {
  return { ...row, domain: 'Test' } as unknown as AuditEntry;
}
