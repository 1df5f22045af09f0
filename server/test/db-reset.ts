/*
 * Emptying a test database a file has used and putting back what the migrations left, instead of
 * making a new one: the embedded pool (pglite-pool.ts) and the server's (pg-pool.ts) share it.
 * A database is handed to the next file only while its schema, triggers, functions and grants
 * are still the template's: a test that altered them would otherwise leak into the next file.
 */

/** A query as the pools run it: rows of one statement. */
export type Query = <T>(sql: string) => Promise<T[]>;

/** What a migrated database holds besides empty tables, read once from a fresh copy. */
export interface ResetTemplate {
  fingerprint: string;
  /** One script that empties every table, puts back the migrations' rows and restarts sequences. */
  reset: string;
}

/*
 * System catalogs that a test could change and a later file would see: schemas, relations and
 * their grants, columns, constraints, triggers (and whether they are enabled), functions,
 * extensions and the database's own settings. Roles belong to the whole server on PostgreSQL
 * (other runs make theirs at any moment) and only count on the embedded database.
 */
export function fingerprintSql(withRoles: boolean): string {
  return `
  select md5(string_agg(x, '|' order by x)) as fingerprint from (
    select format('n %s %s', nspname, nspacl) as x from pg_namespace
    union all
    select format('c %s.%s %s %s', n.nspname, c.relname, c.relkind, c.relacl)
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
    select format('f %s.%s %s %s', n.nspname, p.proname, md5(p.prosrc), p.proacl)
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname not in ('pg_catalog', 'information_schema')
    union all
    select format('e %s %s', extname, extversion) from pg_extension
    union all
    select format('s %s', s.setconfig) from pg_db_role_setting s
      join pg_database d on d.oid = s.setdatabase where d.datname = current_database()
    ${withRoles ? `union all select format('r %s %s', rolname, rolsuper) from pg_roles` : ''}
  ) catalog`;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Reads the reset script and the catalog's fingerprint of a database no file has used yet. */
export async function readResetTemplate(query: Query, withRoles: boolean): Promise<ResetTemplate> {
  // Every table's stored columns in one read of the catalog: information_schema asked table by
  // table took about 30 ms a table, three seconds of each worker's first file.
  const tables = await query<{ schema: string; name: string; columns: string[] }>(
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
    const [rows] = await query<{ rows: unknown[] | null }>(
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
  const sequences = await query<{ name: string; start: string; last: string | null }>(
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
  return { fingerprint: await readFingerprint(query, withRoles), reset: statements.join(';\n') };
}

export async function readFingerprint(query: Query, withRoles: boolean): Promise<string> {
  const [row] = await query<{ fingerprint: string }>(fingerprintSql(withRoles));
  return row?.fingerprint ?? '';
}
