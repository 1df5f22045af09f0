import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../db/db.ts';
import { openPglite } from '../db/pglite-db.ts';
import { openPostgres } from '../db/postgres-db.ts';

/** A fresh, migrated database of its own for one test file: PGlite, or a copy on the server. */
export async function createTestDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const snapshot = readFileSync(inject('pgliteSnapshot'));
    return openPglite({ loadDataDir: new Blob([snapshot]) });
  }
  const { url: dbUrl, drop } = await createServerTestDatabase(url);
  const db = await openPostgres(dbUrl, { max: 5 });
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      await drop();
    },
  };
}

/**
 * A fresh copy of the migrated template on the PostgreSQL server at `url`, for a test that runs
 * the app in a process of its own; `drop` removes it with any connection left.
 */
export async function createServerTestDatabase(
  url: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const template = inject('pgTemplate');
  const name = `carryover_t_${template.slice(-8)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
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
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await dropper.end();
    },
  };
}
