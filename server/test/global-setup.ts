import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/pglite-db.ts';
import { migrate } from '../db/migrate.ts';
import { openPostgres } from '../db/postgres-db.ts';
import { projectRoot } from '../util/project-root.ts';
import { testDatabaseRoles, withDatabase } from './test-db-urls.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Gzipped data directory of a migrated PGlite database, loaded by each test file. */
    pgliteSnapshot: string;
    /** A migrated database on the PostgreSQL server, used as the template of each test file's. */
    pgTemplate: string;
  }
}

/**
 * Migrates once per run. On PGlite the migrated data directory is dumped and each test file
 * loads it (an initdb per file costs seconds); on a server each file gets a copy of a template.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    const { ownerUrl, appRole } = testDatabaseRoles();
    const template = `carryover_tmpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ownerUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const db = await openPostgres(withDatabase(ownerUrl, template), { max: 1 });
    await migrate(db, { appRole });
    await db.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`carryover_t_${template.slice(-8)}_%`],
      );
      for (const row of rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }

  project.provide('pgliteSnapshot', await pgliteSnapshot());
  project.provide('pgTemplate', '');
  return releasePgliteSnapshot;
}

/*
 * The server and browser projects' setups both need the migrated PGlite snapshot: made once per
 * run (a migration and a dump cost about 13 s of CPU before any test can start), removed when the
 * last project that asked for it is done.
 */
let snapshot: Promise<string> | undefined;
let users = 0;

function pgliteSnapshot(): Promise<string> {
  users += 1;
  snapshot ??= (async () => {
    const pgl = await openPglite({});
    await migrate(pgl);
    const dump = await pgl.dumpDataDir();
    await pgl.close();
    const dir = join(projectRoot(), '.test-output');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `pglite-snapshot-${process.pid}.tar.gz`);
    writeFileSync(file, Buffer.from(dump));
    return file;
  })();
  return snapshot;
}

async function releasePgliteSnapshot(): Promise<void> {
  users -= 1;
  if (users > 0 || !snapshot) return;
  rmSync(await snapshot, { force: true });
  snapshot = undefined;
}
