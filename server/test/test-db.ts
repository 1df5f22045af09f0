import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../db/db.ts';
import { openPostgres } from '../db/postgres-db.ts';
import { backgroundStepDone } from './background-step.ts';
import { giveServerDatabase, takeServerDatabase } from './pg-pool.ts';
import { givePglite, takePglite, warmPglite } from './pglite-pool.ts';
import { dropTestDatabase, testDatabaseRoles, withDatabase } from './test-db-urls.ts';

export interface TestDb extends Db {
  /**
   * The same database as the role that owns the schema, for a test that plays someone with
   * more rights than the app (rewriting history). PGlite and a one-role setup have only the
   * one role, so it is the same database. Closed with this one.
   */
  owner(): Promise<Db>;
}

/** The migrated PGlite snapshot of this run, once the setup's background step has made it. */
export async function pgliteSnapshotFile(): Promise<string> {
  await backgroundStepDone(inject('pgliteSnapshotStatus'), 'Migrating the test database snapshot');
  return inject('pgliteSnapshot');
}

const readSnapshot = (file: string) => () => new Uint8Array(readFileSync(file)).buffer;

/** Opens the worker's first embedded database before its first file needs one (no-op on a server). */
export async function warmTestDb(): Promise<void> {
  if (!process.env.DATABASE_URL) await warmPglite(readSnapshot(await pgliteSnapshotFile()));
}

/** A fresh, migrated database of its own for one test file: PGlite, or a copy on the server. */
export async function createTestDb(): Promise<TestDb> {
  if (!process.env.DATABASE_URL) {
    const snapshot = await pgliteSnapshotFile();
    const pooled = await takePglite(readSnapshot(snapshot));
    // A Db of its own over the pooled database: closing it empties the database for the next
    // file instead of stopping it.
    const db: TestDb = { ...pooled, owner: async () => db, close: () => givePglite(pooled) };
    return db;
  }
  const database = await takeServerDatabase(createServerTestDatabase);
  // The embedded database's order kept for a transaction's own statements (transaction-order.ts):
  // what would wait forever there fails here after 20 s, with its cause named.
  const db = await openPostgres(database.url, { max: 5, embeddedOrderMs: 20_000 });
  let owner: Promise<Db> | undefined;
  return {
    ...db,
    owner: () => {
      if (!database.separateOwner) return Promise.resolve(db);
      owner ??= openPostgres(database.ownerUrl, { max: 2 });
      return owner;
    },
    close: async () => {
      await db.close();
      if (owner) await (await owner).close();
      await giveServerDatabase(database);
    },
  };
}

export interface ServerTestDatabase {
  /** The app role's URL of the copy. */
  url: string;
  name: string;
  /** The owner's URL of the copy (the same as `url` with one role). */
  ownerUrl: string;
  separateOwner: boolean;
  /** Removes the copy with any connection left. */
  drop: () => Promise<void>;
}

/**
 * A fresh copy of the migrated template on the PostgreSQL server of DATABASE_URL, made by the
 * owner role; also for a test that runs the app in a process of its own.
 */
export async function createServerTestDatabase(): Promise<ServerTestDatabase> {
  const { appUrl, ownerUrl, appRole } = testDatabaseRoles();
  const template = inject('pgTemplate');
  const name = `carryover_t_${template.slice(-8)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ownerUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        break;
      } catch (error) {
        // Two files copying the template at the same moment: PostgreSQL asks one to wait.
        if (attempt >= 20 || !String(error).includes('is being accessed')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(appUrl, name),
    name,
    ownerUrl: withDatabase(ownerUrl, name),
    separateOwner: appRole !== undefined,
    drop: () => dropTestDatabase(ownerUrl, name),
  };
}
