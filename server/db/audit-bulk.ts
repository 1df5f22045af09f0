import type { Queryable } from '#server/db/db.ts';
import { byColumn, unnestOf } from '#server/db/by-column.ts';
import type { AuditAction, AuditDomain } from '#core/audit/audit-events.ts';
import {
  auditRowValues,
  type Actor,
  type AuditEntry,
  type AuditEntryOf,
} from '#server/db/audit-write.ts';

// The rows of one statement: each statement moves the chains' heads once.
const ROWS_PER_STATEMENT = 2000;

// The element types of auditRowValues' 13 values, in its order.
const COLUMN_TYPES = [
  'int',
  'int',
  'int',
  'text',
  'text',
  'text',
  'text',
  'text',
  'jsonb',
  'jsonb',
  'text',
  'text',
  'text',
];

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
    const columns = byColumn(
      chunk.map((entry) => auditRowValues(actor, entry)),
      COLUMN_TYPES.length,
    );
    // In the order given: the chain trigger numbers the rows as they are inserted.
    await q.query(
      `insert into audit_log (chain, seq, plan_id, facility_id, user_id, user_name, domain, action,
         entity_id, reason, old_values, new_values, ip, user_agent, request_id, prev_hash, hash)
       select null, 0, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, '', ''
         from ${unnestOf(COLUMN_TYPES, 'u')} order by n`,
      columns,
    );
  }
}
