// GET /api/v2/users/me under 50 concurrent connections, on PGlite and on the PostgreSQL server
// at 127.0.0.1:5432 when one answers. Target on PostgreSQL: >= 3,000 req/s, p99 < 50 ms.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startServerProcess } from './server-process.ts';

const seconds = Number(process.env.DURATION ?? 10);
const admin = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env }, 3302);
  try {
    const login = await fetch(`${server.url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const opts = { url: `${server.url}/api/v2/users/me`, connections: 50, headers: { token } };
    await autocannon({ ...opts, duration: 2 }); // warm-up
    const result = await autocannon({ ...opts, duration: seconds });
    const ok = result['2xx'];
    console.log(
      `${label}: ${result.requests.average.toFixed(0)} req/s (mean), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, server RSS ${server.rssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
await measure('PGlite', { DATA_DIR: dataDir });
rmSync(dataDir, { recursive: true, force: true });

const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const client = new pg.Client({ connectionString: `${base}/postgres` });
try {
  await client.connect();
} catch {
  console.log('PostgreSQL: no server at 127.0.0.1:5432, skipped');
  process.exit(0);
}
const name = `carryover_bench_${Date.now()}`;
await client.query(`create database ${name}`);
try {
  await measure('PostgreSQL', {
    DATABASE_URL: `${base}/${name}`,
    DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20',
  });
} finally {
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}
