import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCleanup } from '../../test/temp-dirs.ts';
import { loadConfig } from '#server/config.ts';
import { createAnchorStore } from '#server/modules/audit/audit-anchor.ts';
import { verifyChain } from '#server/modules/audit/audit-chain.ts';
import { seededBefore } from '../../test/migration-db.ts';
import { createTestDb } from '../../test/test-db.ts';
import { createEmptyServerDatabase } from '../../test/empty-server-db.ts';
import { writeAudit } from '../audit-write.ts';
import type { Db } from '../db.ts';
import { loadMigrations, migrate } from '../migrate.ts';
import { openEmptyPglite } from '../../test/empty-pglite.ts';
import { openPostgres } from '../postgres-db.ts';
import { readBackup, readBackupHead } from './backup-file.ts';
import { backupBeforeMigrating, KEPT_BEFORE_MIGRATION } from './pre-migration-backup.ts';
import { NewerBackupError, restoreBackup, TargetNotEmptyError } from './restore-backup.ts';
import { columnsOf, ident, takeBackup } from './take-backup.ts';

const { later, tempDir } = fileCleanup();

const configOf = (dataDir: string) => loadConfig({ DATA_DIR: dataDir });
const warn = () => undefined;

/** An empty database of the kind the suite runs on, as the schema's owner, and its app role. */
async function emptyTarget(): Promise<{ db: Db; appRole?: string | undefined }> {
  if (!process.env.DATABASE_URL) {
    const db = await openEmptyPglite();
    later(() => db.close());
    return { db };
  }
  const database = await createEmptyServerDatabase();
  const db = await openPostgres(database.ownerUrl, { max: 2 });
  later(async () => {
    await db.close();
    await database.drop();
  });
  return { db, appRole: database.appRole };
}

/** Restores `file` into a new empty database with a data folder of its own for the keys. */
async function restoreFresh(file: string, name: string) {
  const { db, appRole } = await emptyTarget();
  const dir = tempDir(name);
  const result = await restoreBackup(db, configOf(dir), file, { appRole, warn, where: name });
  await createAnchorStore(configOf(dir), warn).write(db);
  return { db, dir, result, appRole };
}

const SOURCE_ACTOR = {
  userId: null,
  userName: 'writer',
  ip: null,
  userAgent: null,
  requestId: null,
};

/** One audit row of a plan's chain per call, as a change would write. */
async function writeOne(db: Db, planId: number, n: number): Promise<void> {
  await db.transaction((tx) =>
    writeAudit(tx, SOURCE_ACTOR, {
      planId,
      domain: 'System',
      action: 'Seed',
      reason: `write ${n}`,
    }),
  );
}

/** Every chain of `db`, checked against every anchor that counts for it (as verify does). */
async function verifyAll(db: Db, dataDir: string) {
  const anchors = await createAnchorStore(configOf(dataDir), warn).read(db);
  const chains = await db.query<{ chain: string }>('select chain from audit_chain_heads');
  const checks = [];
  for (const { chain } of chains) checks.push(await verifyChain(db, chain, anchors));
  return { anchors, checks };
}

/** Each table's rows in the backup file, as sorted JSON of their text values. */
async function rowsOfBackup(path: string): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  for await (const record of readBackup(path)) {
    if (record.kind === 'table') tables.set(record.name, []);
    if (record.kind === 'rows')
      tables.get(record.table)!.push(...record.rows.map((r) => JSON.stringify(r)));
  }
  for (const rows of tables.values()) rows.sort();
  return tables;
}

async function rowsOfTable(db: Db, table: string, columns: string[]): Promise<string[]> {
  const select = columns.map((c, i) => `${ident(c)}::text as c${i}`).join(', ');
  const rows = await db.query<Record<string, string | null>>(
    `select ${select} from ${ident(table)}`,
  );
  return rows.map((row) => JSON.stringify(columns.map((_, i) => row[`c${i}`] ?? null))).sort();
}

describe('backup and restore', () => {
  it('restores a backup taken while writing: every row equal, counts and chains checked, verify intact', async () => {
    const source = await createTestDb();
    later(() => source.close());
    const sourceDir = tempDir('source');
    const sourceConfig = configOf(sourceDir);
    const [plan] = await source.query<{ id: number }>(
      `insert into plans (name) values ('Backup plan') returning id`,
    );
    for (let n = 0; n < 20; n += 1) await writeOne(source, plan!.id, n);
    const store = createAnchorStore(sourceConfig, warn);
    await store.write(source);
    // The settings key beside the database (secrets kept in the settings are encrypted with it).
    const settingsKey = `${'5e'.repeat(32)}\n`;
    writeFileSync(join(sourceDir, 'settings-secret.key'), settingsKey);

    // Writers keep going while the snapshot is read.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) await writeOne(source, plan!.id, 100 + written++);
    })();
    const file = join(sourceDir, 'while-writing.carryover-backup');
    const manifest = await takeBackup(source, sourceConfig, file);
    for (let n = 0; n < 5; n += 1) await writeOne(source, plan!.id, 1000 + n);
    writing = false;
    await writer;
    // The original anchors rows the backup does not hold: they must not count against the copy.
    await store.write(source);
    expect(written).toBeGreaterThan(0);
    expect(
      manifest.chainHeads.find((h) => h.chain === `plan:${plan!.id}`)!.seq,
    ).toBeGreaterThanOrEqual(20);

    const { db: target, dir: targetDir, result, appRole } = await restoreFresh(file, 'target');
    expect(result.databaseId).not.toBe(manifest.databaseId);
    expect(result.migrated).toEqual([]);
    // The keys come back where the restored server reads them.
    expect(readFileSync(join(targetDir, 'settings-secret.key'), 'utf8')).toBe(settingsKey);
    expect(existsSync(join(targetDir, 'audit-anchors', 'anchor.key'))).toBe(true);

    // Every row of the backup is in the copy as it was; only the restore's own rows differ.
    const changedByRestore = new Set([
      'audit_log',
      'audit_chain_heads',
      'database_identity',
      'database_restores',
    ]);
    const backupRows = await rowsOfBackup(file);
    for (const [table, rows] of backupRows) {
      const now = await rowsOfTable(target, table, await columnsOf(target, table));
      if (!changedByRestore.has(table)) expect({ table, rows: now }).toEqual({ table, rows });
    }
    const audit = await rowsOfTable(target, 'audit_log', await columnsOf(target, 'audit_log'));
    for (const row of backupRows.get('audit_log')!) expect(audit).toContain(row);
    const [restoreRow] = await target.query<{ reason: string; action: string; domain: string }>(
      `select reason, action, domain from audit_log where domain = 'System' and action = 'Restore'
        and plan_id = $1`,
      [plan!.id],
    );
    const seq = manifest.chainHeads.find((h) => h.chain === `plan:${plan!.id}`)!.seq;
    expect(restoreRow!.reason).toMatch(
      new RegExp(
        `^Restored from backup while-writing.carryover-backup, chain at seq ${seq}, on \\d{4}-\\d{2}-\\d{2}$`,
      ),
    );

    // Anchors: the original's up to the backup count, its later ones do not; the copy signs its own.
    const { anchors, checks } = await verifyAll(target, targetDir);
    expect(checks.filter((c) => !c.intact)).toEqual([]);
    expect(anchors.some((a) => a.db === manifest.databaseId && a.signed)).toBe(true);
    expect(anchors.some((a) => a.db === manifest.databaseId && a.seq > seq)).toBe(false);
    expect(anchors.some((a) => a.db === result.databaseId && a.signed)).toBe(true);

    // A backup of the copy restores again, its lineage and all.
    const again = join(targetDir, 'copy.carryover-backup');
    await takeBackup(target, configOf(targetDir), again);
    const { db: third, dir: thirdDir, result: second } = await restoreFresh(again, 'third');
    expect((await verifyAll(third, thirdDir)).checks.filter((c) => !c.intact)).toEqual([]);
    expect(second.databaseId).not.toBe(result.databaseId);

    // Refusals: a database that holds data, and a backup of a newer build.
    await expect(
      restoreBackup(target, configOf(targetDir), file, { appRole, warn, where: 'the copy' }),
    ).rejects.toThrow(TargetNotEmptyError);
    const owner = await source.owner();
    await owner.query(`insert into schema_migrations (name, checksum) values ($1, 'x')`, [
      '29990101000000_from_a_newer_build.sql',
    ]);
    const newer = join(sourceDir, 'newer.carryover-backup');
    await takeBackup(source, sourceConfig, newer);
    await owner.query(`delete from schema_migrations where name like '2999%'`);
    const { db: empty } = await emptyTarget();
    const emptyDir = tempDir('refused');
    await expect(
      restoreBackup(empty, configOf(emptyDir), newer, { appRole, warn, where: 'x' }),
    ).rejects.toThrow(NewerBackupError);
    await expect(
      restoreBackup(empty, configOf(emptyDir), newer, { appRole, warn, where: 'x' }),
    ).rejects.toThrow('29990101000000_from_a_newer_build.sql');
    // Refused before anything was written: the target stays empty, no key was made.
    expect(
      await empty.query(`select 1 from pg_class where relnamespace = 'public'::regnamespace`),
    ).toEqual([]);
    expect(readdirSync(emptyDir)).toEqual([]);
  }, 300_000);

  it('restores a backup of an older schema and migrates it on', async () => {
    const ours = '20261208110000_database_restores.sql';
    const { db: old, facilityId } = await seededBefore(ours);
    later(() => old.close());
    const [f] = await old.query<{ plan_id: number }>(
      'select plan_id from facilities where id = $1',
      [facilityId],
    );
    await writeOne(old, f!.plan_id, 1);
    const dir = tempDir('older');
    const file = join(dir, 'older.carryover-backup');
    const manifest = await takeBackup(old, configOf(dir), file);
    expect(manifest.migrations).not.toContain(ours);

    const { db: target, dir: targetDir, result } = await restoreFresh(file, 'older-target');
    expect(result.migrated).toContain(ours);
    const [users] = await target.query<{ n: number }>('select count(*)::int as n from users');
    expect(users!.n).toBe(manifest.tables.users);
    expect(await migrate(target)).toEqual([]);
    expect((await verifyAll(target, targetDir)).checks.filter((c) => !c.intact)).toEqual([]);
  }, 300_000);

  it('keeps the last five backups taken before migrating an embedded database', async () => {
    const last = loadMigrations().at(-1)!.name;
    const { db } = await seededBefore(last);
    later(() => db.close());
    const dir = tempDir('before-migration');
    const made: string[] = [];
    for (let n = 0; n < KEPT_BEFORE_MIGRATION + 2; n += 1)
      made.push((await backupBeforeMigrating(db, configOf(dir)))!);
    const kept = readdirSync(join(dir, 'backups')).sort();
    expect(kept).toEqual(
      made
        .slice(-KEPT_BEFORE_MIGRATION)
        .map((p) => p.split('/').at(-1))
        .sort(),
    );
    const { manifest } = await readBackupHead(made.at(-1)!);
    expect(manifest.migrations).not.toContain(last);
    await migrate(db);
    // Nothing to migrate, nothing to keep.
    expect(await backupBeforeMigrating(db, configOf(dir))).toBeUndefined();
    expect(existsSync(made[0]!)).toBe(false);
  }, 300_000);
});
