import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import { openPglite } from '#server/db/pglite-db.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { createServerTestDatabase, pgliteSnapshotFile } from '#server/test/test-db.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { checkReadiness } from './readiness.ts';

const version = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('health', () => {
  it('answers HEAD for a monitor, as the API routes no longer do (issue 34)', async () => {
    for (const path of ['/api/v2/health', '/api/v2/health/live', '/api/v2/health/ready']) {
      const res = await fetch(server.url + path, { method: 'HEAD' });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe('');
    }
    // The other GET routes have no HEAD twin, each a route to set up at every start.
    expect((await fetch(`${server.url}/api/v2/features`, { method: 'HEAD' })).status).toBe(404);
  });

  it('keeps its fields and names this build’s version', async () => {
    const res = await server.request('GET', '/api/v2/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      database: server.db.kind,
      migrations: expect.any(Number),
      auditTrailProtected: expect.any(Boolean),
      version,
    });
  });

  it('answers live without a session', async () => {
    const res = await server.request('GET', '/api/v2/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers ready after a test write that leaves no row behind', async () => {
    const [row] = await server.db.query<{ n: number }>(
      'select count(*)::int as n from schema_migrations',
    );
    const res = await server.request('GET', '/api/v2/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ready',
      database: server.db.kind,
      migrations: row!.n,
      version,
    });
    expect(await server.db.query('select id from health_probe')).toEqual([]);
  });

  it('answers 503 while this build’s migrations are not applied, or unknown ones are', async () => {
    const [last] = await server.db.query<{ name: string; checksum: string }>(
      'select name, checksum from schema_migrations order by name desc limit 1',
    );
    await server.db.query('delete from schema_migrations where name = $1', [last!.name]);
    try {
      const res = await server.request('GET', '/api/v2/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        errName: 'ServiceUnavailable',
        message: expect.stringContaining(last!.name),
        otherErrors: [{ check: 'migrations', problem: 'pending' }],
      });
    } finally {
      await server.db.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
        last!.name,
        last!.checksum,
      ]);
    }
    const newer = '99991231000000_from_a_newer_build.sql';
    await server.db.query('insert into schema_migrations (name) values ($1)', [newer]);
    try {
      const res = await server.request('GET', '/api/v2/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        message: expect.stringContaining(newer),
        otherErrors: [{ check: 'migrations', problem: 'unknown' }],
      });
    } finally {
      await server.db.query('delete from schema_migrations where name = $1', [newer]);
    }
    expect((await server.request('GET', '/api/v2/health/ready')).status).toBe(200);
  });
});

describe('a full disk', () => {
  it('names it when the data folder cannot be written', async () => {
    // /dev/full answers every write with ENOSPC, as a full volume does.
    const dataDir = mkdtempSync(join(tmpdir(), 'carryover-full-'));
    symlinkSync('/dev/full', join(dataDir, '.ready-probe'));
    try {
      expect(await checkReadiness(server.db, { dataDir })).toMatchObject({
        check: 'dataDir',
        problem: 'diskFull',
        message: 'the disk is full, so nothing can be saved',
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is answered 503 by ready on the embedded database, whose files live there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carryover-full-'));
    symlinkSync('/dev/full', join(dataDir, '.ready-probe'));
    const full = await startTestServer({ DATA_DIR: dataDir });
    try {
      const res = await full.request('GET', '/api/v2/health/ready');
      // A server database keeps its files elsewhere: only its own writes tell (below).
      if (full.db.kind === 'pglite') {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          errName: 'ServiceUnavailable',
          name: 'ServiceUnavailable',
          message: 'Not ready: the disk is full, so nothing can be saved.',
          otherErrors: [{ check: 'dataDir', problem: 'diskFull' }],
        });
        expect(res.headers.get('retry-after')).toBe('1');
      } else {
        expect(res.status).toBe(200);
      }
    } finally {
      await full.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A database of this file's own, which the test may close under a running app. */
async function openOwnDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const snapshot = new Uint8Array(readFileSync(await pgliteSnapshotFile())).buffer;
    return { db: await openPglite({ loadDataDir: snapshot }), drop: async () => undefined };
  }
  const database = await createServerTestDatabase();
  return { db: await openPostgres(database.url, { max: 2 }), drop: database.drop };
}

describe('a database that does not answer', () => {
  let app: FastifyInstance;
  let url: string;
  let drop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-closed-'));
  beforeAll(async () => {
    const own = await openOwnDb();
    drop = own.drop;
    const config = loadConfig({
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SERVE_CLIENT: 'false',
    });
    app = await buildApp({ config, db: own.db });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    expect((await fetch(`${url}/api/v2/health/ready`)).status).toBe(200);
    await own.db.close();
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes ready answer 503 with the reason, while live still answers', async () => {
    const ready = await fetch(`${url}/api/v2/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      errName: 'ServiceUnavailable',
      name: 'ServiceUnavailable',
      message: 'Not ready: the database does not answer.',
      otherErrors: [{ check: 'database', problem: 'unreachable' }],
    });
    const live = await fetch(`${url}/api/v2/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', version });
    expect((await fetch(`${url}/api/v2/health`)).status).toBe(503);
  });
});
