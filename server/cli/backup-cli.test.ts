import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCleanup } from '../test/temp-dirs.ts';
import { readBackupHead } from '#server/db/backup/backup-file.ts';
import { loadMigrations } from '#server/db/migrate.ts';
import { openDatabase } from '#server/db/open.ts';
import { seedFirstStart } from '#server/db/seed.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { openPgliteBefore } from '../test/empty-pglite.ts';
import { processEnvWithoutDatabase, startServerProcess } from '../test/server-process.ts';
import { createEmptyServerDatabase } from '../test/empty-server-db.ts';
import { projectRoot } from '../util/project-root.ts';

const { later, tempDir } = fileCleanup();

/** `npm run <script> -- …args` as a site runs it, with only the database settings given. */
async function npmRun(script: string, args: string[], env: Record<string, string>) {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: projectRoot(),
    env: { ...processEnvWithoutDatabase(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const ADMIN = { ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: 'First#Admin1234' };

describe('npm run backup, restore and migrate-to-server', () => {
  it('backs an older embedded database up before its start migrates it, backs up the running server, restores it into a new DATA_DIR, refuses a second restore there, and moves it to a server', async () => {
    // A data folder of the build before this one's last migration, holding its first start.
    const source = tempDir('live');
    const last = loadMigrations().at(-1)!.name;
    const older = await openPgliteBefore(last, source);
    await seedFirstStart(older, ADMIN);
    await older.close();

    const server = await startServerProcess({ DATA_DIR: source, ...ADMIN, LOG_LEVEL: 'info' });
    // Before migrating it, the server kept it as it was (pre-migration-backup.ts).
    const kept = readdirSync(join(source, 'backups')).filter((n) =>
      /^before-migration-.*\.carryover-backup$/.test(n),
    );
    expect(kept).toHaveLength(1);
    const keptHead = await readBackupHead(join(source, 'backups', kept[0]!));
    expect(keptHead.manifest.migrations).not.toContain(last);
    expect(keptHead.manifest.tables.users).toBe(1);
    expect(server.output().stdout).toContain('backed up the database before migrating it');
    const file = join(tempDir('file'), 'live.carryover-backup');
    let backup;
    try {
      backup = await npmRun('backup', [file], { DATA_DIR: source });
    } finally {
      await server.stop();
    }
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toContain('asking it for the backup');
    expect(backup.code).toBe(0);
    const { manifest, files } = await readBackupHead(file);
    expect(manifest.tables.users).toBe(1);
    expect(manifest.chainHeads.length).toBeGreaterThan(0);
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['anchor.key']));

    const target = tempDir('restored');
    const restore = await npmRun('restore', [file], { DATA_DIR: target });
    expect(restore.stderr).not.toContain('failed');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain('counts equal the backup');
    expect(restore.stdout).toContain('audit chains verify intact');

    const again = await npmRun('restore', [file], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds a database');
    expect(again.stderr).not.toMatch(/\n\s+at /);

    const restored = await openDatabase({ dataDir: target });
    const [users] = await restored.query<{ email: string }>('select email from users');
    expect(users!.email).toBe(ADMIN.ADMIN_EMAIL);
    await restored.close();

    if (!process.env.DATABASE_URL) return;
    const database = await createEmptyServerDatabase();
    later(database.drop);
    const move = await npmRun('migrate-to-server', [], {
      DATA_DIR: source,
      DATABASE_URL: database.appUrl,
      ...(database.appRole ? { DATABASE_OWNER_URL: database.ownerUrl } : {}),
    });
    expect(move.stderr).not.toContain('failed');
    expect(move.code).toBe(0);
    expect(move.stdout).toContain('audit chains verify intact');
    const moved = await openPostgres(database.appUrl, { max: 1 });
    later(() => moved.close());
    const [counted] = await moved.query<{ n: number }>('select count(*)::int as n from users');
    expect(counted!.n).toBe(1);
  }, 600_000);
});
