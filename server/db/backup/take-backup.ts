import { rename, rm } from 'node:fs/promises';
import { appVersion } from '#server/util/app-version.ts';
import type { Db, Queryable } from '../db.ts';
import { collectKeyFiles, type KeyConfig } from './backup-keys.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  createBackupWriter,
  type BackupManifest,
  type BackupWriter,
  type ChainHeadAt,
} from './backup-file.ts';

/** Rows fetched from the snapshot at a time: a large table never sits in memory whole. */
const BATCH = 1000;

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The application's tables (schema public; pg-boss's queue is its own and is not kept). */
export async function tablesOf(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `select relname as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by relname`,
  );
  return rows.map((r) => r.name);
}

/** A table's stored columns, in order (generated columns are computed again on restore). */
export async function columnsOf(q: Queryable, table: string): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `select attname as name from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`,
    [ident(table)],
  );
  return rows.map((r) => r.name);
}

export async function countRows(q: Queryable, table: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(`select count(*)::int as n from ${ident(table)}`);
  return row?.n ?? 0;
}

async function readManifest(
  q: Queryable,
  kind: Db['kind'],
  tables: string[],
): Promise<BackupManifest> {
  const [meta] = await q.query<{ at: string; id: string }>(
    `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
            (select id::text from database_identity) as id`,
  );
  const migrations = await q.query<{ name: string }>(
    'select name from schema_migrations order by name',
  );
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await countRows(q, table);
  const heads = await q.query<ChainHeadAt>(
    'select chain, seq::int as seq, hash from audit_chain_heads where seq > 0 order by chain',
  );
  return {
    kind: 'manifest',
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion: appVersion(),
    takenAt: meta!.at,
    databaseKind: kind,
    databaseId: meta!.id,
    migrations: migrations.map((m) => m.name),
    tables: counts,
    chainHeads: heads,
  };
}

async function writeTable(q: Queryable, out: BackupWriter, table: string): Promise<void> {
  const columns = await columnsOf(q, table);
  await out.write({ kind: 'table', name: table, columns });
  // PostgreSQL's text form of every value: it reads back as exactly the same value.
  const select = columns.map((c, i) => `${ident(c)}::text as c${i}`).join(', ');
  await q.query(`declare backup_rows no scroll cursor for select ${select} from ${ident(table)}`);
  for (;;) {
    const rows = await q.query<Record<string, string | null>>(
      `fetch forward ${BATCH} from backup_rows`,
    );
    if (rows.length === 0) break;
    await out.write({
      kind: 'rows',
      table,
      rows: rows.map((row) => columns.map((_, i) => row[`c${i}`] ?? null)),
    });
  }
  await q.query('close backup_rows');
}

async function writeSequences(q: Queryable, out: BackupWriter): Promise<void> {
  const names = await q.query<{ name: string }>(
    `select relname as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind = 'S' order by relname`,
  );
  const values = [];
  for (const { name } of names) {
    const [row] = await q.query<{ last: string; called: boolean }>(
      `select last_value::text as last, is_called as called from ${ident(name)}`,
    );
    values.push({ name, lastValue: row!.last, isCalled: row!.called });
  }
  await out.write({ kind: 'sequences', values });
}

/**
 * Writes a backup of `db` to `path`: every table from one snapshot (on a server, a read-only
 * REPEATABLE READ transaction, so writes go on meanwhile and none of them is half in it; on
 * PGlite, its one connection's transaction), with the keys and anchors of `config`. The file
 * appears under its name only once it is whole.
 */
export async function takeBackup(db: Db, config: KeyConfig, path: string): Promise<BackupManifest> {
  const partial = `${path}.partial`;
  const out = createBackupWriter(partial);
  try {
    const manifest = await db.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read, read only');
      const tables = await tablesOf(tx);
      const m = await readManifest(tx, db.kind, tables);
      await out.write(m);
      for (const file of await collectKeyFiles(config)) await out.write(file);
      let rows = 0;
      for (const table of tables) {
        await writeTable(tx, out, table);
        rows += m.tables[table] ?? 0;
      }
      await writeSequences(tx, out);
      await out.write({ kind: 'end', tables: tables.length, rows });
      return m;
    });
    await out.close();
    await rename(partial, path);
    return manifest;
  } catch (error) {
    out.abort();
    await rm(partial, { force: true });
    throw error;
  }
}
