import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { issueOneTimeToken } from '../auth/one-time-tokens.ts';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
});
afterAll(async () => {
  await server?.close();
});

async function tokenWith(allowed: Record<string, string[]>): Promise<string> {
  const user = await buildUser(server.db, { permissions: permissionsWith(allowed) });
  return server.login(user.username, user.password);
}

async function lastAudit(domain: string) {
  const [row] = await server.db.query<Record<string, unknown>>(
    `select user_name, action, reason, old_values, new_values, facility_id, chain from audit_log
      where domain = $1 order by id desc limit 1`,
    [domain],
  );
  return row;
}

/** The version of the plan's settings now: the one an edit is made from. */
async function planVersion(): Promise<number> {
  const [row] = await server.db.query<{ version: number }>(
    'select version from plan_settings order by plan_id limit 1',
  );
  return row?.version ?? 1;
}

const POLICY = {
  passwordPolicySettings: {
    minPasswordLength: 12,
    minCapital: 2,
    minNumber: 1,
    specialCharacters: 0,
  },
  maxLoginAttempts: 3,
  lockoutMinutes: 30,
  passwordExpiryDays: 0,
  passwordHistoryCount: 8,
};

describe('GET /api/v2/users/password-policy', () => {
  it('refuses a user without User Get (403 NotAllowed)', async () => {
    const res = await server.request('GET', '/api/v2/users/password-policy', {
      token: await tokenWith({ AuditLog: ['Get'] }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('refuses a caller without a session (401)', async () => {
    expect((await server.request('GET', '/api/v2/users/password-policy')).status).toBe(401);
  });

  it('answers the policy with the defaults of a new plan', async () => {
    const res = await server.request('GET', '/api/v2/users/password-policy', {
      token: await tokenWith({ User: ['Get'] }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passwordPolicySettings: {
        minPasswordLength: 8,
        minCapital: 1,
        minNumber: 1,
        specialCharacters: 1,
      },
      maxLoginAttempts: 5,
      lockoutMinutes: 15,
      passwordExpiryDays: 90,
      passwordHistoryCount: 5,
      version: 1,
    });
  });
});

describe('PUT /api/v2/users/password-policy', () => {
  it('refuses a user who may only read users (403 NotAllowed)', async () => {
    const res = await server.request('PUT', '/api/v2/users/password-policy', {
      token: await tokenWith({ User: ['Get'] }),
      body: { ...POLICY, version: await planVersion(), reason: 'Tighten' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('refuses a change without a reason (422) and writes nothing', async () => {
    const res = await server.request<{ errors: { property: string }[] }>(
      'PUT',
      '/api/v2/users/password-policy',
      { token: admin, body: POLICY },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.property)).toContain('reason');
    const now = await server.request('GET', '/api/v2/users/password-policy', { token: admin });
    expect(now.body).toMatchObject({ version: 1 });
  });

  it.each([
    ['passwordPolicySettings.minPasswordLength', { minPasswordLength: 7 }],
    ['passwordPolicySettings.minPasswordLength', { minPasswordLength: 65 }],
    ['passwordPolicySettings.minCapital', { minCapital: -1 }],
    ['passwordPolicySettings.minNumber', { minNumber: 1.5 }],
    [
      'passwordPolicySettings.minPasswordLength',
      { minPasswordLength: 8, minCapital: 5, minNumber: 5 },
    ],
  ])('refuses %s out of bounds with a message on the field', async (property, change) => {
    const res = await server.request<{ errName: string; errors: { property: string }[] }>(
      'PUT',
      '/api/v2/users/password-policy',
      {
        token: admin,
        body: {
          ...POLICY,
          version: await planVersion(),
          passwordPolicySettings: { ...POLICY.passwordPolicySettings, ...change },
          reason: 'Bounds',
        },
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.errors.map((e) => e.property)).toContain(property);
  });

  it.each([
    ['maxLoginAttempts', 0],
    ['lockoutMinutes', 0],
    ['passwordExpiryDays', -1],
    ['passwordHistoryCount', 25],
  ])('refuses %s = %s', async (field, value) => {
    const res = await server.request<{ errors: { property: string }[] }>(
      'PUT',
      '/api/v2/users/password-policy',
      {
        token: admin,
        body: { ...POLICY, version: await planVersion(), [field]: value, reason: 'Bounds' },
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.property)).toContain(field);
  });

  it('changes the policy, audits each changed field with the reason, and the reset screen sees it', async () => {
    const editor = await tokenWith({ User: ['Get', 'Modify'] });
    const res = await server.request('PUT', '/api/v2/users/password-policy', {
      token: editor,
      body: { ...POLICY, version: await planVersion(), reason: 'SOP-QA-017 rev 3' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...POLICY, version: 2 });
    expect(await lastAudit('PasswordPolicy')).toMatchObject({
      action: 'Update',
      reason: 'SOP-QA-017 rev 3',
      facility_id: null,
      old_values: {
        minPasswordLength: 8,
        minCapital: 1,
        specialCharacters: 1,
        maxLoginAttempts: 5,
        lockoutMinutes: 15,
        passwordExpiryDays: 90,
        passwordHistoryCount: 5,
      },
      new_values: {
        minPasswordLength: 12,
        minCapital: 2,
        specialCharacters: 0,
        maxLoginAttempts: 3,
        lockoutMinutes: 30,
        passwordExpiryDays: 0,
        passwordHistoryCount: 8,
      },
    });
    const reset = await server.request('GET', '/api/v2/auth/reset-password-policy');
    expect(reset.body).toEqual({ passwordPolicySettings: POLICY.passwordPolicySettings });
  });

  it('enforces the new lockout count at sign-in', async () => {
    const user = await buildUser(server.db);
    for (let i = 0; i < 3; i += 1) {
      await server.request('POST', '/api/v2/auth/login', {
        body: { username: user.username, password: 'Wrong#pass1' },
      });
    }
    const locked = await server.request('POST', '/api/v2/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(locked.body).toMatchObject({ errName: 'LoginAttemptsExceeded' });
  });

  it('answers NothingToChangeError when nothing changes, and 409 for a stale version', async () => {
    const same = await server.request('PUT', '/api/v2/users/password-policy', {
      token: admin,
      body: { ...POLICY, version: await planVersion(), reason: 'Again' },
    });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
    const stale = await server.request('PUT', '/api/v2/users/password-policy', {
      token: admin,
      body: { ...POLICY, maxLoginAttempts: 4, version: 1, reason: 'Stale' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errName: 'VersionConflictError' });
  });
});

describe('password ageing by policy (ID-1)', () => {
  it('lets an old password sign in while ageing is off, and sends it to change once it is on', async () => {
    const user = await buildUser(server.db, { passwordChangedDaysAgo: 45 });
    const login = () =>
      server.request('POST', '/api/v2/auth/login', {
        body: { username: user.username, password: user.password },
      });
    expect((await login()).status).toBe(200);
    const res = await server.request('PUT', '/api/v2/users/password-policy', {
      token: admin,
      body: {
        ...POLICY,
        version: await planVersion(),
        passwordExpiryDays: 30,
        reason: '21 CFR 11.300(b) ageing',
      },
    });
    expect(res.status).toBe(200);
    expect((await login()).body).toMatchObject({ errName: 'ChangePasswordOnPasswordExpiry' });
  });
});

describe('password reuse and length by policy', () => {
  async function reset(userId: number, password: string) {
    const token = await issueOneTimeToken(server.db, userId, 'reset');
    return server.request('POST', '/api/v2/auth/reset-password', {
      body: { u: userId, token, password, confirmPassword: password },
    });
  }
  const put = async (change: Record<string, unknown>) =>
    server.request('PUT', '/api/v2/users/password-policy', {
      token: admin,
      body: { ...POLICY, version: await planVersion(), ...change, reason: 'Reuse rules' },
    });

  it('refuses a password shorter than the policy, and reuse only while history is kept', async () => {
    const user = await buildUser(server.db, { password: 'Reused#Pass1234' });
    expect((await put({ passwordHistoryCount: 0 })).status).toBe(200);
    expect((await reset(user.id, 'Short#Pw1')).body).toMatchObject({
      errName: 'PasswordMinLengthError',
      message: 'Your password must be minimum of 12 characters long',
    });
    // Without history only the current password is refused: B, then A again, is fine.
    expect((await reset(user.id, 'Second#Pass1234')).status).toBe(200);
    expect((await reset(user.id, 'Reused#Pass1234')).status).toBe(200);
    expect((await put({ passwordHistoryCount: 3 })).status).toBe(200);
    expect((await reset(user.id, 'Second#Pass1234')).body).toMatchObject({
      errName: 'PasswordAlreadyUsed',
    });
  });
});

describe('GET /api/v2/users/allowedDomains', () => {
  it('refuses a user without User Get (403 NotAllowed)', async () => {
    const res = await server.request('GET', '/api/v2/users/allowedDomains', {
      token: await tokenWith({ DefaultUnit: ['Get'] }),
    });
    expect(res.status).toBe(403);
  });

  it('answers an empty list (any domain) for a new plan', async () => {
    const res = await server.request('GET', '/api/v2/users/allowedDomains', {
      token: await tokenWith({ User: ['Get'] }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ allowedDomains: [] });
  });
});

describe('PUT /api/v2/users/allowedDomains', () => {
  it('refuses a user who may only read users (403 NotAllowed)', async () => {
    const res = await server.request('PUT', '/api/v2/users/allowedDomains', {
      token: await tokenWith({ User: ['Get'] }),
      body: { allowedDomains: ['example.com'], version: 1, reason: 'x' },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a malformed domain on its index and a missing reason', async () => {
    const res = await server.request<{ errors: { property: string }[] }>(
      'PUT',
      '/api/v2/users/allowedDomains',
      { token: admin, body: { allowedDomains: ['example.com', 'not a domain'], version: 1 } },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.property).sort()).toEqual(['allowedDomains[1]', 'reason']);
  });

  it('stores the domains in lower case without @, sorted and once each, and audits the change', async () => {
    const res = await server.request('PUT', '/api/v2/users/allowedDomains', {
      token: admin,
      body: {
        allowedDomains: ['@Pharma.example', 'lab.example.org', 'pharma.example'],
        version: await planVersion(),
        reason: 'QA-12',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ allowedDomains: ['lab.example.org', 'pharma.example'] });
    const [row] = await server.db.query<{ allowed_domains: string[] }>(
      'select allowed_domains from plan_settings',
    );
    expect(row?.allowed_domains).toEqual(['lab.example.org', 'pharma.example']);
    expect(await lastAudit('AllowedDomains')).toMatchObject({
      reason: 'QA-12',
      old_values: { allowedDomains: [] },
      new_values: { allowedDomains: ['lab.example.org', 'pharma.example'] },
    });
    const emptied = await server.request('PUT', '/api/v2/users/allowedDomains', {
      token: admin,
      body: { allowedDomains: [], version: await planVersion(), reason: 'Any domain again' },
    });
    expect(emptied.body).toMatchObject({ allowedDomains: [] });
  });
});
