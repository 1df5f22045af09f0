import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { seedFirstStart } from '../db/seed.ts';
import { createTestDb, type TestDb } from './test-db.ts';

export const ADMIN = { email: 'admin@example.com', password: 'Admin#12345' } as const;

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  url: string;
  db: TestDb;
  app: FastifyInstance;
  config: Config;
  request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<HttpResult<T>>;
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * An existing database and its data folder (a restored copy) for the server instead of a fresh
 * one; the test that opened them closes them.
 */
export interface ExistingDatabase {
  db: Db;
  dataDir: string;
}

/**
 * A real server on a real socket over a fresh database seeded as on first start, with the
 * administrator of ADMIN (or over `build.on`, as it is). Tests talk to it over HTTP, exactly as
 * the client does.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  build: Pick<BuildAppOptions, 'clientFolder'> & { on?: ExistingDatabase } = {},
): Promise<TestServer> {
  const { on, ...options } = build;
  // Files the server writes (the audit anchors) go to a directory of this server's own.
  const dataDir = on?.dataDir ?? mkdtempSync(join(tmpdir(), 'carryover-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SERVE_CLIENT: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_RATE_LIMIT_MAX: '10000',
    API_RATE_LIMIT_MAX: '1000000',
    ...env,
  });
  const db: TestDb = on ? { ...on.db, owner: async () => on.db } : await createTestDb();
  if (!on) await seedFirstStart(db, config);
  const app = await buildApp({ config, db, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  const request: TestServer['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.token = options.token;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(url + path, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a page or a file): the text is the body.
    }
    return { status: response.status, body: parsed as never, headers: response.headers };
  };

  return {
    url,
    db,
    app,
    config,
    request,
    async login(username = ADMIN.email, password = ADMIN.password) {
      const res = await request<{ token: string }>('POST', '/api/v2/auth/login', {
        body: { username, password },
      });
      if (res.status !== 200)
        throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token;
    },
    async close() {
      await app.close();
      if (on) return;
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The base path of the routes of the index-th facility, in the order they were made. */
export async function facilityPath(server: TestServer, index = 0): Promise<string> {
  return (await facilityAt(server, index)).F;
}

/**
 * The `index`-th facility (by id) as tests address it: its base path and the plan and facility
 * the factories write in.
 */
export async function facilityAt(
  server: TestServer,
  index = 0,
): Promise<{ F: string; scope: { planId: number; facilityId: number } }> {
  const rows = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id',
  );
  const facility = rows[index]!;
  return {
    F: `/api/v2/plans/${facility.plan_id}/facilities/${facility.id}`,
    scope: { planId: facility.plan_id, facilityId: facility.id },
  };
}

export interface FacilityTestServer {
  server: TestServer;
  /** The administrator's session. */
  token: string;
  /** The base path of the first facility's routes: /api/v2/plans/{plan}/facilities/{facility}. */
  F: string;
  /** The first facility and its plan. */
  facilityId: number;
  planId: number;
}

/** A test server, the administrator signed in, and the first facility's routes. */
export async function startFacilityTestServer(
  env: Record<string, string> = {},
): Promise<FacilityTestServer> {
  const server = await startTestServer(env);
  const token = await server.login();
  const [f] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  return {
    server,
    token,
    F: `/api/v2/plans/${f!.plan_id}/facilities/${f!.id}`,
    facilityId: f!.id,
    planId: f!.plan_id,
  };
}

/**
 * Gives the index-th facility another tier or product type, for tests whose subject is not the
 * gating (core/facilities/facility-features.ts): the seeded second facility is api/lite, which has
 * no studies or change control; the first is a product facility, which has no intermediates.
 */
export async function setFacilityKind(
  server: TestServer,
  index: number,
  kind: { tier?: 'full' | 'lite'; productType?: 'product' | 'intermediate' | 'api' },
): Promise<void> {
  const rows = await server.db.query<{ id: number }>('select id from facilities order by id');
  await server.db.query(
    `update facilities set tier = coalesce($2, tier), product_type = coalesce($3, product_type)
      where id = $1`,
    [rows[index]!.id, kind.tier ?? null, kind.productType ?? null],
  );
}
