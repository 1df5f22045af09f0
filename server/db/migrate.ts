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

/** Applies the migrations not yet applied, each in its own transaction, in file-name order. */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    name text primary key, applied_at timestamptz not null default now())`);
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
    return applied;
  });
}
