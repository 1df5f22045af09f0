import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap, permissionsWith } from '#server/test/factories.ts';
import { SERVICE, startSlapd, SUFFIX, type Slapd } from '#server/test/slapd.ts';
import { startFacilityTestServer, type FacilityTestServer } from '#server/test/test-server.ts';

const BASE = '/api/v2/activeDirectory';

let t: FacilityTestServer;
let slapd: Slapd;
let qcRole: number;
let productionRole: number;

const alice = { uid: 'alice', givenName: 'Alice', sn: 'Archer', mail: 'alice@dir.test' };
const bob = { uid: 'bob', givenName: 'Bob', sn: 'Baker', mail: 'bob@dir.test' };
const carol = { uid: 'carol', givenName: 'Carol', sn: 'Cook', mail: 'carol@dir.test' };
const dave = { uid: 'dave', givenName: 'Dave', sn: 'Dyer', mail: 'dave@dir.test' };
const PASSWORDS: Record<string, string> = {
  alice: 'Alice-dir-pass-1',
  bob: 'Bob-dir-pass-1',
  carol: 'Carol-dir-pass-1',
  dave: 'Dave-dir-pass-1',
};

async function role(name: string, permissions = fullPermissionMap()) {
  const [row] = await t.server.db.query<{ id: number }>(
    // The facility already has 'Production' and 'Quality Control' (the role templates): this
    // test's maps replace theirs.
    `insert into roles (facility_id, name, permissions) values ($1, $2, $3)
     on conflict (facility_id, name) do update set permissions = excluded.permissions returning id`,
    [t.facilityId, name, JSON.stringify(permissions)],
  );
  return row!.id;
}

function call(method: string, path: string, body?: unknown, token = t.token) {
  return t.server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
}

async function configure(overrides: Record<string, unknown> = {}) {
  const current = await call('GET', `${BASE}/settings`);
  const res = await call('PUT', `${BASE}/settings`, {
    enabled: true,
    url: slapd.url,
    baseDn: SUFFIX,
    bindDn: SERVICE.dn,
    bindPassword: SERVICE.password,
    userSearchAttributes: ['uid', 'mail'],
    useTls: false,
    groupRoles: [
      { group: 'qc', facilityId: t.facilityId, roleId: qcRole },
      {
        group: `cn=production,${slapd.groupsDn}`,
        facilityId: t.facilityId,
        roleId: productionRole,
      },
    ],
    version: (current.body.activeDirectorySettings as { version: number }).version,
    reason: 'Directory set-up for the test',
    ...overrides,
  });
  expect(res.status).toBe(200);
  return res;
}

async function addFromDirectory(uid: string) {
  const res = await call('POST', `${BASE}/users`, { dn: slapd.dnOf(uid) });
  expect(res.status).toBe(200);
  return res.body as { user: { id: number; authType: string; facilityRoles: unknown[] } };
}

function login(username: string, password: string) {
  return t.server.request('POST', '/api/v2/auth/login', { body: { username, password } });
}

async function attemptsOf(userId: number) {
  const [row] = await t.server.db.query<{ failed_attempts: number }>(
    'select failed_attempts from users where id = $1',
    [userId],
  );
  return row!.failed_attempts;
}

beforeAll(async () => {
  t = await startFacilityTestServer();
  slapd = await startSlapd();
  await slapd.addPerson({ ...alice, password: PASSWORDS.alice! }, ['qc']);
  await slapd.addPerson({ ...bob, password: PASSWORDS.bob! }, ['production']);
  await slapd.addPerson({ ...carol, password: PASSWORDS.carol! });
  await slapd.addPerson({ ...dave, password: PASSWORDS.dave! });
  qcRole = await role('Quality Control');
  productionRole = await role('Production', permissionsWith({ Equipment: ['Get'] }));
  await configure();
});
afterAll(async () => {
  await t?.server.close();
  await slapd?.close();
});

describe('Active Directory settings', () => {
  it('are refused without the User permission', async () => {
    const clerk = await buildUser(t.server.db, {
      permissions: permissionsWith({ User: ['Get'] }),
    });
    const token = await t.server.login(clerk.username, clerk.password);
    expect((await call('GET', `${BASE}/settings`, undefined, '')).status).toBe(401);
    const put = await call('PUT', `${BASE}/settings`, { enabled: false }, token);
    expect(put.status).toBe(403);
    expect((await call('POST', `${BASE}/settings/ping`, undefined, token)).status).toBe(403);
    const search = await call('POST', `${BASE}/search`, { query: 'ali' }, token);
    expect(search.status).toBe(403);
  });

  it('never return the bind password, store it encrypted and audit the change', async () => {
    const res = await call('GET', `${BASE}/settings`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(SERVICE.password);
    expect(res.body.activeDirectorySettings).toMatchObject({
      enabled: true,
      url: slapd.url,
      bindDn: SERVICE.dn,
      hasBindPassword: true,
      userSearchAttributes: ['uid', 'mail'],
    });
    const [row] = await t.server.db.query<{ stored: string }>(
      'select active_directory_bind_password as stored from plan_settings',
    );
    expect(row!.stored).toMatch(/^v1\./);
    expect(row!.stored).not.toContain(SERVICE.password);
    const [audit] = await t.server.db.query<{ reason: string; new_values: unknown }>(
      `select reason, new_values from audit_log where domain = 'ActiveDirectorySettings'
        order by id desc limit 1`,
    );
    expect(audit!.reason).toBe('Directory set-up for the test');
    expect(audit!.new_values).toMatchObject({ bindPasswordChanged: true });
    expect(JSON.stringify(audit)).not.toContain(SERVICE.password);
  });

  it('refuse a directory on another machine without TLS, and an unknown role', async () => {
    const current = await call('GET', `${BASE}/settings`);
    const version = (current.body.activeDirectorySettings as { version: number }).version;
    const body = {
      enabled: true,
      url: 'ldap://dc1.example.com',
      baseDn: SUFFIX,
      bindDn: SERVICE.dn,
      useTls: false,
      version,
      reason: 'x',
    };
    const plain = await call('PUT', `${BASE}/settings`, body);
    expect(plain.status).toBe(422);
    expect(plain.body.errors).toEqual([expect.objectContaining({ property: 'useTls' })]);
    const role = await call('POST', `${BASE}/settings`, {
      ...body,
      url: slapd.url,
      groupRoles: [{ group: 'qc', facilityId: t.facilityId, roleId: 999999 }],
    });
    expect(role.status).toBe(422);
    expect(role.body.errors).toEqual([
      expect.objectContaining({ property: 'groupRoles[0].roleId' }),
    ]);
  });

  it('ping binds as the service account, and says so when it cannot', async () => {
    const good = await call('POST', `${BASE}/settings/ping`);
    expect(good.body).toMatchObject({ success: true });
    await configure({ bindPassword: 'not-the-password' });
    const bad = await call('POST', `${BASE}/settings/ping`);
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ success: false });
    await configure();
  });
});

describe('Directory search', () => {
  it('finds accounts by part of a field, with their groups', async () => {
    const res = await call('POST', `${BASE}/search`, { query: 'alic' });
    expect(res.status).toBe(200);
    expect(res.body.activeDirectoryUsers).toEqual([
      {
        dn: slapd.dnOf('alice'),
        username: 'alice',
        firstName: 'Alice',
        lastName: 'Archer',
        email: 'alice@dir.test',
        groups: [`cn=qc,${slapd.groupsDn}`],
        existingUserId: null,
      },
    ]);
    const byMail = await call('POST', `${BASE}/search`, { query: 'dir.test', fields: ['mail'] });
    expect((byMail.body.activeDirectoryUsers as unknown[]).length).toBe(4);
  });

  it('matches a filter-injection query literally and finds nobody', async () => {
    for (const query of ['*)(uid=*', '*', 'alice)(|(uid=*']) {
      const res = await call('POST', `${BASE}/search`, { query });
      expect(res.status).toBe(200);
      expect(res.body.activeDirectoryUsers).toEqual([]);
    }
    const badField = await call('POST', `${BASE}/search`, { query: 'a', fields: ['uid)(x'] });
    expect(badField.status).toBe(422);
  });
});

describe('Adding users from the directory', () => {
  it('creates ad users with the roles of their groups', async () => {
    const added = await addFromDirectory('alice');
    expect(added.user).toMatchObject({
      username: 'alice',
      firstName: 'Alice',
      lastName: 'Archer',
      email: 'alice@dir.test',
      authType: 'ad',
      facilityRoles: [{ facilityId: t.facilityId, roleIds: [qcRole] }],
    });
    expect(added).toMatchObject({ secretKey: null, invitationSent: false });
    const viaDn = await addFromDirectory('bob');
    expect(viaDn.user.facilityRoles).toEqual([
      expect.objectContaining({ facilityId: t.facilityId, roleIds: [productionRole] }),
    ]);
    expect((await addFromDirectory('carol')).user.facilityRoles).toEqual([]);
    const again = await call('POST', `${BASE}/users`, { dn: slapd.dnOf('alice') });
    expect(again.status).toBe(409);
    const search = await call('POST', `${BASE}/search`, { query: 'alic' });
    expect(search.body.activeDirectoryUsers).toEqual([
      expect.objectContaining({ existingUserId: added.user.id }),
    ]);
    const missing = await call('POST', `${BASE}/users`, { dn: slapd.dnOf('nobody') });
    expect(missing.status).toBe(404);
  });
});

describe('Sign-in of ad users', () => {
  it('binds as the user: the right password signs in, a wrong one is refused and counted', async () => {
    const ok = await login('alice', PASSWORDS.alice!);
    expect(ok.status).toBe(200);
    const [user] = await t.server.db.query<{ id: number }>(
      `select id from users where username = 'alice'`,
    );
    const wrong = await login('alice@dir.test', 'Not-her-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errName).toBe('InvalidEmailOrPasswordError');
    expect(await attemptsOf(user!.id)).toBe(1);
    const [audit] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Authentication' and entity_id = $1
        order by id desc limit 1`,
      [user!.id],
    );
    expect(audit!.action).toBe('LoginFailed');
    // Another account's directory password is no key to this one.
    expect((await login('alice', PASSWORDS.bob!)).status).toBe(400);
    expect((await login('alice', PASSWORDS.alice!)).status).toBe(200);
    expect(await attemptsOf(user!.id)).toBe(0);
  });

  it('refuses an empty password before any connection to the directory', async () => {
    const connections: number[] = [];
    const listener: Server = createServer((socket) => {
      connections.push(1);
      socket.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const { port } = listener.address() as { port: number };
    try {
      await configure({ url: `ldap://127.0.0.1:${port}` });
      const empty = await login('carol', '');
      expect(empty.status).toBe(422);
      expect(connections).toEqual([]);
      // The listener does see a real attempt; a directory that is down is not the user's fault.
      const down = await login('carol', PASSWORDS.carol!);
      expect(down.status).toBe(400);
      expect(down.body.message).toContain('directory could not check your password');
      expect(connections.length).toBeGreaterThan(0);
      const [carolRow] = await t.server.db.query<{ id: number }>(
        `select id from users where username = 'carol'`,
      );
      expect(await attemptsOf(carolRow!.id)).toBe(0);
    } finally {
      await configure();
      listener.close();
    }
  });

  it('finds nobody for a filter-injection Employee ID', async () => {
    const created = await call('POST', '/api/v2/users', {
      firstName: 'Mallory',
      lastName: 'Star',
      username: '*)(uid=*',
      authType: 'ad',
    });
    expect(created.status).toBe(200);
    for (const password of [PASSWORDS.alice!, PASSWORDS.bob!]) {
      const res = await login('*)(uid=*', password);
      expect(res.status).toBe(400);
      expect(res.body.errName).toBe('InvalidEmailOrPasswordError');
    }
  });

  it("locks the account after the policy's failures, as for local users", async () => {
    const added = await addFromDirectory('dave');
    for (let attempt = 1; attempt < 5; attempt += 1) {
      const res = await login('dave', `wrong-${attempt}`);
      expect(res.body.errName).toBe('InvalidEmailOrPasswordError');
    }
    const fifth = await login('dave', 'wrong-5');
    expect(fifth.body.errName).toBe('LoginAttemptsExceeded');
    const right = await login('dave', PASSWORDS.dave!);
    expect(right.status).toBe(400);
    expect(right.body.errName).toBe('LoginAttemptsExceeded');
    const [lock] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where entity_id = $1 and action = 'Lock'`,
      [added.user.id],
    );
    expect(lock).toBeDefined();
  });

  it('cannot reset or change a directory password here', async () => {
    const forgot = await t.server.request('POST', '/api/v2/auth/forgot-password', {
      body: { username: 'bob' },
    });
    expect(forgot.status).toBe(400);
    expect(forgot.body.message).toContain('change it in the directory');
  });
});

describe('Signatures of ad users', () => {
  it('re-authenticate with the directory password', async () => {
    const token = (await login('alice', PASSWORDS.alice!)).body.token as string;
    const path = `${t.F}/cleaning_limit_policies`;
    const current = await call('GET', `${path}/Chemical`, undefined, token);
    const edited = await call(
      'POST',
      path,
      {
        residueType: 'Chemical',
        useLd50: true,
        version: current.body.version,
        reason: 'Directory signer test',
      },
      token,
    );
    expect(edited.status).toBe(200);
    const signature = (password: string) =>
      call(
        'POST',
        `${t.F}/signatures`,
        {
          documentType: 'CleaningLimitPolicy',
          documentId: edited.body.id,
          action: 'Submit',
          password,
        },
        token,
      );
    const wrong = await signature('Not-her-password');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ property: 'password' })]);
    const signed = await signature(PASSWORDS.alice!);
    expect(signed.status).toBe(200);
    expect(signed.body.document).toMatchObject({ status: 'BeingApproved' });
  });
});

describe('Auth type of users', () => {
  it('is set by an administrator on create and edit, never on their own account', async () => {
    const created = await call('POST', '/api/v2/users', {
      firstName: 'Sam',
      lastName: 'Sso',
      username: 'SSO-1',
      email: 'sam@sso.test',
      authType: 'sso',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ secretKey: null, invitationSent: false });
    const user = created.body.user as { id: number; version: number; authType: string };
    expect(user.authType).toBe('sso');
    const edited = await call('POST', `/api/v2/users/${user.id}`, {
      authType: 'ad',
      version: user.version,
      reason: 'Moves to the directory',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.authType).toBe('ad');
    const bad = await call('POST', '/api/v2/users', {
      firstName: 'X',
      lastName: 'Y',
      username: 'X-1',
      authType: 'kerberos',
    });
    expect(bad.status).toBe(422);
    const me = (await call('GET', '/api/v2/users/me')).body as { id: number };
    const self = await call('GET', `/api/v2/users/${me.id}`);
    const own = await call('POST', `/api/v2/users/${me.id}`, {
      authType: 'ad',
      version: self.body.version,
      reason: 'Try',
    });
    expect(own.status).toBe(422);
  });

  it('an sso user signing with a password is asked to sign in again at the provider', async () => {
    const user = await buildUser(t.server.db, { permissions: fullPermissionMap() });
    const token = await t.server.login(user.username, user.password);
    await t.server.db.query(`update users set auth_type = 'sso' where id = $1`, [user.id]);
    const res = await call(
      'POST',
      `${t.F}/signatures`,
      { documentType: 'CleaningLimitPolicy', documentId: 1, action: 'Submit', password: 'x' },
      token,
    );
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('Sign in again with single sign-on to sign');
  });
});
