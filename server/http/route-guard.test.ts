import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { buildUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createGuards } from './permission-guards.ts';
import { declaredRoutes, requireDeclaredGuards } from './route-guard.ts';
import { sessionLimitsOf } from './session-guard.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const answer = async () => ({ ok: true });

describe('every route declares how it is reached', () => {
  it('each route of the app runs a guard or is declared public, and the public ones are few', async () => {
    const routes = declaredRoutes(server.app);
    expect(routes.length).toBeGreaterThan(300);
    for (const route of routes)
      for (const method of route.method.split(','))
        expect(server.app.hasRoute({ method: method as 'GET', url: route.url })).toBe(true);
    // Every route of the API document is among them: none escaped the check.
    const doc = await server.request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/api/docs/json',
    );
    const seen = new Set(routes.flatMap((r) => r.method.split(',').map((m) => `${m} ${r.url}`)));
    for (const [path, methods] of Object.entries(doc.body.paths))
      for (const method of Object.keys(methods)) {
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(seen.has(`${method.toUpperCase()} ${url}`), `${method} ${url}`).toBe(true);
      }
    const open = routes.filter((r) => r.by === 'public' && r.method !== 'HEAD');
    expect(open.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/docs',
      'GET /api/docs/*',
      'GET /api/v2/auth/reset-password',
      'GET /api/v2/auth/reset-password-policy',
      'GET /api/v2/auth/sso/:provider/login',
      'GET /api/v2/auth/sso/:provider/verify',
      'GET /api/v2/features',
      'GET /api/v2/health',
      'GET /api/v2/health/live',
      'GET /api/v2/health/ready',
      'POST /api/v2/auth/change-password',
      'POST /api/v2/auth/forgot-password',
      'POST /api/v2/auth/login',
      'POST /api/v2/auth/logout',
      'POST /api/v2/auth/register',
      'POST /api/v2/auth/reset-password',
    ]);
  });

  it('a guarded route refuses a caller without a session, whatever the route', async () => {
    const guarded = declaredRoutes(server.app).filter((r) => r.by === 'guard');
    for (const route of guarded) {
      const method = route.method.split(',')[0]!;
      const path = route.url.replace(/:\w+/g, '1').replace('*', 'x');
      const read = method === 'GET' || method === 'HEAD';
      const res = await server.request(method, path, read ? {} : { body: {} });
      expect({ route: `${method} ${path}`, status: res.status }).toEqual({
        route: `${method} ${path}`,
        status: 401,
      });
    }
  });
});

describe('the guards that replaced hand-written ones', () => {
  it('refuse with 403 and leave one AccessRefused row each: membership, either of two, restore', async () => {
    const [f] = await server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id limit 1',
    );
    const F = `/api/v2/plans/${f!.plan_id}/facilities/${f!.id}`;
    const outsider = await buildUser(server.db, { facilityIds: [] });
    const token = await server.login(outsider.username, outsider.password);
    const member = await server.request('GET', `${F}/date-time-settings`, { token });
    const either = await server.request('GET', `${F}/additional-properties/product`, { token });
    const restore = await server.request('POST', `${F}/user_roles/1`, {
      token,
      body: { unArchive: true, reason: 'back' },
    });
    expect([member.status, either.status, restore.status]).toEqual([403, 403, 403]);
    expect(either.body).toMatchObject({ errName: 'NotAllowed' });
    const rows = await server.db.query<{ domain: string; new_values: Record<string, unknown> }>(
      `select domain, new_values from audit_log
        where user_id = $1 and action = 'AccessRefused' order by seq`,
      [outsider.id],
    );
    expect(rows).toEqual([
      { domain: 'Facility', new_values: expect.objectContaining({ attempted: 'Member' }) },
      { domain: 'Product', new_values: expect.objectContaining({ attempted: 'Get' }) },
      { domain: 'UserRole', new_values: expect.objectContaining({ attempted: 'Delete' }) },
    ]);
  });
});

describe('a route without a guard', () => {
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
  });

  it('stops the whole app at registration, with a message that says what to do', async () => {
    app = await buildApp({ config: server.config, db: server.db });
    expect(() => app!.get('/api/v2/forgotten', answer)).toThrow(
      'Route GET /api/v2/forgotten declares no guard',
    );
    expect(() => app!.post('/api/v2/forgotten', { config: {} }, answer)).toThrow(
      /config: \{ public: true \}/,
    );
  });

  it('refuses a hand-written preHandler: only the guards of the app context count', async () => {
    const bare = Fastify({ logger: false });
    requireDeclaredGuards(bare);
    const { permit, requireSession } = createGuards(server.db, sessionLimitsOf(server.config));
    bare.get('/open', { config: { public: true } }, answer);
    bare.get('/guarded', { preHandler: requireSession }, answer);
    bare.get('/:plan/:facility/limits', { preHandler: permit('RiskCalculation', 'Get') }, answer);
    // Registered as a module registers its routes; the app's start is what fails.
    void bare.register(async (scope) => {
      scope.get('/mine', { preHandler: async () => undefined }, answer);
    });
    await expect(bare.ready()).rejects.toThrow('Route GET /mine declares no guard');
    expect(declaredRoutes(bare).map((r) => `${r.by} ${r.method} ${r.url}`)).toEqual([
      'public GET /open',
      'public HEAD /open',
      'guard GET /guarded',
      'guard HEAD /guarded',
      'guard GET /:plan/:facility/limits',
      'guard HEAD /:plan/:facility/limits',
    ]);
  });
});
