import { readdirSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Db } from '../db.ts';
import { loadMigrations } from '../migrate.ts';
import type { KeyConfig } from './backup-keys.ts';
import { takeBackup } from './take-backup.ts';

/** How many backups taken before migrating are kept in DATA_DIR/backups. */
export const KEPT_BEFORE_MIGRATION = 5;
const PREFIX = 'before-migration-';
export const BACKUP_SUFFIX = '.carryover-backup';

export function backupsDir(dataDir: string): string {
  return join(resolve(dataDir), 'backups');
}

/**
 * Before this build migrates an embedded database that holds data, a backup of it as it was:
 * an upgrade that goes wrong is then undone by restoring it with the build before (EU GMP
 * Annex 11 §10: a change is controlled, and §7.2: data is backed up). The last five are kept.
 * Returns the backup's path, or undefined when there was nothing to migrate or to keep.
 */
export async function backupBeforeMigrating(
  db: Db,
  config: KeyConfig,
): Promise<string | undefined> {
  if (db.kind !== 'pglite') return undefined;
  const [exists] = await db.query<{ t: string | null }>(
    `select to_regclass('schema_migrations')::text as t`,
  );
  if (!exists?.t) return undefined;
  const applied = new Set(
    (await db.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
  );
  const known = loadMigrations().map((m) => m.name);
  const pending = known.filter((name) => !applied.has(name));
  // A newer build's database is refused by the migration runner; an empty one has nothing to keep.
  if (pending.length === 0 || applied.size === 0 || [...applied].some((n) => !known.includes(n)))
    return undefined;
  const dir = backupsDir(config.DATA_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const path = join(dir, `${PREFIX}${stamp}${BACKUP_SUFFIX}`);
  await takeBackup(db, config, path);
  const kept = readdirSync(dir)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(BACKUP_SUFFIX))
    .sort()
    .reverse();
  for (const old of kept.slice(KEPT_BEFORE_MIGRATION)) await rm(join(dir, old), { force: true });
  return path;
}
