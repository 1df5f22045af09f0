import type { Queryable, SqlValue } from './db.ts';

/** Who did it and from where; taken from the session and the connection, never from the body. */
export interface Actor {
  userId: number | null;
  userName: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

export interface AuditEntry {
  planId: number | null;
  facilityId?: number | null;
  domain: string;
  action: string;
  entityId?: string | number | null;
  reason?: string | null;
  oldValues?: Record<string, unknown> | null;
  newValues?: Record<string, unknown> | null;
}

/**
 * Appends one audit row inside the caller's transaction, so the change and its record commit
 * together or not at all. The database sets the time, the sequence and the hash chain.
 */
export async function writeAudit(q: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
  await q.query(
    `insert into audit_log (chain, seq, plan_id, facility_id, user_id, user_name, domain, action,
       entity_id, reason, old_values, new_values, ip, user_agent, request_id, prev_hash, hash)
     values (null, 0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '', '')`,
    auditRowValues(actor, entry),
  );
}

/** The 13 values of an audit row, in the column order plan_id … request_id. */
export function auditRowValues(actor: Actor, entry: AuditEntry): SqlValue[] {
  return [
    entry.planId,
    entry.facilityId ?? null,
    actor.userId,
    actor.userName,
    entry.domain,
    entry.action,
    entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    entry.reason ?? null,
    entry.oldValues ? JSON.stringify(entry.oldValues) : null,
    entry.newValues ? JSON.stringify(entry.newValues) : null,
    actor.ip,
    actor.userAgent,
    actor.requestId,
  ];
}
