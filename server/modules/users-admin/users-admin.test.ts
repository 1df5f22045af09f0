import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPermissionMap, type PermissionMap } from '#core/permissions/permission-map.ts';
import type { TUser, TUserWithKey } from '#core/schemas/users.schemas.ts';
import { allFacilityIds, buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { plainText, startSmtpSink, type SmtpSink } from '#server/test/smtp-sink.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let smtp: SmtpSink;
let server: TestServer;
let admin: string;
let nobody: string;
let adminRoleIds: { facilityId: number; roleIds: number[] }[];

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://carryover.example.com',
  });
  admin = await server.login();
  const plain = await buildUser(server.db);
  nobody = await server.login(plain.username, plain.password);
  const facilities = await allFacilityIds(server.db);
  adminRoleIds = [];
  for (const facilityId of facilities) {
    const [role] = await server.db.query<{ id: number }>(
      `select id from roles where facility_id = $1 and name = 'Administrator'`,
      [facilityId],
    );
    adminRoleIds.push({ facilityId, roleIds: [role!.id] });
  }
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

let sequence = 0;
function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}${Date.now() % 100000}${sequence}`;
}

/** A signed-in user whose roles allow only the given User actions. */
async function userWith(actions: string[]): Promise<string> {
  const permissions: PermissionMap = emptyPermissionMap();
  for (const action of actions) permissions.User![action] = true;
  const user = await buildUser(server.db, { permissions, roleName: `Only ${actions.join('+')}` });
  return server.login(user.username, user.password);
}

async function createUser(body: Record<string, unknown>, token = admin) {
  return server.request<TUserWithKey>('POST', '/api/v2/users', { token, body });
}

async function created(overrides: Record<string, unknown> = {}): Promise<TUserWithKey> {
  const username = unique('EMP');
  const res = await createUser({
    firstName: 'Ada',
    lastName: 'Lovelace',
    username,
    email: `${username.toLowerCase()}@example.com`,
    facilityRoles: adminRoleIds.slice(0, 1),
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function auditRows(entityId: number, action: string) {
  return server.db.query<{
    reason: string | null;
    old_values: Record<string, unknown> | null;
    new_values: Record<string, unknown> | null;
    user_id: number | null;
  }>(
    `select reason, old_values, new_values, user_id from audit_log
      where domain = 'User' and action = $1 and entity_id = $2 order by id`,
    [action, String(entityId)],
  );
}

function linkIn(raw: string): { u: number; token: string } {
  const text = plainText(raw);
  const match = /https:\/\/carryover\.example\.com(\/reset-password\?u=\d+&token=[\w-]+)/.exec(
    text,
  );
  expect(match, text).not.toBeNull();
  const url = new URL(match![1]!, 'https://x');
  return { u: Number(url.searchParams.get('u')), token: url.searchParams.get('token')! };
}

async function setPasswordWith(u: number, token: string, password: string): Promise<void> {
  const res = await server.request('POST', '/api/v2/auth/reset-password', {
    body: { u, token, password, confirmPassword: password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('GET /api/v2/users', () => {
  it('refuses a user without User Get', async () => {
    const res = await server.request('GET', '/api/v2/users', { token: nobody });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    expect((await server.request('GET', '/api/v2/users')).status).toBe(401);
  });

  it('pages with pageLimit 10 by default and searches names, IDs and e-mails', async () => {
    for (let i = 0; i < 11; i += 1) await created({ lastName: `Pagesearch${i}` });
    const first = await server.request<{ data: TUser[]; total: number; pageLimit: number }>(
      'GET',
      '/api/v2/users?search=pagesearch',
      { token: admin },
    );
    expect(first.status).toBe(200);
    expect(first.body.pageLimit).toBe(10);
    expect(first.body.total).toBe(11);
    expect(first.body.data).toHaveLength(10);
    const second = await server.request<{ data: TUser[] }>(
      'GET',
      '/api/v2/users?search=pagesearch&pageNumber=2',
      { token: admin },
    );
    expect(second.body.data).toHaveLength(1);
    const one = await created({ firstName: 'Grace', lastName: 'Hopper-Unique' });
    const byId = await server.request<{ data: TUser[] }>(
      'GET',
      `/api/v2/users?search=${one.user.username.toLowerCase()}`,
      { token: admin },
    );
    expect(byId.body.data.map((u) => u.id)).toEqual([one.user.id]);
    expect(byId.body.data[0]).toMatchObject({
      firstName: 'Grace',
      roles: [{ name: 'Administrator' }],
      isRegistered: false,
      archivedAt: null,
    });
  });

  it('answers [{ id, name }] for the id-name media type', async () => {
    const one = await created({ firstName: 'Idname', lastName: 'Person' });
    const res = await server.request<{ id: number; name: string }[]>('GET', '/api/v2/users', {
      token: admin,
      headers: { accept: 'application/vnd.idname+json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.idname+json');
    expect(res.body).toContainEqual({ id: one.user.id, name: 'Idname Person' });
    expect(Object.keys(res.body[0]!).sort()).toEqual(['id', 'name']);
  });
});

describe('GET /api/v2/users/{id}', () => {
  it('refuses a user without User Get, and answers 404 for an unknown id', async () => {
    const one = await created();
    expect(
      (await server.request('GET', `/api/v2/users/${one.user.id}`, { token: nobody })).status,
    ).toBe(403);
    const res = await server.request<TUser>('GET', `/api/v2/users/${one.user.id}`, {
      token: admin,
    });
    expect(res.body).toMatchObject({ id: one.user.id, version: 1 });
    const missing = await server.request('GET', '/api/v2/users/999999', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ errName: 'NotFoundError' });
  });
});

describe('POST /api/v2/users', () => {
  it('refuses a user without User Add', async () => {
    const token = await userWith(['Get', 'Modify']);
    const res = await createUser({ firstName: 'A', lastName: 'B', username: unique('NO') }, token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('invites a user with an e-mail: the mailed link sets the password and they sign in', async () => {
    const username = unique('INV');
    const email = `${username.toLowerCase()}@example.com`;
    const res = await createUser({
      firstName: 'Invited',
      lastName: 'User',
      username,
      email,
      facilityRoles: adminRoleIds,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ secretKey: null, invitationSent: true });
    expect(res.body.user.facilityRoles).toHaveLength(adminRoleIds.length);

    const mail = await smtp.waitFor(email);
    expect(mail.raw).toMatch(/Subject: You are invited to Carryover/);
    const { u, token } = linkIn(mail.raw);
    expect(u).toBe(res.body.user.id);
    const check = await server.request('GET', `/api/v2/auth/reset-password?u=${u}&token=${token}`);
    expect(check.status).toBe(200);
    await setPasswordWith(u, token, 'Invited#Pass1');
    const session = await server.login(email, 'Invited#Pass1');
    expect(session).toBeTruthy();

    const [audit] = await auditRows(res.body.user.id, 'Create');
    expect(audit).toMatchObject({
      new_values: expect.objectContaining({ username, email, invitation: 'mail' }),
    });
    expect(JSON.stringify(audit)).not.toMatch(/token/i);
  });

  it('gives a user without e-mail a secret key, once, with which they register', async () => {
    const username = unique('KEY');
    const res = await createUser({ firstName: 'Key', lastName: 'Holder', username, email: '' });
    expect(res.status).toBe(200);
    expect(res.body.secretKey).toMatch(/^[\w-]{40,}$/);
    expect(res.body.user).toMatchObject({ email: null, hasSecretKey: true, isRegistered: false });
    const fetched = await server.request('GET', `/api/v2/users/${res.body.user.id}`, {
      token: admin,
    });
    expect(JSON.stringify(fetched.body)).not.toContain(res.body.secretKey!);

    const reg = await server.request<{ redirect: string }>('POST', '/api/v2/auth/register', {
      body: { username, token: res.body.secretKey },
    });
    expect(reg.status).toBe(200);
    const url = new URL(reg.body.redirect, 'http://x');
    await setPasswordWith(
      Number(url.searchParams.get('u')),
      url.searchParams.get('token')!,
      'Keyed#Pass1',
    );
    expect(await server.login(username, 'Keyed#Pass1')).toBeTruthy();
  });

  it('refuses the usernames admin, root and sa', async () => {
    for (const username of ['admin', 'ROOT', 'sa']) {
      const res = await createUser({ firstName: 'A', lastName: 'B', username });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        errName: 'DataValidationError',
        errors: [{ property: 'username' }],
      });
    }
  });

  it('refuses duplicates naming the property, and an archived username with ArchivedEntryError', async () => {
    const one = await created();
    const sameId = await createUser({
      firstName: 'A',
      lastName: 'B',
      username: one.user.username.toLowerCase(),
    });
    expect(sameId.status).toBe(409);
    expect(sameId.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'username' }],
    });
    const sameMail = await createUser({
      firstName: 'A',
      lastName: 'B',
      username: unique('MAIL'),
      email: one.user.email!.toUpperCase(),
    });
    expect(sameMail.status).toBe(409);
    expect(sameMail.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'email' }],
    });

    const archive = await server.request('PUT', `/api/v2/users/${one.user.id}/archive`, {
      token: admin,
      body: { reason: 'Left the company', force_delete: false },
    });
    expect(archive.status).toBe(200);
    const again = await createUser({ firstName: 'A', lastName: 'B', username: one.user.username });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      errName: 'ArchivedEntryError',
      errors: [{ property: 'username', constraints: { archived: 'Data Archived' } }],
    });
  });

  it('refuses an e-mail outside the allowed domains when the plan lists any', async () => {
    const [plan] = await server.db.query<{ plan_id: number }>(
      'select plan_id from plan_settings limit 1',
    );
    await server.db.query('update plan_settings set allowed_domains = $2 where plan_id = $1', [
      plan!.plan_id,
      ['pharma.example'],
    ]);
    try {
      const username = unique('DOM');
      const refused = await createUser({
        firstName: 'A',
        lastName: 'B',
        username,
        email: `${username}@elsewhere.example`,
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ errors: [{ property: 'email' }] });
      const allowed = await createUser({
        firstName: 'A',
        lastName: 'B',
        username,
        email: `${username}@Pharma.Example`,
      });
      expect(allowed.status).toBe(200);
    } finally {
      await server.db.query(`update plan_settings set allowed_domains = '{}'`);
    }
  });

  it('refuses a password, missing names, and roles of another facility', async () => {
    const withPassword = await createUser({
      firstName: 'A',
      lastName: 'B',
      username: unique('PW'),
      password: 'Chosen#Pass1',
    });
    expect(withPassword.status).toBe(422);
    expect(withPassword.body).toMatchObject({ errors: [{ property: 'password' }] });

    const missing = await createUser({ username: unique('MISS') });
    expect(missing.status).toBe(422);
    const properties = (missing.body as unknown as { errors: { property: string }[] }).errors.map(
      (e) => e.property,
    );
    expect(properties).toEqual(expect.arrayContaining(['firstName', 'lastName']));

    const [first, second] = adminRoleIds;
    const crossed = await createUser({
      firstName: 'A',
      lastName: 'B',
      username: unique('X'),
      facilityRoles: [{ facilityId: first!.facilityId, roleIds: second!.roleIds }],
    });
    expect(crossed.status).toBe(422);
    expect(crossed.body).toMatchObject({ errors: [{ property: 'facilityRoles[0].roleIds' }] });
  });
});

describe('POST /api/v2/users/{id}', () => {
  it('refuses a user without User Modify', async () => {
    const one = await created();
    const token = await userWith(['Get', 'Add', 'Archive']);
    const res = await server.request('POST', `/api/v2/users/${one.user.id}`, {
      token,
      body: { firstName: 'X', reason: 'r', version: 1 },
    });
    expect(res.status).toBe(403);
  });

  it('edits with a reason and writes the changed fields, old and new, to the audit trail', async () => {
    const one = await created({ facilityRoles: [] });
    const res = await server.request<TUser>('POST', `/api/v2/users/${one.user.id}`, {
      token: admin,
      body: {
        firstName: 'Augusta',
        lastName: one.user.lastName,
        facilityRoles: adminRoleIds,
        reason: 'Name as in HR records',
        version: one.user.version,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Augusta', version: one.user.version + 1 });
    expect(res.body.facilityRoles.map((f) => f.facilityId)).toEqual(
      adminRoleIds.map((f) => f.facilityId),
    );
    const [audit] = await auditRows(one.user.id, 'Update');
    expect(audit).toMatchObject({
      reason: 'Name as in HR records',
      old_values: { firstName: 'Ada', facilityRoles: [] },
      new_values: { firstName: 'Augusta', facilityRoles: adminRoleIds },
    });
  });

  it('refuses a stale version with 409 and changes nothing', async () => {
    const one = await created();
    const body = { lastName: 'First', reason: 'r', version: one.user.version };
    expect(
      (await server.request('POST', `/api/v2/users/${one.user.id}`, { token: admin, body })).status,
    ).toBe(200);
    const stale = await server.request('POST', `/api/v2/users/${one.user.id}`, {
      token: admin,
      body: { lastName: 'Second', reason: 'r', version: one.user.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errName: 'VersionConflictError' });
    const now = await server.request<TUser>('GET', `/api/v2/users/${one.user.id}`, {
      token: admin,
    });
    expect(now.body.lastName).toBe('First');
    expect(await auditRows(one.user.id, 'Update')).toHaveLength(1);
  });

  it('needs a reason, refuses no change, a password and a reserved username', async () => {
    const one = await created();
    const path = `/api/v2/users/${one.user.id}`;
    const noReason = await server.request('POST', path, {
      token: admin,
      body: { lastName: 'X', version: 1 },
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body).toMatchObject({ errors: [{ property: 'reason' }] });
    const same = await server.request('POST', path, {
      token: admin,
      body: { lastName: one.user.lastName, reason: 'r', version: 1 },
    });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
    const password = await server.request('POST', path, {
      token: admin,
      body: { password: 'Other#Pass1', reason: 'r', version: 1 },
    });
    expect(password.status).toBe(422);
    const reserved = await server.request('POST', path, {
      token: admin,
      body: { username: 'Root', reason: 'r', version: 1 },
    });
    expect(reserved.status).toBe(422);
    expect(reserved.body).toMatchObject({ errors: [{ property: 'username' }] });
  });
});

describe('PUT /api/v2/users/{id}/archive and unarchive', () => {
  it('refuses a user without User Archive, for archive and for unArchive', async () => {
    const one = await created();
    const token = await userWith(['Get', 'Modify']);
    const archive = await server.request('PUT', `/api/v2/users/${one.user.id}/archive`, {
      token,
      body: { reason: 'r', force_delete: false },
    });
    expect(archive.status).toBe(403);
    const unarchive = await server.request('POST', `/api/v2/users/${one.user.id}`, {
      token,
      body: { unArchive: true, reason: 'r' },
    });
    expect(unarchive.status).toBe(403);
  });

  it('archives (ending sessions), lists archived users, and restores them', async () => {
    const user = await buildUser(server.db);
    const session = await server.login(user.username, user.password);
    const res = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/archive`, {
      token: admin,
      body: { reason: 'Left the company', force_delete: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ archiveReason: 'Left the company' });
    expect((await server.request('GET', '/api/v2/users/me', { token: session })).status).toBe(401);
    const archived = await server.request<{ data: TUser[] }>(
      'GET',
      `/api/v2/users?archived=true&search=${user.username}`,
      { token: admin },
    );
    expect(archived.body.data.map((u) => u.id)).toEqual([user.id]);
    const active = await server.request<{ data: TUser[] }>(
      'GET',
      `/api/v2/users?search=${user.username}`,
      { token: admin },
    );
    expect(active.body.data).toEqual([]);
    const [audit] = await auditRows(user.id, 'Archive');
    expect(audit).toMatchObject({ reason: 'Left the company', new_values: { archived: true } });

    const restored = await server.request<TUser>('POST', `/api/v2/users/${user.id}`, {
      token: admin,
      body: { unArchive: true, reason: 'Rehired' },
    });
    expect(restored.status).toBe(200);
    expect(restored.body.archivedAt).toBeNull();
    expect(restored.body.facilityRoles.length).toBeGreaterThan(0);
    expect(await server.login(user.username, user.password)).toBeTruthy();
    expect(await auditRows(user.id, 'Unarchive')).toHaveLength(1);
  });

  it('with force_delete also takes the facilities and roles away', async () => {
    const user = await buildUser(server.db);
    const res = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/archive`, {
      token: admin,
      body: { reason: 'Contract ended', force_delete: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.facilityRoles).toEqual([]);
    const [audit] = await auditRows(user.id, 'Archive');
    expect(audit?.new_values).toMatchObject({ facilityRoles: [] });
    expect((audit?.old_values?.facilityRoles as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses archiving oneself and archiving twice', async () => {
    const me = await server.request<{ id: number }>('GET', '/api/v2/users/me', { token: admin });
    const self = await server.request('PUT', `/api/v2/users/${me.body.id}/archive`, {
      token: admin,
      body: { reason: 'r', force_delete: false },
    });
    expect(self.status).toBe(422);
    const user = await buildUser(server.db);
    const body = { reason: 'r', force_delete: false };
    await server.request('PUT', `/api/v2/users/${user.id}/archive`, { token: admin, body });
    const twice = await server.request('PUT', `/api/v2/users/${user.id}/archive`, {
      token: admin,
      body,
    });
    expect(twice.body).toMatchObject({ errName: 'NothingToChangeError' });
    const noReason = await server.request('PUT', `/api/v2/users/${user.id}/archive`, {
      token: admin,
      body: { force_delete: false },
    });
    expect(noReason.status).toBe(422);
  });
});

describe('PUT lock, unlock, block, unblock, enable', () => {
  it('refuses a user without User Modify on every one of them', async () => {
    const user = await buildUser(server.db);
    const token = await userWith(['Get', 'Add', 'Archive']);
    for (const path of ['lock', 'unlock', 'block', 'unblock', 'enable']) {
      const res = await server.request('PUT', `/api/v2/users/${user.id}/${path}`, {
        token,
        body: { reason: 'r' },
      });
      expect(res.status, path).toBe(403);
    }
  });

  it('locks until unlocked, ending sessions', async () => {
    const user = await buildUser(server.db);
    const session = await server.login(user.username, user.password);
    const lock = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/lock`, {
      token: admin,
      body: { reason: 'Suspicious activity' },
    });
    expect(lock.status).toBe(200);
    expect(lock.body.isLocked).toBe(true);
    expect((await server.request('GET', '/api/v2/users/me', { token: session })).status).toBe(401);
    const refused = await server.request('POST', '/api/v2/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(refused.body).toMatchObject({ errName: 'LoginAttemptsExceeded' });
    const again = await server.request('PUT', `/api/v2/users/${user.id}/lock`, {
      token: admin,
      body: { reason: 'r' },
    });
    expect(again.body).toMatchObject({ errName: 'NothingToChangeError' });

    const unlock = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/unlock`, {
      token: admin,
      body: { reason: 'Checked with the user' },
    });
    expect(unlock.body.isLocked).toBe(false);
    expect(await server.login(user.username, user.password)).toBeTruthy();
    expect(await auditRows(user.id, 'Lock')).toMatchObject([
      { reason: 'Suspicious activity', old_values: { isLocked: false } },
    ]);
  });

  it('blocks (ending sessions) and unblocks; enable lifts a block and a lock', async () => {
    const user = await buildUser(server.db);
    const session = await server.login(user.username, user.password);
    const block = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/block`, {
      token: admin,
      body: { reason: 'Under investigation' },
    });
    expect(block.body.isBlocked).toBe(true);
    expect((await server.request('GET', '/api/v2/users/me', { token: session })).status).toBe(401);
    const refused = await server.request('POST', '/api/v2/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(refused.body).toMatchObject({ errName: 'UserBlockedError' });
    const unblock = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/unblock`, {
      token: admin,
      body: { reason: 'Cleared' },
    });
    expect(unblock.body.isBlocked).toBe(false);

    for (const path of ['block', 'lock']) {
      await server.request('PUT', `/api/v2/users/${user.id}/${path}`, {
        token: admin,
        body: { reason: 'r' },
      });
    }
    const enable = await server.request<TUser>('PUT', `/api/v2/users/${user.id}/enable`, {
      token: admin,
      body: { reason: 'Back at work' },
    });
    expect(enable.body).toMatchObject({ isBlocked: false, isLocked: false });
    expect(await server.login(user.username, user.password)).toBeTruthy();
    const [audit] = await auditRows(user.id, 'Enable');
    expect(audit).toMatchObject({
      old_values: { isBlocked: true, isLocked: true },
      new_values: { isBlocked: false, isLocked: false },
    });
  });

  it('refuses locking or blocking oneself', async () => {
    const me = await server.request<{ id: number }>('GET', '/api/v2/users/me', { token: admin });
    for (const path of ['lock', 'block']) {
      const res = await server.request('PUT', `/api/v2/users/${me.body.id}/${path}`, {
        token: admin,
        body: { reason: 'r' },
      });
      expect(res.status).toBe(422);
    }
  });
});

describe('POST /api/v2/users/{id}/resend-invitation', () => {
  it('refuses a user without User Modify', async () => {
    const one = await created();
    const token = await userWith(['Get', 'Add']);
    const res = await server.request('POST', `/api/v2/users/${one.user.id}/resend-invitation`, {
      token,
      body: { id: one.user.id, reason: 'r', generateKey: false },
    });
    expect(res.status).toBe(403);
  });

  it('mails a fresh link; the older one stops working', async () => {
    const one = await created();
    const email = one.user.email!;
    const firstMail = await smtp.waitFor(email);
    const first = linkIn(firstMail.raw);
    const res = await server.request<TUserWithKey>(
      'POST',
      `/api/v2/users/${one.user.id}/resend-invitation`,
      { token: admin, body: { id: one.user.id, reason: 'Lost the mail', generateKey: false } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invitationSent: true, secretKey: null });
    const deadline = Date.now() + 10_000;
    while (smtp.messages.filter((m) => m.to.includes(email)).length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const mails = smtp.messages.filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(2);
    const second = linkIn(mails[1]!.raw);
    const old = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${first.u}&token=${first.token}`,
    );
    expect(old.status).toBe(400);
    await setPasswordWith(second.u, second.token, 'Second#Pass1');
    expect(await auditRows(one.user.id, 'InvitationSent')).toMatchObject([
      { reason: 'Lost the mail' },
    ]);
  });

  it('with generateKey issues a fresh secret key and voids the old one', async () => {
    const one = await created({ email: null });
    const res = await server.request<TUserWithKey>(
      'POST',
      `/api/v2/users/${one.user.id}/resend-invitation`,
      { token: admin, body: { id: one.user.id, reason: 'Key lost', generateKey: true } },
    );
    expect(res.body.secretKey).toBeTruthy();
    expect(res.body.secretKey).not.toBe(one.secretKey);
    const old = await server.request('POST', '/api/v2/auth/register', {
      body: { username: one.user.username, token: one.secretKey },
    });
    expect(old.body).toMatchObject({ errName: 'InvalidToken' });
    const fresh = await server.request('POST', '/api/v2/auth/register', {
      body: { username: one.user.username, token: res.body.secretKey },
    });
    expect(fresh.status).toBe(200);
  });

  it('refuses a mail to a user without e-mail, and a body id that is not the path id', async () => {
    const one = await created({ email: null });
    const noMail = await server.request('POST', `/api/v2/users/${one.user.id}/resend-invitation`, {
      token: admin,
      body: { id: one.user.id, reason: 'r', generateKey: false },
    });
    expect(noMail.status).toBe(422);
    expect(noMail.body).toMatchObject({ errors: [{ property: 'email' }] });
    const wrongId = await server.request('POST', `/api/v2/users/${one.user.id}/resend-invitation`, {
      token: admin,
      body: { id: one.user.id + 1000, reason: 'r', generateKey: true },
    });
    expect(wrongId.status).toBe(422);
  });
});

describe('DELETE /api/v2/users/{id}/secret-key', () => {
  it('refuses a user without User Modify', async () => {
    const one = await created({ email: null });
    const token = await userWith(['Get']);
    const res = await server.request('DELETE', `/api/v2/users/${one.user.id}/secret-key`, {
      token,
      body: { reason: 'r' },
    });
    expect(res.status).toBe(403);
  });

  it('cancels the key so that it no longer registers; a second cancel has nothing to change', async () => {
    const one = await created({ email: null });
    const res = await server.request<TUser>('DELETE', `/api/v2/users/${one.user.id}/secret-key`, {
      token: admin,
      body: { reason: 'Handed to the wrong person' },
    });
    expect(res.status).toBe(200);
    expect(res.body.hasSecretKey).toBe(false);
    const reg = await server.request('POST', '/api/v2/auth/register', {
      body: { username: one.user.username, token: one.secretKey },
    });
    expect(reg.body).toMatchObject({ errName: 'InvalidToken' });
    const again = await server.request('DELETE', `/api/v2/users/${one.user.id}/secret-key`, {
      token: admin,
      body: { reason: 'r' },
    });
    expect(again.body).toMatchObject({ errName: 'NothingToChangeError' });
    expect(await auditRows(one.user.id, 'SecretKeyCancelled')).toMatchObject([
      { reason: 'Handed to the wrong person' },
    ]);
  });
});

describe('DELETE /api/v2/users/{id}/tokens', () => {
  it("refuses a user without User Modify; an administrator ends another user's sessions", async () => {
    const user = await buildUser(server.db);
    const session = await server.login(user.username, user.password);
    const refused = await server.request('DELETE', `/api/v2/users/${user.id}/tokens`, {
      token: nobody,
    });
    expect(refused.status).toBe(403);
    const ended = await server.request('DELETE', `/api/v2/users/${user.id}/tokens`, {
      token: admin,
    });
    expect(ended.status).toBe(200);
    expect((await server.request('GET', '/api/v2/users/me', { token: session })).status).toBe(401);
  });
});

describe('audit of user administration', () => {
  it('records the administrator as the actor, never a value from the body', async () => {
    const me = await server.request<{ id: number }>('GET', '/api/v2/users/me', { token: admin });
    const one = await created();
    const [audit] = await auditRows(one.user.id, 'Create');
    expect(audit?.user_id).toBe(me.body.id);
    expect(fullPermissionMap().User).toMatchObject({ Add: true });
  });
});
