import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullPermissionMap } from '#core/permissions/permission-map.ts';
import { buildApp } from '../app.ts';
import type { Db } from '../db/db.ts';
import { rateLimitHook } from './rate-limit.ts';
import { buildUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let second: FastifyInstance;
let secondUrl: string;
beforeAll(async () => {
  server = await startTestServer({ API_RATE_LIMIT_MAX: '6', AUTH_RATE_LIMIT_MAX: '4' });
  // A second app instance on the same database, as behind a load balancer.
  second = await buildApp({ config: server.config, db: server.db });
  await second.listen({ host: '127.0.0.1', port: 0 });
  const address = second.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  secondUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

/** The same call, on the first instance or on the second. */
async function call(instance: 0 | 1, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch((instance === 0 ? server.url : secondUrl) + path, {
    method,
    headers: {
      ...(token ? { token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { errName?: string },
  };
}

describe('rate limits kept in the database', () => {
  it('limit each user across two app instances, with 429 and Retry-After past the limit', async () => {
    const permissions = fullPermissionMap();
    const users = [
      await buildUser(server.db, { permissions }),
      await buildUser(server.db, { permissions }),
    ];
    const tokens: string[] = [];
    for (const user of users) {
      const res = await call(1, 'POST', '/api/v2/auth/login', undefined, {
        username: user.username,
        password: user.password,
      });
      tokens.push((res.body as { token: string }).token);
    }
    // Six calls of the first user, alternating between the instances, use up its limit.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await call((i % 2) as 0 | 1, 'GET', '/api/v2/departments', tokens[0])).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const refused = await call(0, 'GET', '/api/v2/departments', tokens[0]);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ errName: 'TooManyRequests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The limit is the user's, not the address's: the second user from the same address goes on.
    expect((await call(1, 'GET', '/api/v2/departments', tokens[1])).status).toBe(200);
    // Health stays outside it, for monitors.
    expect((await call(0, 'GET', '/api/v2/health', tokens[0])).status).toBe(200);
  });

  it('keep the stricter sign-in limit per address across both instances', async () => {
    // Only the sign-in limit may refuse here, not the per-address API limit used up above.
    await server.db.query(`delete from rate_limit_counters where key like 'api:%'`);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await call((i % 2) as 0 | 1, 'POST', '/api/v2/auth/forgot-password', undefined, {
        username: `nobody${i}@example.com`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 4).every((s) => s !== 429)).toBe(true);
    expect(statuses[4]).toBe(429);
  });

  it('write a batched counter once while its write is under way, and lose no hit', async () => {
    let writes = 0;
    const counting: Db = {
      ...server.db,
      query: (sql, params) => {
        if (sql.includes('rate_limit_counters')) writes += 1;
        return server.db.query(sql, params);
      },
    };
    const hook = rateLimitHook(counting, {
      scope: 'herd',
      max: 1_000_000,
      windowSeconds: 3600,
      keyOf: () => 'one',
      isBatched: true,
    });
    const reply = { header: () => reply } as unknown as FastifyReply;
    const hit = () => hook({} as FastifyRequest, reply);
    const stored = async () =>
      (
        await server.db.query<{ hits: number }>(
          `select hits from rate_limit_counters where key = 'herd:one'`,
        )
      )[0]?.hits;
    await hit();
    expect(writes).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Fifty calls at once once the second has passed: the first writes, the others wait in memory.
    await Promise.all(Array.from({ length: 50 }, hit));
    expect(writes).toBe(2);
    expect(await stored()).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await hit();
    expect(writes).toBe(3);
    expect(await stored()).toBe(52);
  });

  it('start over when the window has passed', async () => {
    await server.db.query(
      `update rate_limit_counters set window_started_at = now() - interval '1 hour'`,
    );
    const user = await buildUser(server.db);
    const res = await call(0, 'POST', '/api/v2/auth/forgot-password', undefined, {
      username: user.username,
    });
    expect(res.status).not.toBe(429);
  });
});
