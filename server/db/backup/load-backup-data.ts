import type { Queryable } from '../db.ts';
import { BackupFileError, readBackup, type BackupManifest } from './backup-file.ts';
import { countRows, ident, tablesOf } from './take-backup.ts';

/** Rows per INSERT: large enough to be quick, small enough for one statement's parameter. */
const INSERT_BATCH_CHARS = 1_000_000;

interface ForeignKey {
  t: string;
  name: string;
  def: string;
}

/**
 * Loads the rows of a backup into `tx`, whose schema is the backup's (migrated to the same
 * migrations). The rows are copied as they were: triggers would chain the audit rows again, keep
 * versions and seed master data, so the tables' own triggers are off while loading, and the
 * foreign keys are dropped and added again afterwards, which checks every reference at once
 * (pg_dump's order, without needing a superuser). Everything happens in the caller's transaction.
 */
export async function loadBackupData(
  tx: Queryable,
  path: string,
  manifest: BackupManifest,
): Promise<void> {
  const tables = await tablesOf(tx);
  const keys = await tx.query<ForeignKey>(
    `select conrelid::regclass::text as t, conname as name, pg_get_constraintdef(oid) as def
       from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace
      order by conrelid::regclass::text, conname`,
  );
  for (const table of tables) await tx.query(`alter table ${ident(table)} disable trigger user`);
  for (const k of keys) await tx.query(`alter table ${k.t} drop constraint ${ident(k.name)}`);
  // What the migrations wrote (the database's id, built-in rows) gives way to the backup's.
  await tx.query(`truncate table ${tables.map(ident).join(', ')}`);

  const loaded = new Set<string>();
  let insert: ((rows: (string | null)[][]) => Promise<void>) | undefined;
  let ended = false;
  for await (const record of readBackup(path)) {
    if (record.kind === 'table') {
      if (!tables.includes(record.name))
        throw new BackupFileError(`The backup has a table this schema lacks: ${record.name}`);
      insert = await inserter(tx, record.name, record.columns);
      loaded.add(record.name);
    } else if (record.kind === 'rows') {
      if (!insert) throw new BackupFileError('The backup has rows before their table');
      await insertInBatches(insert, record.rows);
    } else if (record.kind === 'sequences') {
      for (const s of record.values)
        await tx.query('select setval($1::regclass, $2::bigint, $3)', [
          ident(s.name),
          s.lastValue,
          s.isCalled,
        ]);
    } else if (record.kind === 'end') {
      ended = true;
    }
  }
  if (!ended) throw new BackupFileError(`${path} ends early: it is not a whole backup`);

  for (const k of keys)
    await tx.query(`alter table ${k.t} add constraint ${ident(k.name)} ${k.def}`);
  for (const table of tables) await tx.query(`alter table ${ident(table)} enable trigger user`);

  const wrong: string[] = [];
  for (const [table, expected] of Object.entries(manifest.tables)) {
    const found = loaded.has(table) ? await countRows(tx, table) : -1;
    if (found !== expected) wrong.push(`${table}: ${found} rows, the backup counted ${expected}`);
  }
  if (wrong.length > 0)
    throw new BackupFileError(
      `The restored rows differ from the backup's counts: ${wrong.join('; ')}`,
    );
}

/** An INSERT of rows given as text, each value cast to its column's type. */
async function inserter(tx: Queryable, table: string, columns: string[]) {
  const types = new Map(
    (
      await tx.query<{ name: string; type: string }>(
        `select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''`,
        [ident(table)],
      )
    ).map((r) => [r.name, r.type]),
  );
  const missing = columns.filter((c) => !types.has(c));
  if (missing.length > 0 || types.size !== columns.length)
    throw new BackupFileError(
      `The backup's columns of ${table} differ from this schema's (${missing.join(', ') || 'columns missing'})`,
    );
  const values = columns.map((c, i) => `(r->>${i})::${types.get(c)}`).join(', ');
  const sql =
    `insert into ${ident(table)} (${columns.map(ident).join(', ')}) overriding system value ` +
    `select ${values} from json_array_elements($1::json) as r`;
  return async (rows: (string | null)[][]) => {
    await tx.query(sql, [JSON.stringify(rows)]);
  };
}

async function insertInBatches(
  insert: (rows: (string | null)[][]) => Promise<void>,
  rows: (string | null)[][],
): Promise<void> {
  let batch: (string | null)[][] = [];
  let size = 0;
  for (const row of rows) {
    batch.push(row);
    size += row.reduce((n, v) => n + (v?.length ?? 4), 0);
    if (size >= INSERT_BATCH_CHARS) {
      await insert(batch);
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) await insert(batch);
}
