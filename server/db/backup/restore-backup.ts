import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { writeAudit, type Actor } from '../audit-write.ts';
import { withinTransaction, type Db, type Queryable } from '../db.ts';
import { loadMigrations, migrate } from '../migrate.ts';
import { outsideKey } from '../outside-key.ts';
import { readBackupHead, type BackupManifest } from './backup-file.ts';
import { checkKeyFiles, writeKeyFiles, type KeyConfig } from './backup-keys.ts';
import { recordRestore, type RestoredHead } from './database-restores.ts';
import { loadBackupData } from './load-backup-data.ts';

/** The target of a restore already holds a database. */
export class TargetNotEmptyError extends Error {}

/** The backup was taken by a newer build: this one does not know all of its migrations. */
export class NewerBackupError extends Error {}

/** The restored chains do not match the backup's heads. */
export class RestoreCheckError extends Error {}

export interface RestoreResult {
  manifest: BackupManifest;
  databaseId: string;
  /** Migrations applied after the backup's own (a backup of an older build). */
  migrated: string[];
  /** Key and anchor files the restore created. */
  keyFiles: string[];
}

const RESTORE_ACTOR: Actor = {
  userId: null,
  userName: 'system (restore from backup)',
  ip: null,
  userAgent: null,
  requestId: null,
};

/** Refuses a target with any table, sequence or view of its own (public schema). */
export async function refuseNonEmpty(db: Queryable, where: string): Promise<void> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_class
      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'm', 'S')`,
  );
  if ((row?.n ?? 0) > 0)
    throw new TargetNotEmptyError(
      `${where} is not empty: a backup is restored only into an empty database. ` +
        'Create a new database (or use a new DATA_DIR), or remove this one first.',
    );
}

function refuseNewerBackup(manifest: BackupManifest): void {
  const known = new Set(loadMigrations().map((m) => m.name));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new NewerBackupError(
      `The backup was taken by a newer build of Carryover (${manifest.appVersion}): this build does ` +
        `not know ${unknown.length === 1 ? 'its migration' : 'its migrations'} ${unknown.join(', ')}. ` +
        'Restore it with that build or a later one.',
    );
}

/** Every chain recomputes whole and ends at the head the backup recorded. */
async function checkChains(tx: Queryable, manifest: BackupManifest): Promise<void> {
  const problems: string[] = [];
  for (const head of manifest.chainHeads) {
    const [broken] = await tx.query<{ broken_seq: number; problem: string }>(
      'select broken_seq, problem from audit_verify_chain($1)',
      [head.chain],
    );
    const [now] = await tx.query<{ seq: number; hash: string }>(
      'select seq::int as seq, hash from audit_chain_heads where chain = $1',
      [head.chain],
    );
    if (broken) problems.push(`${head.chain}: ${broken.problem} at seq ${broken.broken_seq}`);
    else if (now?.seq !== head.seq || now.hash !== head.hash)
      problems.push(`${head.chain}: head ${now?.seq ?? 'missing'}, the backup's ${head.seq}`);
  }
  if (problems.length > 0)
    throw new RestoreCheckError(`The restored audit chains differ: ${problems.join('; ')}`);
}

/** The restore event, once in each plan's chain: "restored from backup B, chain at seq N…". */
async function auditRestore(
  tx: Queryable,
  manifest: BackupManifest,
  backup: string,
  databaseId: string,
): Promise<void> {
  const chains = Object.fromEntries(manifest.chainHeads.map((h) => [h.chain, h.seq]));
  const plans = await tx.query<{ id: number }>('select id from plans order by id');
  for (const planId of plans.length > 0 ? plans.map((p) => p.id) : [null]) {
    const seq = planId === null ? 0 : (chains[`plan:${planId}`] ?? 0);
    await writeAudit(tx, RESTORE_ACTOR, {
      planId,
      domain: 'System',
      action: 'Restore',
      entityId: databaseId,
      reason: `Restored from backup ${backup}, chain at seq ${seq}, on ${new Date().toISOString().slice(0, 10)}`,
      newValues: {
        backup,
        backupTakenAt: manifest.takenAt,
        chains,
        databaseId,
        previousDatabaseId: manifest.databaseId,
      },
    });
  }
}

/**
 * Restores the backup at `path` into the empty database `db` (the schema's owner, with the app
 * role `appRole` to grant when there are two) and its keys and anchors where `config` reads
 * them. In one transaction: the backup's migrations, its rows, the row counts and chains
 * checked, this build's later migrations, a database id of its own, and the restore recorded
 * (signed in database_restores, and in the audit trail). Nothing stays of a failed restore but
 * the key files it wrote.
 */
export async function restoreBackup(
  db: Db,
  config: KeyConfig,
  path: string,
  options: { appRole?: string | undefined; warn: (message: string) => void; where: string },
): Promise<RestoreResult> {
  const { manifest, files } = await readBackupHead(path);
  refuseNewerBackup(manifest);
  await refuseNonEmpty(db, options.where);
  await checkKeyFiles(config, files);
  const databaseId = randomUUID();
  const keyFiles = await writeKeyFiles(config, files, {
    from: manifest.databaseId,
    to: databaseId,
  });
  const backup = basename(path);
  try {
    const key = await outsideKey(config, options.warn);
    const migrated = await db.transaction(async (tx) => {
      const inner = withinTransaction(tx, db.kind);
      const taken = new Set(manifest.migrations);
      await migrate(inner, { migrations: loadMigrations().filter((m) => taken.has(m.name)) });
      await loadBackupData(tx, path, manifest);
      await checkChains(tx, manifest);
      const later = await migrate(inner, { appRole: options.appRole });
      await tx.query('update database_identity set id = $1', [databaseId]);
      const heads: RestoredHead[] = manifest.chainHeads.map((h) => [h.chain, h.seq, h.hash]);
      await recordRestore(tx, key, {
        databaseId,
        previousDatabaseId: manifest.databaseId,
        backup,
        backupTakenAt: manifest.takenAt,
        heads,
      });
      await auditRestore(tx, manifest, backup, databaseId);
      return later;
    });
    return { manifest, databaseId, migrated, keyFiles };
  } catch (error) {
    // The files this restore made, so that the target is as empty as it was; lines added to
    // files it found stay (anchors are signed, and count only for the database they name).
    for (const file of keyFiles) await rm(file, { force: true });
    throw error;
  }
}
