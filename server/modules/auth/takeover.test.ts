import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUser, TUserWithKey } from '#core/schemas/users.schemas.ts';
import { SEED_ADMIN_EMPLOYEE_ID } from '#server/db/seed.ts';
import { buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { ADMIN, startTestServer, type TestServer } from '#server/test/test-server.ts';

// Issue 8: account takeover through the user administration and recovery calls. The server runs
// without PUBLIC_URL and without SMTP, the embedded default, so mail links come from HOST:PORT.

let server: TestServer;
let sysadminId: number;
let attacker: { id: number; token: string };

beforeAll(async () => {
  server = await startTestServer();
  const [me] = await server.db.query<{ id: number }>('select id from users where is_system_admin');
  sysadminId = me!.id;
  // An administrator of every facility, but not the system administrator.
  const user = await buildUser(server.db, {
    permissions: fullPermissionMap(),
    roleName: 'Site admin',
  });
  attacker = { id: user.id, token: await server.login(user.username, user.password) };
});
afterAll(async () => {
  await server?.close();
});

/** A request with a Host header of the caller's choosing, as a poisoning attacker sends it. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<number> {
  const url = new URL(server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function lastMailTo(address: string): Promise<string> {
  const [mail] = await server.db.query<{ text_body: string }>(
    'select text_body from mail_outbox where lower(to_address) = lower($1) order by id desc limit 1',
    [address],
  );
  expect(mail).toBeDefined();
  return mail!.text_body;
}

describe('takeover through resend-invitation, register and reset-password', () => {
  it("cannot issue itself the system administrator's secret key, so register and reset lead nowhere", async () => {
    const key = await server.request<TUserWithKey>(
      'POST',
      `/api/v2/users/${sysadminId}/resend-invitation`,
      { token: attacker.token, body: { reason: 'Forgot password', generateKey: true } },
    );
    expect(key.status).toBe(403);
    expect(key.body).toMatchObject({ errName: 'NotAllowed' });
    const [keys] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from one_time_tokens where user_id = $1 and kind = 'secret'`,
      [sysadminId],
    );
    expect(keys!.n).toBe(0);

    // Without the key, register gives no reset link, whatever key is tried.
    const register = await server.request('POST', '/api/v2/auth/register', {
      body: { username: SEED_ADMIN_EMPLOYEE_ID, token: 'x'.repeat(43) },
    });
    expect(register.status).toBe(400);
    expect(register.body).toMatchObject({ errName: 'InvalidToken' });

    const [audit] = await server.db.query<{ user_id: number; new_values: Record<string, unknown> }>(
      `select user_id, new_values from audit_log where domain = 'User' and action = 'AccessRefused'
        and entity_id = $1 order by id desc limit 1`,
      [String(sysadminId)],
    );
    expect(audit).toMatchObject({
      user_id: attacker.id,
      new_values: { attempted: 'SecretKeyIssued' },
    });
    expect(await server.login(ADMIN.email, ADMIN.password)).toBeTruthy();
  });

  it('cannot take a colleague with a password: no key for them, and no redirecting their e-mail', async () => {
    const colleague = await buildUser(server.db, {
      permissions: fullPermissionMap(),
      roleName: 'Site admin',
    });
    const key = await server.request('POST', `/api/v2/users/${colleague.id}/resend-invitation`, {
      token: attacker.token,
      body: { reason: 'r', generateKey: true },
    });
    expect(key.status).toBe(403);
    const { body: user } = await server.request<TUser>('GET', `/api/v2/users/${colleague.id}`, {
      token: attacker.token,
    });
    const redirect = await server.request('POST', `/api/v2/users/${colleague.id}`, {
      token: attacker.token,
      body: { reason: 'r', version: user.version, email: 'attacker@example.net' },
    });
    expect(redirect.status).toBe(403);
    await server.request('POST', '/api/v2/auth/forgot-password', {
      body: { username: colleague.username },
    });
    expect(await lastMailTo(colleague.email!)).toMatch(/reset-password\?u=/);
    const stolen = await server.db.query(
      `select id from mail_outbox where to_address = 'attacker@example.net'`,
    );
    expect(stolen).toEqual([]);
  });

  it('still lets an administrator key a pending invitation, which then registers', async () => {
    const created = await server.request<TUserWithKey>('POST', '/api/v2/users', {
      token: attacker.token,
      body: {
        firstName: 'New',
        lastName: 'Starter',
        username: `NEW${Date.now() % 100000}`,
        email: null,
      },
    });
    expect(created.status).toBe(200);
    const key = await server.request<TUserWithKey>(
      'POST',
      `/api/v2/users/${created.body.user.id}/resend-invitation`,
      { token: attacker.token, body: { reason: 'Key lost', generateKey: true } },
    );
    expect(key.status).toBe(200);
    const register = await server.request('POST', '/api/v2/auth/register', {
      body: { username: created.body.user.username, token: key.body.secretKey },
    });
    expect(register.status).toBe(200);
  });
});

describe('Host header poisoning of mail links', () => {
  const poisoned = {
    host: 'evil.example.net',
    'x-forwarded-host': 'evil.example.net',
    'x-forwarded-proto': 'https',
  };

  it('builds the reset link from the configured HOST:PORT, never the Host header', async () => {
    const victim = await buildUser(server.db);
    const status = await rawRequest('POST', '/api/v2/auth/forgot-password', poisoned, {
      username: victim.username,
    });
    expect(status).toBe(200);
    const text = await lastMailTo(victim.email!);
    expect(text).toContain(`http://127.0.0.1:3000/reset-password?u=${victim.id}&token=`);
    expect(text).not.toContain('evil');
  });

  it('builds the invitation link the same way', async () => {
    const username = `INV${Date.now() % 100000}`;
    const email = `${username.toLowerCase()}@example.com`;
    const status = await rawRequest(
      'POST',
      '/api/v2/users',
      { ...poisoned, token: attacker.token },
      { firstName: 'Invited', lastName: 'User', username, email },
    );
    expect(status).toBe(200);
    const text = await lastMailTo(email);
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:3000\/reset-password\?u=\d+&token=/);
    expect(text).not.toContain('evil');
  });
});
