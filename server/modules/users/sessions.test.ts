import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const me = (token?: string) =>
  server.request<Record<string, unknown>>('GET', '/api/v2/users/me', token ? { token } : {});

describe('sessions', () => {
  it('answers 401 SessionExpired with no token or an unknown one', async () => {
    expect((await me()).body).toMatchObject({
      errName: 'SessionExpired',
      message: 'Session Expired. Login again!',
    });
    expect((await me('not-a-token')).status).toBe(401);
  });

  it('returns the signed-in user', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const res = await me(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username, email: user.email });
  });

  it('ends the older session when the user signs in elsewhere: 419 SimultaneousSession', async () => {
    const user = await buildUser(server.db);
    const first = await server.login(user.username, user.password);
    const second = await server.login(user.email!, user.password);
    const old = await me(first);
    expect(old.status).toBe(419);
    expect(old.body).toMatchObject({ errName: 'SimultaneousSession' });
    expect((await me(second)).status).toBe(200);
  });

  it('ends a session on logout, by header or body, and audits it', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const out = await server.request('POST', '/api/v2/auth/logout', { body: { token } });
    expect(out.status).toBe(200);
    expect((await me(token)).status).toBe(401);
    const again = await server.login(user.username, user.password);
    expect((await server.request('POST', '/api/v2/auth/logout', { token: again })).status).toBe(
      200,
    );
    expect((await me(again)).status).toBe(401);
    const rows = await server.db.query<{ action: string }>(
      `select action from audit_log where entity_id = $1 and domain = 'Authentication' order by id`,
      [String(user.id)],
    );
    expect(rows.map((r) => r.action)).toEqual(['Login', 'Logout', 'Login', 'Logout']);
  });

  it('expires a session left idle past the timeout', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    await server.db.query(
      `update sessions set last_seen_at = now() - make_interval(mins => $2) where user_id = $1`,
      [user.id, server.config.SESSION_IDLE_MINUTES + 1],
    );
    expect((await me(token)).body).toMatchObject({ errName: 'SessionExpired' });
  });

  it('keeps an idle session alive on POST /auth/session and tells the idle timeout', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const idle = server.config.SESSION_IDLE_MINUTES;
    expect((await server.request('POST', '/api/v2/auth/session', {})).status).toBe(401);
    const cookieOnly = await server.request('POST', '/api/v2/auth/session', {
      headers: { cookie: `connect.sid=${token}` },
    });
    expect(cookieOnly.status).toBe(401);
    // Nearly timed out, but not quite: the call starts the idle clock again.
    await server.db.query(
      `update sessions set last_seen_at = now() - make_interval(secs => $2) where user_id = $1`,
      [user.id, idle * 60 - 5],
    );
    const kept = await server.request('POST', '/api/v2/auth/session', { token });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ idleTimeoutSeconds: idle * 60 });
    const [row] = await server.db.query<{ idle: number }>(
      'select extract(epoch from now() - last_seen_at)::float8 as idle from sessions where user_id = $1',
      [user.id],
    );
    expect(row!.idle).toBeLessThan(5);
  });

  it('lets a background refresh read without keeping an idle session alive', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const idleSeconds = async () => {
      const [row] = await server.db.query<{ idle: number }>(
        'select extract(epoch from now() - last_seen_at)::float8 as idle from sessions where user_id = $1',
        [user.id],
      );
      return row!.idle;
    };
    await server.db.query(
      `update sessions set last_seen_at = now() - interval '40 seconds' where user_id = $1`,
      [user.id],
    );
    const polled = await server.request('GET', '/api/v2/users/me', {
      token,
      headers: { 'x-background-refresh': 'true' },
    });
    expect(polled.status).toBe(200);
    expect(await idleSeconds()).toBeGreaterThanOrEqual(40);
    expect((await me(token)).status).toBe(200);
    expect(await idleSeconds()).toBeLessThan(5);
  });

  it('never lets the cookie alone authorise a change, but lets it read', async () => {
    const user = await buildUser(server.db);
    const token = await server.login(user.username, user.password);
    const read = await server.request('GET', '/api/v2/users/me', {
      headers: { cookie: `connect.sid=${token}` },
    });
    expect(read.status).toBe(200);
    const change = await server.request('DELETE', `/api/v2/users/${user.id}/tokens`, {
      headers: { cookie: `connect.sid=${token}` },
    });
    expect(change.status).toBe(401);
  });

  it("ends a user's sessions: the user themself or an administrator, nobody else", async () => {
    const victim = await buildUser(server.db);
    const other = await buildUser(server.db);
    const victimToken = await server.login(victim.username, victim.password);
    const otherToken = await server.login(other.username, other.password);
    const refused = await server.request('DELETE', `/api/v2/users/${victim.id}/tokens`, {
      token: otherToken,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ errName: 'NotAllowed' });
    expect((await me(victimToken)).status).toBe(200);

    const admin = await buildUser(server.db, { permissions: fullPermissionMap() });
    const adminToken = await server.login(admin.username, admin.password);
    const ended = await server.request('DELETE', `/api/v2/users/${victim.id}/tokens?token=x`, {
      token: adminToken,
    });
    expect(ended.status).toBe(200);
    expect((await me(victimToken)).status).toBe(401);
  });
});

describe('GET /api/v2/plans/{plan}/facilities', () => {
  it('lists only the facilities granted to the user, with their group and properties', async () => {
    const [first] = await server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id limit 1',
    );
    const user = await buildUser(server.db, { facilityIds: [first!.id] });
    const token = await server.login(user.username, user.password);
    const res = await server.request<{ facilities: unknown[] }>(
      'GET',
      `/api/v2/plans/${first!.plan_id}/facilities`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.facilities).toEqual([
      {
        id: first!.id,
        name: 'Oral Solid Dosage Plant',
        productType: 'product',
        tier: 'full',
        facilityGroup: { id: expect.any(Number), name: 'Main Site' },
        additionalProperties: { api: [], intermediate: [], product: [], production: [] },
      },
    ]);
    const admin = await server.login();
    const all = await server.request<{ facilities: { productType: string; tier: string }[] }>(
      'GET',
      `/api/v2/plans/${first!.plan_id}/facilities?sso=true`,
      { token: admin },
    );
    expect(all.body.facilities.map((f) => `${f.productType}/${f.tier}`).sort()).toEqual([
      'api/lite',
      'product/full',
    ]);
  });

  it('refuses another plan with 403 and no session with 401', async () => {
    const token = await server.login();
    expect((await server.request('GET', '/api/v2/plans/999/facilities', { token })).status).toBe(
      403,
    );
    expect((await server.request('GET', '/api/v2/plans/1/facilities')).status).toBe(401);
  });
});
