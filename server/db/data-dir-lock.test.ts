import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initializeDataDir } from '../test/empty-pglite.ts';
import {
  processEnvWithoutDatabase,
  serverModuleArgs,
  startServerProcess,
} from '../test/server-process.ts';
import { ADMIN } from '../test/test-server.ts';
import { fileCleanup } from '../test/temp-dirs.ts';
import { projectRoot } from '../util/project-root.ts';
import { DatabaseInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';
import { openDatabase } from './open.ts';

const { later, tempDir } = fileCleanup('lock');

describe('the embedded database directory lock', () => {
  it('refuses an earlier build’s pid lock whether or not its pid runs here, and never takes it over', async () => {
    const dir = tempDir();
    const file = join(dir, LOCK_FILE);
    const holder = spawn('sleep', ['60']);
    later(() => holder.kill('SIGKILL'));
    await once(holder, 'spawn');
    writeFileSync(file, `${holder.pid}\n`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DatabaseInUseError);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      new RegExp(`in use by another Carryover process \\(pid ${holder.pid}\\) of an earlier build`),
    );

    // Its pid no longer runs here, but such a lock names no host and has no heartbeat: it may
    // be held by a server on another host or container sharing the folder. An hour old, or the
    // pid of this very process (pid 1 of another container), says no more.
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const then = new Date(Date.now() - 3_600_000);
    for (const pid of [holder.pid, process.pid]) {
      writeFileSync(file, `${pid}\n`);
      utimesSync(file, then, then);
      expect(() => lockDataDir(dir, { staleMs: 1_000 })).toThrow(
        `The embedded database in ${dir} is in use by another Carryover process (pid ${pid}) of an ` +
          'earlier build, whose lock names no host and keeps no heartbeat: that pid may be of a server ' +
          'on another host or in another container sharing this folder. Stop that server first, or use a ' +
          'PostgreSQL server (DATABASE_URL) that several processes can share. If no such process runs ' +
          `anywhere that shares this folder, delete ${file}.`,
      );
      expect(readFileSync(file, 'utf8')).toBe(`${pid}\n`);
    }

    // Once the operator deleted it, the folder is taken.
    rmSync(file);
    const release = lockDataDir(dir);
    // What an earlier build reads of the lock (parseInt of the file) is this process's pid, so
    // such a build refuses while this one runs.
    expect(Number.parseInt(readFileSync(file, 'utf8'), 10)).toBe(process.pid);
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a lock that cannot be read while it is fresh, and takes it over once stale', () => {
    const dir = tempDir();
    const file = join(dir, LOCK_FILE);
    writeFileSync(file, '');
    expect(() => lockDataDir(dir, { staleMs: 60_000 })).toThrow(/its lock cannot be read/);
    const then = new Date(Date.now() - 120_000);
    utimesSync(file, then, then);
    const release = lockDataDir(dir, { staleMs: 60_000 });
    expect(Number.parseInt(readFileSync(file, 'utf8'), 10)).toBe(process.pid);
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('keeps npm run seed:demo out of the database of a running server, with a clear message', async () => {
    const dir = tempDir();
    await initializeDataDir(dir, { migrated: true });
    const server = await startServerProcess({
      DATA_DIR: dir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    later(server.stop);
    const seed = spawnSync(process.execPath, serverModuleArgs('server/cli/seed-demo.ts'), {
      cwd: projectRoot(),
      env: { ...processEnvWithoutDatabase(), DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain(`in use by another Carryover process (pid ${server.child.pid})`);
    // Who holds it: the host, since when, the build and how fresh its heartbeat is.
    expect(seed.stderr).toMatch(
      /on host \S+ since \d{4}-\d\d-\d\dT[\d:.]+Z \(build [^,]+, heartbeat \d+ s ago\)/,
    );
    // The server goes on, and its data are still there.
    expect((await fetch(`${server.url}/api/v2/health`)).status).toBe(200);
    const login = await fetch(`${server.url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    });
    expect(login.status).toBe(200);
    // A stopped server leaves no lock behind.
    expect(await server.stop()).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 180_000);
});
