import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initializeDataDir } from '../test/empty-pglite.ts';
import { spawnServer } from '../test/server-process.ts';
import { createServerTestDatabase, createTestDb } from '../test/test-db.ts';
import type { Db } from './db.ts';
import { loadMigrations, migrate, NewerSchemaError } from './migrate.ts';
import { openDatabase } from './open.ts';

const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Names a newer build's migrations could have: after every migration this build has. */
const NEWER = ['29990101000001_from_a_newer_build.sql', '29990101000002_also_newer.sql'];

async function markNewer(owner: Db): Promise<void> {
  for (const name of NEWER)
    await owner.query(`insert into schema_migrations (name, checksum) values ($1, 'x')`, [name]);
}

/** What a start could write: the runner's bookkeeping, the first-start seed, the tables. */
async function footprint(db: Db) {
  return db.query<{ migrations: number; users: number; tables: number }>(
    `select (select count(*)::int from schema_migrations) as migrations,
            (select count(*)::int from users) as users,
            (select count(*)::int from pg_tables where schemaname = 'public') as tables`,
  );
}

/** Runs the server's start and waits for it to end. */
async function startServer(env: Record<string, string>) {
  const { child, output } = spawnServer({ PORT: '0', ...env });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stderr: output().stderr };
}

describe('a database migrated by a newer build', () => {
  it('is refused by migrate(), naming the unknown migrations, before anything is written', async () => {
    const db = await createTestDb();
    cleanup.push(() => db.close());
    const owner = await db.owner();
    await markNewer(owner);
    const before = await footprint(db);
    // A migration this build would apply: it must not run on a schema it does not know.
    const pending = {
      name: '29990101000000_this_build.sql',
      sql: 'create table this_build (id int);',
    };
    const run = migrate(owner, { migrations: [...loadMigrations(), pending] });
    await expect(run).rejects.toThrow(NewerSchemaError);
    await expect(migrate(owner)).rejects.toThrow(
      `does not know: ${NEWER.join(', ')}. A newer build has upgraded it.`,
    );
    expect(await footprint(db)).toEqual(before);
    await owner.query('delete from schema_migrations where name = any($1)', [NEWER]);
    expect(await migrate(owner)).toEqual([]);
  });

  it('stops the server at start with the reason and exit code 1, on the database the suite runs on', async () => {
    let env: Record<string, string>;
    let db: Db;
    if (process.env.DATABASE_URL) {
      const database = await createServerTestDatabase();
      cleanup.push(database.drop);
      env = {
        DATABASE_URL: database.url,
        ...(database.separateOwner ? { DATABASE_OWNER_URL: database.ownerUrl } : {}),
      };
      db = await openDatabase({ databaseUrl: database.ownerUrl, dataDir: '' });
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'carryover-newer-'));
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 }));
      env = { DATA_DIR: dataDir };
      await initializeDataDir(dataDir, { migrated: true });
      db = await openDatabase({ dataDir });
    }
    await markNewer(db);
    const before = await footprint(db);
    // The embedded database is one process's: the server opens it once this test lets go.
    if (!process.env.DATABASE_URL) await db.close();

    const { code, stderr } = await startServer({
      ...env,
      ADMIN_EMAIL: 'first@example.com',
      ADMIN_PASSWORD: 'First#Admin1234',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`Carryover cannot start: This database has applied migrations`);
    expect(stderr).toContain(NEWER.join(', '));
    expect(stderr).not.toMatch(/\n\s+at /); // a reason, not a stack

    const after = process.env.DATABASE_URL ? db : await openDatabase({ dataDir: env.DATA_DIR! });
    cleanup.push(() => after.close());
    // Nothing seeded, migrated or created.
    expect(await footprint(after)).toEqual(before);
    expect(before[0]!.users).toBe(0);
  }, 240_000);
});
