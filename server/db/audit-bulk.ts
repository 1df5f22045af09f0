import type { Queryable } from '#server/db/db.ts';
import { jsonRows, recordsetOf } from '#server/db/json-rows.ts';
import type { AuditAction, AuditDomain } from '#core/audit/audit-events.ts';
import {
  AUDIT_COLUMNS,
  auditRow,
  type Actor,
  type AuditEntry,
  type AuditEntryOf,
} from '#server/db/audit-write.ts';

// The rows of one statement: each statement moves the chains' heads once.
const ROWS_PER_STATEMENT = 2000;

const COLUMNS = AUDIT_COLUMNS.join(', ');
const FROM_ROWS = AUDIT_COLUMNS.map((column) => `v.${column}`).join(', ');

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
  entries: readonly Parameters<typeof auditRow>[1][],
): Promise<void> {
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    // In the order given: the chain trigger numbers the rows as they are inserted.
    await q.query(
      `insert into audit_log (chain, seq, ${COLUMNS}, prev_hash, hash)
       select null, 0, ${FROM_ROWS}, '', '' from ${recordsetOf('audit_log', 1, 'v')}
        order by v.ordinality`,
      [jsonRows(chunk.map((entry) => auditRow(actor, entry)))],
    );
  }
}
