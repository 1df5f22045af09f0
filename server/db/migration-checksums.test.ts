import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import type { Db } from './db.ts';
import { loadMigrations, migrate } from './migrate.ts';
import {
  checksumListProblems,
  migrationChecksum,
  readChecksumList,
} from './migration-checksums.ts';

const run = promisify(execFile);
let testDb: TestDb;
// Migrations run as the role that owns the schema (the app role may not create tables).
let db: Db;
const dirs: string[] = [];
beforeAll(async () => {
  testDb = await createTestDb();
  db = await testDb.owner();
});
afterAll(async () => {
  await testDb?.close();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function listChecksums(dir: string, list: string) {
  const args = ['--import', 'tsx', 'scripts/migrations-checksum.ts', dir, list];
  try {
    const { stdout } = await run(process.execPath, args);
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    return error as { code: number; stdout: string; stderr: string };
  }
}

describe('migration checksums', () => {
  it('lists every migration file with the checksum of its text', () => {
    expect(checksumListProblems(loadMigrations(), readChecksumList())).toEqual([]);
  });

  it('names a changed, an unlisted and a vanished migration', () => {
    const listed = new Map([
      ['1_a.sql', migrationChecksum('create table a (id int);\n')],
      ['2_b.sql', migrationChecksum('create table b (id int);\n')],
      ['3_c.sql', migrationChecksum('create table c (id int);\n')],
    ]);
    const migrations = [
      // Line endings alone are no change: a CRLF checkout must not stop anyone.
      { name: '1_a.sql', sql: 'create table a (id int);\r\n' },
      { name: '2_b.sql', sql: 'create table b (id bigint);\n' },
      { name: '4_d.sql', sql: 'create table d (id int);\n' },
    ];
    expect(checksumListProblems(migrations, listed)).toEqual([
      '2_b.sql changed after it landed: restore it and add a new migration instead',
      '4_d.sql is not listed: run npm run migrations:checksum',
      '3_c.sql is listed but its file is gone',
    ]);
  });

  it('npm run migrations:checksum lists new migrations and never rewrites a listed one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carryover-migrations-'));
    dirs.push(dir);
    const list = join(dir, 'migrations.sha256');
    writeFileSync(join(dir, '1_a.sql'), 'create table a (id int);\n');
    expect((await listChecksums(dir, list)).stdout).toBe('listed 1_a.sql\n');
    const first = readFileSync(list, 'utf8');
    expect(first).toBe(`${migrationChecksum('create table a (id int);\n')}  1_a.sql\n`);

    writeFileSync(join(dir, '2_b.sql'), 'create table b (id int);\n');
    writeFileSync(join(dir, '1_a.sql'), 'create table a (id bigint);\n');
    const second = await listChecksums(dir, list);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('1_a.sql changed after it landed');
    const after = readFileSync(list, 'utf8');
    expect(after).toBe(`${first}${migrationChecksum('create table b (id int);\n')}  2_b.sql\n`);
  }, 60_000);
});

describe('migrate() and the checksums of applied migrations', () => {
  const probe = { name: '20261123700001_checksum_probe.sql', sql: 'create table probe (id int);' };
  const later = { name: '20261123700002_checksum_later.sql', sql: 'create table later (id int);' };

  it('records the checksum of every migration it applies', async () => {
    const rows = await db.query<{ name: string; checksum: string }>(
      'select name, checksum from schema_migrations order by name',
    );
    expect(rows).toEqual(
      loadMigrations().map((m) => ({ name: m.name, checksum: migrationChecksum(m.sql) })),
    );
  });

  it('refuses to run when a migration it applied has changed, and applies nothing', async () => {
    expect(await migrate(db, { migrations: [...loadMigrations(), probe] })).toEqual([probe.name]);
    const edited = { ...probe, sql: 'create table probe (id bigint);' };
    await expect(migrate(db, { migrations: [...loadMigrations(), edited, later] })).rejects.toThrow(
      `Migrations changed after this database applied them: ${probe.name}.`,
    );
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_name = 'later'",
    );
    expect(row?.n).toBe(0);
  });

  it('fills in the checksums of a database migrated before they were kept', async () => {
    await db.exec('alter table schema_migrations drop column checksum');
    expect(await migrate(db, { migrations: [...loadMigrations(), probe] })).toEqual([]);
    const [row] = await db.query<{ n: number }>(
      'select count(*)::int as n from schema_migrations where checksum is null',
    );
    expect(row?.n).toBe(0);
    const edited = { ...probe, sql: 'create table probe (id bigint);' };
    await expect(migrate(db, { migrations: [...loadMigrations(), edited] })).rejects.toThrow(
      probe.name,
    );
  });
});
