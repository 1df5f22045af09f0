import type { Queryable } from '#server/db/db.ts';
import { jsonRows, recordsetOf } from '#server/db/json-rows.ts';
import type { AuditAction, AuditDomain } from '#core/audit/audit-events.ts';
import {
  ACTOR_COLUMNS,
  actorValues,
  ENTRY_COLUMNS,
  entryColumns,
  type Actor,
  type AuditEntry,
  type AuditEntryOf,
} from '#server/db/audit-write.ts';

// The rows of one statement: each statement moves the chains' heads once.
const ROWS_PER_STATEMENT = 2000;

// Who wrote them is one actor's, given once; what each row says comes in the rows.
const COLUMNS = `${ACTOR_COLUMNS}, ${ENTRY_COLUMNS.join(', ')}`;
const FROM_ROWS = `$2::int, $3::text, $4::text, $5::text, $6::text, ${ENTRY_COLUMNS.map((column) => `v.${column}`).join(', ')}`;

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
  entries: readonly Parameters<typeof entryColumns>[0][],
): Promise<void> {
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    // In the order given: the chain trigger numbers the rows as they are inserted.
    await q.query(
      `insert into audit_log (chain, seq, ${COLUMNS}, prev_hash, hash)
       select null, 0, ${FROM_ROWS}, '', '' from ${recordsetOf('audit_log', 1, 'v')}
        order by v.ordinality`,
      [jsonRows(chunk.map(entryColumns)), ...actorValues(actor)],
    );
  }
}
