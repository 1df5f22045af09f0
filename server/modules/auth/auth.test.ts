import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { ADMIN, startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const login = (username: string, password?: string) =>
  server.request<Record<string, string>>('POST', '/api/v2/auth/login', {
    body: { username, password },
  });

async function auditActions(userId: number): Promise<string[]> {
  const rows = await server.db.query<{ action: string }>(
    'select action from audit_log where entity_id = $1 order by id',
    [String(userId)],
  );
  return rows.map((r) => r.action);
}

describe('POST /api/v2/auth/login', () => {
  it('signs in by e-mail or employee ID, case-insensitively, and sets the session cookie', async () => {
    const res = await login(ADMIN.email.toUpperCase(), ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      user: {
        id: expect.any(Number),
        firstName: 'System',
        lastName: 'Administrator',
        username: 'ADM001',
        email: ADMIN.email,
        planId: expect.any(Number),
        roles: [{ name: 'Administrator' }],
        department: { name: 'Quality Assurance' },
      },
      licenseInfo: [],
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^connect\.sid=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await login('adm001', ADMIN.password)).status).toBe(200);
  });

  it('refuses an unknown user with RequestingUserNotfound and audits the attempt', async () => {
    const res = await login('nobody@example.com', 'Whatever#1');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errName: 'RequestingUserNotfound',
      message: 'Email address/ Employee ID is not recognized',
    });
    const [row] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'LoginFailed' and new_values ->> 'username' = 'nobody@example.com'`,
    );
    expect(row?.n).toBe(1);
  });

  it('refuses bad input with DataValidationError naming the property', async () => {
    const res = await server.request('POST', '/api/v2/auth/login', { body: { username: 42 } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'username' }],
    });
    const missing = await login(ADMIN.email);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: [{ property: 'password' }] });
    const garbage = await server.request('POST', '/api/v2/auth/login', { body: '{not json' });
    expect(garbage.status).toBe(422);
  });

  it('counts wrong passwords, locks after the policy limit, and keeps the correct password out while locked', async () => {
    const user = await buildUser(server.db);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const res = await login(user.username, 'Wrong#pass1');
      expect(res.status).toBe(400);
      expect(res.body.errName).toBe('InvalidEmailOrPasswordError');
      expect(res.body.message).toContain(`${5 - attempt} attempt`);
    }
    const fifth = await login(user.username, 'Wrong#pass1');
    expect(fifth.body.errName).toBe('LoginAttemptsExceeded');
    const correct = await login(user.username, user.password);
    expect(correct.status).toBe(400);
    expect(correct.body.errName).toBe('LoginAttemptsExceeded');
    expect(await auditActions(user.id)).toEqual([
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'Lock',
      'LoginRefused',
    ]);

    // The lock period ends: the correct password works again and the count starts over.
    await server.db.query(
      `update users set locked_until = now() - interval '1 second' where id = $1`,
      [user.id],
    );
    expect((await login(user.email!, user.password)).status).toBe(200);
    const [row] = await server.db.query<{ failed_attempts: number }>(
      'select failed_attempts from users where id = $1',
      [user.id],
    );
    expect(row?.failed_attempts).toBe(0);
  });

  it('refuses a blocked user', async () => {
    const user = await buildUser(server.db, { isBlocked: true });
    const res = await login(user.username, user.password);
    expect(res.body).toMatchObject({
      errName: 'UserBlockedError',
      message: 'User is blocked. Please contact your administrator',
    });
  });

  it('sends a first-time user to change the password through a one-time link', async () => {
    const user = await buildUser(server.db, { mustChangePassword: true });
    const res = await login(user.username, user.password);
    expect(res.status).toBe(400);
    expect(res.body.errName).toBe('ChangePasswordOnFirstLogin');
    const link = new URL(res.body.message!, 'http://x');
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('u')).toBe(String(user.id));
    expect(link.searchParams.get('reason')).toBe('first-login');
    const token = link.searchParams.get('token')!;

    const check = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${user.id}&token=${encodeURIComponent(token)}`,
    );
    expect(check.status).toBe(200);
    expect(check.body).toEqual({
      username: user.email,
      passwordPolicySettings: {
        minPasswordLength: 8,
        minCapital: 1,
        minNumber: 1,
        specialCharacters: 1,
      },
    });

    const changed = await server.request('POST', '/api/v2/auth/change-password', {
      body: {
        username: user.username,
        newPassword: 'Brand#New2',
        confirmPassword: 'Brand#New2',
        token,
      },
    });
    expect(changed.status).toBe(200);
    expect((await login(user.username, 'Brand#New2')).status).toBe(200);
    const reused = await server.request('POST', '/api/v2/auth/change-password', {
      body: {
        username: user.username,
        newPassword: 'Other#New3',
        confirmPassword: 'Other#New3',
        token,
      },
    });
    expect(reused.body.errName).toBe('PasswordResetLinkExpiredError');
  });

  it('sends a user whose password has expired to change it', async () => {
    const user = await buildUser(server.db, { passwordChangedDaysAgo: 91 });
    const res = await login(user.username, user.password);
    expect(res.body.errName).toBe('ChangePasswordOnPasswordExpiry');
    expect(res.body.message).toMatch(/^\/reset-password\?u=\d+&token=[^&]+&reason=expired$/);
  });
});

describe('password reset through a link', () => {
  async function linkFor(): Promise<{ userId: number; token: string; username: string }> {
    const user = await buildUser(server.db, { mustChangePassword: true });
    const res = await login(user.username, user.password);
    const link = new URL(res.body.message!, 'http://x');
    return { userId: user.id, token: link.searchParams.get('token')!, username: user.username };
  }
  const reset = (u: number, token: string, password: string, confirmPassword = password) =>
    server.request<Record<string, string>>('POST', '/api/v2/auth/reset-password', {
      body: { u, token, password, confirmPassword },
    });

  it('rejects an unknown or missing token', async () => {
    const { userId } = await linkFor();
    expect(
      (await server.request('GET', `/api/v2/auth/reset-password?u=${userId}&token=nope`)).body,
    ).toMatchObject({
      errName: 'InvalidToken',
    });
    expect((await server.request('GET', '/api/v2/auth/reset-password')).body).toMatchObject({
      errName: 'InvalidToken',
    });
    expect((await reset(userId, 'nope', 'Good#pass1')).body.errName).toBe('InvalidToken');
  });

  it('enforces the policy with the catalogue errors and changes nothing on failure', async () => {
    const { userId, token } = await linkFor();
    const short = await reset(userId, token, 'Ab#1');
    expect(short.body).toMatchObject({
      errName: 'PasswordMinLengthError',
      message: 'Your password must be minimum of 8 characters long',
    });
    const simple = await reset(userId, token, 'abcdefgh');
    expect(simple.body.errName).toBe('PasswordNotComplexError');
    expect(simple.body.message).toContain(
      'Your password must contain atleast one number and alphabet',
    );
    expect(simple.body.message).toContain('Your password must contain atleast one capital letter');
    expect(simple.body.message).toContain(
      'Your password must contain atleast one special character',
    );
    const reused = await reset(userId, token, 'Secret#123');
    expect(reused.body.errName).toBe('PasswordAlreadyUsed');
    const mismatch = await reset(userId, token, 'Good#pass1', 'Good#pass2');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'confirmPassword' }],
    });
    // None of the refusals spent the link.
    expect((await reset(userId, token, 'Good#pass1')).status).toBe(200);
    expect((await reset(userId, token, 'Good#pass9')).body.errName).toBe(
      'PasswordResetLinkExpiredError',
    );
  });

  it('expires links after 24 hours', async () => {
    const { userId, token } = await linkFor();
    await server.db.query(
      `update one_time_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [userId],
    );
    const res = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${userId}&token=${token}`,
    );
    expect(res.body).toMatchObject({ errName: 'PasswordResetLinkExpiredError' });
  });

  it('publishes the password policy', async () => {
    const res = await server.request('GET', '/api/v2/auth/reset-password-policy');
    expect(res.body).toEqual({
      passwordPolicySettings: {
        minPasswordLength: 8,
        minCapital: 1,
        minNumber: 1,
        specialCharacters: 1,
      },
    });
  });
});
