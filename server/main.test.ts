import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, waitForHealth } from './test/server-process.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  // A failed test can leave its server running and writing to the data directory.
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  running.forEach((child) => child.kill('SIGKILL'));
  await Promise.all(running.map((child) => once(child, 'exit')));
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
});

function runMain(env: Record<string, string>) {
  const run = spawnServer(env);
  children.push(run.child);
  const exited = new Promise<number | null>((resolve) => run.child.on('exit', resolve));
  return { ...run, exited };
}

function postLogin(port: number): { sent: Promise<void>; status: Promise<number> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const status = new Promise<number>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/v2/auth/login', agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.setHeader('content-type', 'application/json');
    req.end(
      JSON.stringify({ username: 'admin@carryover.local', password: 'Wrong#pass1' }),
      markSent,
    );
  });
  return { sent, status };
}

describe('server/main.ts', () => {
  it('exits with a list of every configuration problem', async () => {
    const run = runMain({ PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://db' });
    expect(await run.exited).toBe(1);
    const { stderr } = run.output();
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('LOG_LEVEL');
    expect(stderr).toContain('DATABASE_URL');
  });

  it('prints a one-time password on first start, and lets in-flight requests finish on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carryover-main-'));
    dirs.push(dataDir);
    const port = 3400 + Math.floor(Math.random() * 500);
    const run = runMain({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      // The incoming-request lines, which tell when the sign-ins are in flight, are at debug.
      LOG_LEVEL: 'debug',
      // Eight argon2 sign-ins on a loaded machine may outlast the default grace period.
      SHUTDOWN_GRACE_MS: '60000',
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, run);
    expect(run.output().stdout).toMatch(/One-time password: \S{12,}/);

    // Sign-ins hash with argon2 and queue on the one embedded connection, so most are still
    // running when the signal arrives. Each goes on its own connection, fully sent first.
    const inFlight = Array.from({ length: 8 }, () => postLogin(port));
    await Promise.all(inFlight.map((r) => r.sent));
    // In flight means the server has read the request: its log says so.
    while ((run.output().stdout.match(/"url":"\/api\/v2\/auth\/login"/g) ?? []).length < 8) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    run.child.kill('SIGTERM');
    const statuses = await Promise.all(inFlight.map((r) => r.status));
    expect(statuses.every((s) => s === 400)).toBe(true);
    const code = await run.exited;
    expect(code, run.output().stderr).toBe(0);

    // Starting again on the same data seeds nothing and prints no password.
    const again = runMain({
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    });
    await waitForHealth(url, again);
    expect(again.output().stdout).not.toContain('One-time password');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 600_000); // two starts, the first creating the database: 170 s at a load of 25
});
