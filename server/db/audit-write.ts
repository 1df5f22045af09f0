import type {
  AuditAction,
  AuditDomain,
  AuditNewValues,
  AuditOldValues,
} from '#core/audit/audit-events.ts';
import type { Queryable, SqlValue } from './db.ts';

/** Who did it and from where; taken from the session and the connection, never from the body. */
export interface Actor {
  userId: number | null;
  userName: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/**
 * One audit row of a catalogued event (core/audit/audit-events.ts): `domain` and `action` must
 * be in the catalogue and the values of the shape it gives, or the write does not compile.
 */
export interface AuditEntryOf<D extends AuditDomain, A extends AuditAction<D>> {
  planId: number | null;
  facilityId?: number | null;
  domain: D;
  action: A;
  entityId?: string | number | null;
  reason?: string | null;
  oldValues?: AuditOldValues<D, A> | null;
  newValues?: AuditNewValues<D, A> | null;
}

/** Any catalogued audit row: one member per domain and action, each with its values. */
export type AuditEntry = {
  [D in AuditDomain]: { [A in AuditAction<D>]: AuditEntryOf<D, A> }[AuditAction<D>];
}[AuditDomain];

/** A row as it is stored, once the compiler has checked it against the catalogue. */
interface StoredEntry {
  planId: number | null;
  facilityId?: number | null;
  domain: string;
  action: string;
  entityId?: string | number | null;
  reason?: string | null;
  oldValues?: object | null;
  newValues?: object | null;
}

/**
 * Appends one audit row inside the caller's transaction, so the change and its record commit
 * together or not at all. The database sets the time, the sequence and the hash chain. The
 * second form takes a row whose domain and action are known only as a catalogued pair (an
 * edit's named action, chosen at run time).
 */
export async function writeAudit<D extends AuditDomain, A extends AuditAction<D>>(
  q: Queryable,
  actor: Actor,
  entry: AuditEntryOf<D, A>,
): Promise<void>;
export async function writeAudit(q: Queryable, actor: Actor, entry: AuditEntry): Promise<void>;
export async function writeAudit(q: Queryable, actor: Actor, entry: StoredEntry): Promise<void> {
  const row = entryColumns(entry);
  await q.query(
    `insert into audit_log (chain, seq, ${ACTOR_COLUMNS}, ${ENTRY_COLUMNS.join(', ')},
       prev_hash, hash)
     values (null, 0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '', '')`,
    [
      ...actorValues(actor),
      ...ENTRY_COLUMNS.map((column): SqlValue => {
        const value = row[column];
        // A placeholder takes a jsonb column's value as its JSON text.
        return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
      }),
    ],
  );
}

/** The columns of an audit row that say who and from where, in actorValues' order. */
export const ACTOR_COLUMNS = 'user_id, user_name, ip, user_agent, request_id';

export const actorValues = (actor: Actor): SqlValue[] => [
  actor.userId,
  actor.userName,
  actor.ip,
  actor.userAgent,
  actor.requestId,
];

/** The columns of an audit row that say what happened; the database sets the rest. */
export const ENTRY_COLUMNS = [
  'plan_id',
  'facility_id',
  'domain',
  'action',
  'entity_id',
  'reason',
  'old_values',
  'new_values',
] as const;

/** An audit row's columns of what happened, its old and new values as the objects themselves. */
export function entryColumns(
  entry: StoredEntry,
): Record<(typeof ENTRY_COLUMNS)[number], string | number | object | null> {
  return {
    plan_id: entry.planId,
    facility_id: entry.facilityId ?? null,
    domain: entry.domain,
    action: entry.action,
    entity_id:
      entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    reason: entry.reason ?? null,
    old_values: entry.oldValues ?? null,
    new_values: entry.newValues ?? null,
  };
}
