import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.ts';
import { openPostgres } from '../db/postgres-db.ts';
import { projectRoot } from '../util/project-root.ts';
import { sharedStep, startBackgroundStep } from './background-step.ts';
import { testDatabaseRoles, withDatabase } from './test-db-urls.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Gzipped data directory of a migrated PGlite database, loaded by each test file once its
     * background step has ended (pgliteSnapshotStatus; server/test/test-db.ts waits for it).
     */
    pgliteSnapshot: string;
    pgliteSnapshotStatus: string;
    /**
     * Gzipped data directory of a new embedded database as initdb leaves it (no migration), made
     * by the same step: a test that needs an empty database loads it instead of paying an initdb
     * (server/test/empty-pglite.ts).
     */
    pgliteEmptySnapshot: string;
    /**
     * Gzipped data directory of an embedded database migrated but for the last migration (the
     * schema of the build before this one), made by the same step before the migrated one: for
     * the tests of an upgrade from it (server/test/empty-pglite.ts).
     */
    pgliteBeforeLastSnapshot: string;
    /** A migrated database on the PostgreSQL server, used as the template of each test file's. */
    pgTemplate: string;
  }
}

/**
 * Migrates once per run. On PGlite the migrated data directory is dumped and each test file
 * loads it (an initdb per file costs seconds); on a server each file gets a copy of a template.
 * The PGlite dumps are made on a server run too: the tests of a migration, of an upgrade and of
 * a restore into an embedded folder open embedded databases there as well, and ten initdbs of
 * about 8 s of CPU each cost more than making the dumps once.
 */
export default async function setup(project: TestProject) {
  const snapshot = pgliteSnapshot();
  const { file, emptyFile, beforeLastFile, step } = snapshot.value;
  const releasePgliteSnapshot = async () => snapshot.release();
  project.provide('pgliteSnapshot', file);
  project.provide('pgliteEmptySnapshot', emptyFile);
  project.provide('pgliteBeforeLastSnapshot', beforeLastFile);
  project.provide('pgliteSnapshotStatus', step.statusFile);
  // The embedded pass of a server run empties DATABASE_URL for its files (vitest.config.ts).
  if (project.config.env?.DATABASE_URL ?? process.env.DATABASE_URL) {
    const { ownerUrl, appRole } = testDatabaseRoles();
    const template = `carryover_tmpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ownerUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const db = await openPostgres(withDatabase(ownerUrl, template), { max: 1 });
    await migrate(db, { appRole });
    await db.close();
    project.provide('pgTemplate', template);
    return async () => {
      await releasePgliteSnapshot();
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

  project.provide('pgTemplate', '');
  return releasePgliteSnapshot;
}

/** The migrated PGlite snapshots, made once per run in a process of its own (~17 s of CPU, while
 * the unit tests, which need no database, run), removed when the last project using them is done. */
function pgliteSnapshot() {
  return sharedStep('pgliteSnapshot', () => {
    const file = join(projectRoot(), '.test-output', `pglite-snapshot-${process.pid}.tar.gz`);
    const emptyFile = join(projectRoot(), '.test-output', `pglite-empty-${process.pid}.tar.gz`);
    const beforeLastFile = join(
      projectRoot(),
      '.test-output',
      `pglite-before-last-${process.pid}.tar.gz`,
    );
    const files = [file, emptyFile, beforeLastFile];
    for (const name of files) rmSync(name, { force: true });
    const step = startBackgroundStep('pglite-snapshot', [
      '--import',
      'tsx',
      join(projectRoot(), 'server/test/pglite-snapshot-build.ts'),
      ...files,
    ]);
    return {
      file,
      emptyFile,
      beforeLastFile,
      step,
      stop: () => {
        step.stop();
        for (const name of files) rmSync(name, { force: true });
      },
    };
  });
}
