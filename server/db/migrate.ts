import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../util/project-root.ts';
import type { Db, Queryable } from './db.ts';
import { migrationChecksum } from './migration-checksums.ts';

export interface Migration {
  name: string;
  sql: string;
}

export function loadMigrations(dir = join(projectRoot(), 'server/db/migrations')): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: file, sql: readFileSync(join(dir, file), 'utf8') }));
}

// Any fixed number: several app instances starting together against one server take turns.
const MIGRATION_LOCK = 7_201_811;

export interface MigrateOptions {
  migrations?: Migration[];
  /**
   * The least-privilege role the app serves with (DATABASE_URL's user) when `db` is the owner
   * (DATABASE_OWNER_URL): its grants are (re)applied after the migrations.
   */
  appRole?: string | undefined;
}

/** The role a postgres:// URL signs in as. */
export function roleOfUrl(url: string): string {
  return decodeURIComponent(new URL(url).username) || 'postgres';
}

/**
 * The database was migrated by a newer build than this one: this build does not know the tables
 * and rules those migrations made, and would write data the newer build does not expect. The
 * server stops before it writes anything (EU GMP Annex 11 §4.2 and §10: only a validated build
 * changes the system's data, and a change of version is controlled, never silent).
 */
export class NewerSchemaError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `This database has applied ${unknown.length === 1 ? 'a migration' : 'migrations'} this build ` +
        `of Carryover does not know: ${unknown.join(', ')}. A newer build has upgraded it. ` +
        'Start that build (or a later one), or restore a backup taken before the upgrade.',
    );
  }
}

/** Applies the migrations not yet applied, in one transaction, in file-name order. */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = options.migrations ?? loadMigrations();
  // Checked first, so that the app role (which may not create tables) can start on a database
  // the owner has already migrated.
  const [exists] = await db.query<{ t: string | null }>(
    `select to_regclass('schema_migrations')::text as t`,
  );
  // Before any write of this runner (its own bookkeeping included).
  if (exists?.t) await refuseNewerSchema(db, migrations);
  if (!exists?.t) {
    await db.exec(`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now(), checksum text)`);
  }
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres')
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Again under the lock: a newer build may have migrated since the first look.
    await refuseNewerSchema(tx, migrations);
    await refuseChangedMigrations(tx, migrations);
    const done = new Set(
      (await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
        migration.name,
        migrationChecksum(migration.sql),
      ]);
      applied.push(migration.name);
    }
    if (options.appRole) await tx.query('select grant_app_role($1)', [options.appRole]);
    return applied;
  });
}

/** Refuses a database that has applied migrations this build does not have (NewerSchemaError). */
async function refuseNewerSchema(q: Queryable, migrations: Migration[]): Promise<void> {
  const known = new Set(migrations.map((m) => m.name));
  const applied = await q.query<{ name: string }>(
    'select name from schema_migrations order by name',
  );
  const unknown = applied.map((r) => r.name).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
}

/**
 * Refuses to start when a migration this database already ran has changed since: the schema
 * would then differ from that of a new database without anyone noticing. The runner keeps its
 * own table, so it adds the checksum column itself (a migration cannot: it would have to run
 * before the runner could read its own bookkeeping), and trusts the files on first sight for
 * rows applied before checksums were kept.
 */
async function refuseChangedMigrations(tx: Queryable, migrations: Migration[]): Promise<void> {
  // The catalog itself: information_schema's view costs a tenth of a start on PGlite.
  const hasColumn = await tx.query(
    `select 1 from pg_attribute where attrelid = 'schema_migrations'::regclass
       and attname = 'checksum' and not attisdropped`,
  );
  if (hasColumn.length === 0)
    await tx.exec('alter table schema_migrations add column checksum text');
  const recorded = new Map(
    (
      await tx.query<{ name: string; checksum: string | null }>(
        'select name, checksum from schema_migrations',
      )
    ).map((r) => [r.name, r.checksum]),
  );
  const changed: string[] = [];
  for (const { name, sql } of migrations) {
    const checksum = migrationChecksum(sql);
    const before = recorded.get(name);
    if (before === null)
      await tx.query('update schema_migrations set checksum = $2 where name = $1', [
        name,
        checksum,
      ]);
    else if (before !== undefined && before !== checksum) changed.push(name);
  }
  if (changed.length > 0) {
    throw new Error(
      `Migrations changed after this database applied them: ${changed.join(', ')}. ` +
        'Restore them from version control and put the change in a new migration.',
    );
  }
}
