import type { Queryable } from '#server/db/db.ts';
import type { AuditAction, AuditDomain } from '#core/audit/audit-events.ts';
import {
  auditRowValues,
  type Actor,
  type AuditEntry,
  type AuditEntryOf,
} from '#server/db/audit-write.ts';

// 13 parameters a row; PostgreSQL takes at most 65,535 in one statement.
const ROWS_PER_STATEMENT = 2000;

/**
 * Appends many audit rows in a few statements (a bulk import), inside the caller's transaction.
 * The database's trigger still chains every row, in the order given.
 */
export async function writeAuditMany<D extends AuditDomain, A extends AuditAction<D>>(
  q: Queryable,
  actor: Actor,
  entries: readonly AuditEntryOf<D, A>[],
): Promise<void>;
export async function writeAuditMany(
  q: Queryable,
  actor: Actor,
  entries: readonly AuditEntry[],
): Promise<void>;
export async function writeAuditMany(
  q: Queryable,
  actor: Actor,
  entries: readonly Parameters<typeof auditRowValues>[1][],
): Promise<void> {
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    const params: unknown[] = [];
    const rows = chunk.map((entry) => {
      const values = auditRowValues(actor, entry);
      const first = params.length + 1;
      params.push(...values);
      const p = (i: number) => `$${first + i}`;
      return `(null, 0, ${p(0)}::int, ${p(1)}::int, ${p(2)}::int, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}::jsonb, ${p(9)}::jsonb, ${p(10)}, ${p(11)}, ${p(12)}, '', '')`;
    });
    await q.query(
      `insert into audit_log (chain, seq, plan_id, facility_id, user_id, user_name, domain, action,
         entity_id, reason, old_values, new_values, ip, user_agent, request_id, prev_hash, hash)
       values ${rows.join(', ')}`,
      params as never[],
    );
  }
}
