import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processEnvWithoutDatabase, startServerProcess } from '../test/server-process.ts';
import { ADMIN } from '../test/test-server.ts';
import { projectRoot } from '../util/project-root.ts';
import { DatabaseInUseError, LOCK_FILE, lockDataDir, type LeaseOwner } from './data-dir-lock.ts';
import { openDatabase } from './open.ts';

const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'carryover-lock-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}

describe('the embedded database directory lock', () => {
  it('refuses a directory whose lock holder runs, and takes over the lock of a dead one', async () => {
    const dir = tempDir();
    const holder = spawn('sleep', ['60']);
    cleanup.push(() => holder.kill('SIGKILL'));
    await once(holder, 'spawn');
    writeFileSync(join(dir, LOCK_FILE), `${holder.pid}\n`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DatabaseInUseError);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      new RegExp(`in use by another Carryover process \\(pid ${holder.pid}\\)`),
    );

    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const release = lockDataDir(dir);
    // The first line stays the pid alone, which a build from before the lease reads.
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('keeps npm run seed:demo out of the database of a running server, with a clear message', async () => {
    const dir = tempDir();
    const server = await startServerProcess({
      DATA_DIR: dir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    cleanup.push(server.stop);
    const seed = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/seed-demo.ts'], {
      cwd: projectRoot(),
      env: { ...processEnvWithoutDatabase(), DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain(`in use by another Carryover process (pid ${server.child.pid})`);
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

/** A lease as a server on another host sharing the folder writes it. */
function otherHostLease(dir: string, heartbeatAgoMs: number): LeaseOwner {
  const owner: LeaseOwner = {
    host: 'other-host.example',
    pid: 4242,
    instance: `other-${heartbeatAgoMs}`,
    build: '0.0.9',
    heartbeatAt: new Date(Date.now() - heartbeatAgoMs).toISOString(),
  };
  writeFileSync(join(dir, LOCK_FILE), `${owner.pid}\n${JSON.stringify(owner)}\n`);
  return owner;
}

function holderIn(dir: string): LeaseOwner {
  return JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[1]!) as LeaseOwner;
}

describe('the embedded database lease', () => {
  it('refuses a fresh lease of another host, naming it and its heartbeat, and takes over a stale one', () => {
    const dir = tempDir();
    otherHostLease(dir, 1_000);
    expect(() => lockDataDir(dir, { staleMs: 30_000 })).toThrow(DatabaseInUseError);
    expect(() => lockDataDir(dir, { staleMs: 30_000 })).toThrow(
      /\(pid 4242\) on host other-host\.example \(build 0\.0\.9, instance other-1000, heartbeat 1 s ago\)/,
    );

    otherHostLease(dir, 31_000);
    const release = lockDataDir(dir, { staleMs: 30_000 });
    const held = holderIn(dir);
    expect(held).toMatchObject({ pid: process.pid, build: expect.any(String) });
    expect(held.instance).not.toBe('other-31000');
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refreshes its heartbeat while held, and tells its holder when another took it', async () => {
    const dir = tempDir();
    const lost: (LeaseOwner | null)[] = [];
    const release = lockDataDir(dir, { staleMs: 400, onLost: (holder) => lost.push(holder) });
    const first = holderIn(dir).heartbeatAt;
    await expect.poll(() => holderIn(dir).heartbeatAt).not.toBe(first);
    // A fresh heartbeat keeps another starter out, however long the holder has held it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(() => lockDataDir(dir, { staleMs: 400 })).toThrow(DatabaseInUseError);
    expect(lost).toEqual([]);

    const taker = otherHostLease(dir, 0);
    await expect.poll(() => lost.length).toBe(1);
    expect(lost[0]).toEqual(taker);
    // Its release leaves the other's lease in place.
    release();
    expect(holderIn(dir)).toEqual(taker);
  });

  it('lets exactly one of several processes starting together take over a stale lease', async () => {
    const dir = tempDir();
    otherHostLease(dir, 60_000);
    // Each loads the lock module, says so, and tries the lock on "go", all at the same moment.
    // The winner goes on holding it until every other has answered.
    const script = `
      import { lockDataDir } from './server/db/data-dir-lock.ts';
      process.stdout.write('ready;');
      process.stdin.once('data', () => {
        try {
          lockDataDir(process.argv[1], { staleMs: 30000 });
          process.stdout.write('won;');
          setInterval(() => undefined, 1000);
        } catch (error) {
          process.stdout.write(error.constructor.name + ';');
          process.exit(0);
        }
      });`;
    const starters = Array.from({ length: 6 }, () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, dir],
        { cwd: projectRoot(), stdio: ['pipe', 'pipe', 'inherit'] },
      );
      cleanup.push(() => child.kill('SIGKILL'));
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      return { child, said: () => out.split(';').filter(Boolean) };
    });
    await expect
      .poll(() => starters.every((s) => s.said().includes('ready')), { timeout: 60_000 })
      .toBe(true);
    for (const { child } of starters) child.stdin!.write('go\n');
    await expect
      .poll(() => starters.every((s) => s.said().length === 2), { timeout: 60_000 })
      .toBe(true);
    const outcomes = starters.map((s) => s.said()[1]);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DatabaseInUseError')).toHaveLength(5);
  }, 120_000);

  it('stops a server that finds its lease taken, and lets a new one in once a frozen holder went stale', async () => {
    const dir = tempDir();
    const env = {
      DATA_DIR: dir,
      DATA_DIR_LOCK_STALE_SECONDS: '2',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const first = await startServerProcess(env);
    cleanup.push(first.stop);
    // Frozen (a hung host, a paused container): its heartbeat stops, its pid stays alive.
    first.child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const second = await startServerProcess(env);
    cleanup.push(second.stop);
    expect(holderIn(dir).pid).toBe(second.child.pid);

    const firstExit = once(first.child, 'exit');
    first.child.kill('SIGCONT');
    const [code] = (await firstExit) as [number | null];
    expect(code).toBe(1);
    expect(first.output().stderr).toContain(
      `Carryover stops: the lock of its embedded database is now held by pid ${second.child.pid}`,
    );
    expect((await fetch(`${second.url}/api/v2/health`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 300_000);
});
