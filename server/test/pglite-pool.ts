import type { PgliteDb } from '../db/pglite-db.ts';
import { openPglite } from '../db/pglite-db.ts';

/*
 * Embedded databases kept by this test worker between files. Opening a PGlite from the migrated
 * snapshot costs about a second of CPU; emptying one a file has used and putting back the rows
 * the migrations left costs a few milliseconds. A database comes back to the pool only when its
 * schema, triggers, functions and grants are still those of the snapshot (a test that alters
 * them would otherwise leak into the next file): otherwise it is closed.
 */

/** What a migrated database holds besides empty tables, read once from the first one opened. */
interface Template {
  fingerprint: string;
  /** One script that empties every table, puts back the migrations' rows and restarts sequences. */
  reset: string;
}

// System catalogs that a test could change and a later file would see: relations and their
// grants, columns, constraints, triggers (and whether they are enabled), functions, roles.
const FINGERPRINT = `
  select md5(string_agg(x, '|' order by x)) as fingerprint from (
    select format('c %s.%s %s %s', n.nspname, c.relname, c.relkind, c.relacl) as x
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all
    select format('a %s.%s %s %s', attrelid::regclass, attname, atttypid, attnotnull)
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and attnum > 0
    union all
    select format('k %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
      from pg_constraint where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    union all
    select format('t %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger
    union all
    select format('f %s.%s %s', n.nspname, p.proname, md5(p.prosrc))
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname not in ('pg_catalog', 'information_schema')
    union all
    select format('r %s %s', rolname, rolsuper) from pg_roles
  ) catalog`;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function readTemplate(db: PgliteDb): Promise<Template> {
  // Every table's stored columns in one read of the catalog: information_schema asked table by
  // table took about 30 ms a table, three seconds of each worker's first file.
  const tables = await db.query<{ schema: string; name: string; columns: string[] }>(
    `select n.nspname as schema, c.relname as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p') and a.attgenerated = ''
        and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
      group by n.nspname, c.relname
      order by 1, 2`,
  );
  const statements: string[] = [
    // Replica mode skips triggers, foreign keys among them: the audit trail's refusal of DELETE
    // is a trigger, and the tables empty in any order.
    'set session_replication_role = replica',
  ];
  for (const table of tables) {
    const name = `${quote(table.schema)}.${quote(table.name)}`;
    statements.push(`delete from ${name}`);
    const [rows] = await db.query<{ rows: unknown[] | null }>(
      `select json_agg(t) as rows from ${name} t`,
    );
    if (!rows?.rows) continue;
    const list = table.columns.map(quote).join(', ');
    statements.push(
      `insert into ${name} (${list}) overriding system value select ${list} from ` +
        `json_populate_recordset(null::${name}, ${literal(JSON.stringify(rows.rows))})`,
    );
  }
  statements.push('set session_replication_role = origin');
  const sequences = await db.query<{ name: string; start: string; last: string | null }>(
    `select format('%I.%I', schemaname, sequencename) as name, start_value::text as start,
            last_value::text as last from pg_sequences`,
  );
  for (const s of sequences) {
    statements.push(
      s.last === null
        ? `select setval(${literal(s.name)}, ${s.start}, false)`
        : `select setval(${literal(s.name)}, ${s.last}, true)`,
    );
  }
  const [{ fingerprint }] = (await db.query<{ fingerprint: string }>(FINGERPRINT)) as [
    { fingerprint: string },
  ];
  return { fingerprint, reset: statements.join(';\n') };
}

let template: Promise<Template> | undefined;
const idle: PgliteDb[] = [];

/** A new database from the snapshot, the worker's template read from the first one. */
async function openFromSnapshot(snapshot: () => ArrayBuffer): Promise<PgliteDb> {
  const db = await openPglite({ loadDataDir: snapshot() });
  template ??= readTemplate(db);
  await template;
  return db;
}

/** A migrated, empty database: one this worker used before and emptied, or a new one. */
export async function takePglite(snapshot: () => ArrayBuffer): Promise<PgliteDb> {
  return idle.pop() ?? openFromSnapshot(snapshot);
}

/**
 * Opens this worker's first database ahead of its first file, when none is kept yet: the open and
 * the read of the template are the costliest part of a worker's first file, and on a busy machine
 * they outlasted that file's own hook timeout (issue 27).
 */
export async function warmPglite(snapshot: () => ArrayBuffer): Promise<void> {
  if (template || idle.length > 0) return;
  idle.push(await openFromSnapshot(snapshot));
}

/**
 * Empties a database a test file has finished with and keeps it for the next file, or closes it
 * when its schema is no longer the snapshot's or it cannot be emptied.
 */
export async function givePglite(db: PgliteDb): Promise<void> {
  try {
    const { fingerprint, reset } = await template!;
    const [now] = await db.query<{ fingerprint: string }>(FINGERPRINT);
    if (now?.fingerprint === fingerprint) {
      // Settings, prepared statements, temporary tables and advisory locks of the last file.
      await db.exec('discard all');
      await db.exec(reset);
      idle.push(db);
      return;
    }
  } catch {
    // A database that cannot be read or emptied is not handed to another file.
  }
  await db.close();
}
