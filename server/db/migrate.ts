import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../util/project-root.ts';
import type { Db } from './db.ts';

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

/** Applies the migrations not yet applied, in one transaction, in file-name order. */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = options.migrations ?? loadMigrations();
  // Checked first, so that the app role (which may not create tables) can start on a database
  // the owner has already migrated.
  const [exists] = await db.query<{ t: string | null }>(
    `select to_regclass('schema_migrations')::text as t`,
  );
  if (!exists?.t) {
    await db.exec(`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`);
  }
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres')
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const done = new Set(
      (await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [migration.name]);
      applied.push(migration.name);
    }
    if (options.appRole) await tx.query('select grant_app_role($1)', [options.appRole]);
    return applied;
  });
}
