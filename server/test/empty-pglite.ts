import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite, type PgliteDb } from '../db/pglite-db.ts';
import { pgliteSnapshotFile } from './test-db.ts';

/*
 * An embedded database as initdb leaves it, loaded from the run's dump of one (made beside the
 * migrated snapshot, server/test/global-setup.ts) instead of running initdb again: an initdb
 * costs about 8 s of CPU, a load about one. For tests whose subject is what comes after initdb
 * (a migration, a restore into an empty database, a server's start on a folder it did not make).
 * The first start on a folder of nothing stays covered by server/main.test.ts and
 * e2e/first-run.test.ts, and the driver's own opens by server/db/pglite-db.test.ts.
 */

/** The run's dump of an empty database, or undefined where the run made none. */
async function emptyDump(): Promise<ArrayBuffer | undefined> {
  const file = inject('pgliteEmptySnapshot');
  if (!file) return undefined;
  // Made by the same step as the migrated snapshot, and written before it.
  await pgliteSnapshotFile();
  return new Uint8Array(readFileSync(file)).buffer;
}

/**
 * A new, empty embedded database in memory, or in `dataDir` when given; with `amcheck`, one that
 * amcheckPglite can check in place (a restore's target).
 */
export async function openEmptyPglite(
  dataDir?: string,
  { amcheck = false }: { amcheck?: boolean } = {},
): Promise<PgliteDb> {
  const loadDataDir = await emptyDump();
  return openPglite({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(amcheck ? { amcheck } : {}),
  });
}

/**
 * A new embedded database (in `dataDir` when given) migrated up to, not including, `migration`.
 * Up to the last one it is the run's snapshot of the build before, loaded in about a second;
 * otherwise an empty one, migrated here.
 */
export async function openPgliteBefore(migration: string, dataDir?: string): Promise<PgliteDb> {
  const all = loadMigrations();
  const migrations = all.filter((m) => m.name < migration);
  const beforeLast = inject('pgliteBeforeLastSnapshot');
  if (beforeLast && migrations.length === all.length - 1) {
    // Made by the same step as the migrated snapshot, and written before it.
    await pgliteSnapshotFile();
    const loadDataDir = new Uint8Array(readFileSync(beforeLast)).buffer;
    return openPglite({ ...(dataDir ? { dataDir } : {}), loadDataDir });
  }
  const db = await openEmptyPglite(dataDir);
  await migrate(db, { migrations });
  return db;
}

/**
 * Makes `dataDir` the data folder of a new embedded database, closed again: empty, or migrated
 * as this build migrates (from the run's migrated snapshot) for a test whose subject is not
 * the migration.
 */
export async function initializeDataDir(
  dataDir: string,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<void> {
  const snapshot = migrated && inject('pgliteSnapshot') ? await pgliteSnapshotFile() : undefined;
  const db = snapshot
    ? await openPglite({ dataDir, loadDataDir: new Uint8Array(readFileSync(snapshot)).buffer })
    : await openEmptyPglite(dataDir);
  try {
    if (migrated && !snapshot) await migrate(db);
  } finally {
    await db.close();
  }
}
