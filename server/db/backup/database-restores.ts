import { createHmac } from 'node:crypto';
import type { Queryable } from '../db.ts';

/** [chain, seq, hash] of each chain when the backup was taken. */
export type RestoredHead = [chain: string, seq: number, hash: string];

/** One restore of this database from a backup (table database_restores). */
export interface DatabaseRestore {
  databaseId: string;
  previousDatabaseId: string;
  backup: string;
  restoredAt: string;
  heads: RestoredHead[];
  hmac: string;
}

/** Signed with the key outside the database, as the anchors are (audit-anchor.ts). */
export function restoreHmac(key: string, r: Omit<DatabaseRestore, 'hmac' | 'restoredAt'>): string {
  const fields = [r.databaseId, r.previousDatabaseId, r.backup, r.heads];
  return createHmac('sha256', key).update(JSON.stringify(fields)).digest('hex');
}

export async function recordRestore(
  q: Queryable,
  key: string,
  r: Omit<DatabaseRestore, 'hmac' | 'restoredAt'> & { backupTakenAt: string },
): Promise<void> {
  await q.query(
    `insert into database_restores
       (database_id, previous_database_id, backup, backup_taken_at, heads, hmac)
     values ($1, $2, $3, $4, $5::jsonb, $6)`,
    [
      r.databaseId,
      r.previousDatabaseId,
      r.backup,
      r.backupTakenAt,
      JSON.stringify(r.heads),
      restoreHmac(key, r),
    ],
  );
}

export async function readRestores(q: Queryable): Promise<DatabaseRestore[]> {
  const rows = await q.query<{
    database_id: string;
    previous_database_id: string;
    backup: string;
    at: string;
    heads: RestoredHead[] | string;
    hmac: string;
  }>(
    `select database_id::text, previous_database_id::text, backup, heads, hmac,
            to_char(restored_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
       from database_restores order by id`,
  );
  return rows.map((r) => ({
    databaseId: r.database_id,
    previousDatabaseId: r.previous_database_id,
    backup: r.backup,
    restoredAt: r.at,
    heads: typeof r.heads === 'string' ? (JSON.parse(r.heads) as RestoredHead[]) : r.heads,
    hmac: r.hmac,
  }));
}
