import type { PgliteDb } from '../db/pglite-db.ts';
import { openPglite } from '../db/pglite-db.ts';
import { readFingerprint, readResetTemplate, type Query, type ResetTemplate } from './db-reset.ts';

/*
 * Embedded databases kept by this test worker between files. Opening a PGlite from the migrated
 * snapshot costs about a second of CPU; emptying one a file has used and putting back the rows
 * the migrations left (db-reset.ts) costs a few milliseconds. A database whose catalog is no
 * longer the snapshot's is closed.
 */

let template: Promise<ResetTemplate> | undefined;
const query =
  (db: PgliteDb): Query =>
  (sql) =>
    db.query(sql);
const idle: PgliteDb[] = [];

/** A new database from the snapshot, the worker's template read from the first one. */
async function openFromSnapshot(snapshot: () => ArrayBuffer): Promise<PgliteDb> {
  const db = await openPglite({ loadDataDir: snapshot() });
  template ??= readResetTemplate(query(db), true);
  await template;
  return db;
}

/** A migrated, empty database: one this worker used before and emptied, or a new one. */
export async function takePglite(snapshot: () => ArrayBuffer): Promise<PgliteDb> {
  return idle.pop() ?? openFromSnapshot(snapshot);
}

/**
 * Opens this worker's first database ahead of its first file, when none is kept yet: the open and
 * the read of the template are the costliest part of a worker's first file, and on a busy machine
 * they outlasted that file's own hook timeout (issue 27).
 */
export async function warmPglite(snapshot: () => ArrayBuffer): Promise<void> {
  if (template || idle.length > 0) return;
  idle.push(await openFromSnapshot(snapshot));
}

/**
 * Empties a database a test file has finished with and keeps it for the next file, or closes it
 * when its schema is no longer the snapshot's or it cannot be emptied.
 */
export async function givePglite(db: PgliteDb): Promise<void> {
  try {
    const { fingerprint, reset } = await template!;
    if ((await readFingerprint(query(db), true)) === fingerprint) {
      // Settings, prepared statements, temporary tables and advisory locks of the last file.
      await db.exec('discard all');
      await db.exec(reset);
      idle.push(db);
      return;
    }
  } catch {
    // A database that cannot be read or emptied is not handed to another file.
  }
  await db.close();
}
