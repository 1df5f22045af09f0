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
import { amcheckPglite, amcheckServer, type AmcheckResult } from '../../test/amcheck.ts';
import { buildSignedRecord, type SignedRecord } from '../../test/factories/signed-record.ts';
import { readPdfText } from '../../test/read-pdf-text.ts';
import { startTestServer } from '../../test/test-server.ts';
import { registerControlledEntities } from '#server/records/controlled-entities.ts';
import { utcMoment } from '#server/records/record-pdf.ts';
import type { PgliteDb } from '../pglite-db.ts';
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
interface Target {
  db: Db;
  appRole?: string | undefined;
  /** On a server, the copy's URLs as its owner and as the app. */
  urls?: { owner: string; app: string };
}

async function emptyTarget(): Promise<Target> {
  if (!process.env.DATABASE_URL) {
    const db = await openEmptyPglite(undefined, { amcheck: true });
    later(() => db.close());
    return { db };
  }
  const database = await createEmptyServerDatabase();
  const db = await openPostgres(database.ownerUrl, { max: 2 });
  later(async () => {
    await db.close();
    await database.drop();
  });
  return {
    db,
    appRole: database.appRole,
    urls: { owner: database.ownerUrl, app: database.appUrl },
  };
}

/**
 * DB-1 (EU GMP Annex 11 §7.2): amcheck over every btree index and table of a restored copy;
 * it must have checked something and found nothing.
 */
async function expectIntactStorage(target: Target): Promise<AmcheckResult> {
  const result = target.urls
    ? await amcheckServer(target.urls.owner)
    : await amcheckPglite(target.db as PgliteDb);
  expect(result.problems).toEqual([]);
  expect(result.indexes).toBeGreaterThan(0);
  expect(result.tables).toBeGreaterThan(0);
  return result;
}

/** Restores `file` into a new empty database with a data folder of its own for the keys. */
async function restoreFresh(file: string, name: string) {
  const target = await emptyTarget();
  const { db, appRole } = target;
  const dir = tempDir(name);
  const result = await restoreBackup(db, configOf(dir), file, { appRole, warn, where: name });
  await createAnchorStore(configOf(dir), warn).write(db);
  return { db, dir, result, appRole, target };
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

/**
 * DB-2 (EU GMP Annex 11 §8 printouts, §17 archiving): the app started on the restored, migrated
 * copy still gives the signed record, its signatures and the audit trail as JSON and as PDF.
 */
async function expectExportsOf(
  target: Target,
  dataDir: string,
  signed: SignedRecord,
  scope: { planId: number; facilityId: number },
): Promise<void> {
  // The app's own role on a server, as production serves.
  const db = target.urls ? await openPostgres(target.urls.app, { max: 3 }) : target.db;
  if (target.urls) later(() => db.close());
  const server = await startTestServer({}, { on: { db, dataDir } });
  later(() => server.close());
  const { submitter, approver } = signed;
  const token = await server.login(submitter.username, submitter.password);
  const F = `/api/v2/plans/${scope.planId}/facilities/${scope.facilityId}`;
  const get = async <T>(path: string) => {
    const res = await server.request<T>('GET', path, { token });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.body;
  };
  const pdf = async (path: string) => {
    const res = await fetch(server.url + path, { headers: { token } });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const { pages, text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(pages).toBeGreaterThan(0);
    return text.replace(/\s+/g, ' ');
  };

  // The record and its signatures as JSON: both signers, meanings and times, still valid.
  const record = await get<{ name: string; sopNumber: string }>(`${F}/sop/${signed.documentId}`);
  expect(record.name).toBe('Cleaning signed before the upgrade');
  const ref = `documentType=SOP&documentId=${signed.documentId}`;
  const { signatures } = await get<{ signatures: Record<string, unknown>[] }>(
    `${F}/signatures?${ref}`,
  );
  expect(signatures.map((s) => [s.printedName, s.meaning, s.valid])).toEqual([
    [submitter.name, 'Submitted for review', true],
    [approver.name, 'Approved', true],
  ]);
  expect(String(signatures[1]!.signedAt)).toBe(String(signed.approval.signature.signedAt));

  // The signed record's PDF: its name, each signer, meaning and time.
  const recordPdf = await pdf(`${F}/signatures/pdf?${ref}`);
  expect(recordPdf).toContain(record.sopNumber);
  expect(recordPdf).toContain('Signature manifest');
  for (const s of signatures) {
    expect(recordPdf).toContain(String(s.printedName));
    expect(recordPdf).toContain(String(s.meaning));
    expect(recordPdf).toContain(utcMoment(String(s.signedAt)));
  }

  // The audit trail as JSON and as PDF: the signatures' rows and the restore's own.
  const audit = await get<{ data: { domain: string; action: string }[]; total: number }>(
    `/api/v2/audit_logs?currentFacilityId=${scope.facilityId}&pageLimit=200`,
  );
  const kinds = audit.data.map((row) => `${row.domain} ${row.action}`);
  expect(kinds).toContain('ElectronicSignature Approve');
  expect(kinds).toContain('System Restore');
  const auditPdf = await pdf(`/api/v2/audit_logs/export?currentFacilityId=${scope.facilityId}`);
  expect(auditPdf).toContain('Audit Logs');
  expect(auditPdf).toContain(approver.name);
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

    const {
      db: target,
      dir: targetDir,
      result,
      appRole,
      target: restored,
    } = await restoreFresh(file, 'target');
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
    const {
      db: third,
      dir: thirdDir,
      result: second,
      target: restoredAgain,
    } = await restoreFresh(again, 'third');
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

    // DB-1: the indexes and tables of both restored copies check intact.
    await expectIntactStorage(restored);
    await expectIntactStorage(restoredAgain);
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

    const copy = await restoreFresh(file, 'older-target');
    expect(copy.result.migrated).toContain(ours);
    const [users] = await copy.db.query<{ n: number }>('select count(*)::int as n from users');
    expect(users!.n).toBe(manifest.tables.users);
    expect(await migrate(copy.db)).toEqual([]);
    expect((await verifyAll(copy.db, copy.dir)).checks.filter((c) => !c.intact)).toEqual([]);
    await expectIntactStorage(copy.target);
  }, 300_000);

  it('restores a signed record of the build before, migrates it, and still exports it', async () => {
    // The schema of the build before this one: every migration but this build's last. This
    // build's signature service writes there (one further back, the tables it signs into
    // lack columns it now writes: that depth is the case above, without signatures).
    const last = loadMigrations().at(-1)!.name;
    const { db: old, facilityId } = await seededBefore(last);
    later(() => old.close());
    const [f] = await old.query<{ plan_id: number }>(
      'select plan_id from facilities where id = $1',
      [facilityId],
    );
    const dir = tempDir('signed-before');
    const scope = { planId: f!.plan_id, facilityId };
    // The types declared to the signature service as the app declares them at start.
    registerControlledEntities();
    const signed = await buildSignedRecord({ db: old, config: configOf(dir) }, scope, {
      sop: { name: 'Cleaning signed before the upgrade' },
    });
    const file = join(dir, 'signed-before.carryover-backup');
    const manifest = await takeBackup(old, configOf(dir), file);
    expect(manifest.migrations).not.toContain(last);
    expect(manifest.tables.signatures).toBe(2);

    const copy = await restoreFresh(file, 'signed-target');
    expect(copy.result.migrated).toEqual([last]);
    expect((await verifyAll(copy.db, copy.dir)).checks.filter((c) => !c.intact)).toEqual([]);
    await expectIntactStorage(copy.target);
    await expectExportsOf(copy.target, copy.dir, signed, scope);
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
