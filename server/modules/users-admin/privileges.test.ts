import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRole } from '#core/schemas/roles.schemas.ts';
import type { TUser, TUserWithKey } from '#core/schemas/users.schemas.ts';
import {
  allFacilityIds,
  buildUser,
  fullPermissionMap,
  permissionsWith,
  type BuiltUser,
} from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

// Issue 8, privileges: nobody widens their own access, grants what they lack, or acts on a
// stronger account. Every attack below is performed over HTTP and must be refused and audited.

let server: TestServer;
let sysadmin: string;
let sysadminId: number;
let A: number;
let B: number;
let planId: number;
/** The seeded Administrator role (every permission) of each facility. */
const adminRole: Record<number, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  sysadmin = await server.login();
  [A, B] = (await allFacilityIds(server.db)) as [number, number];
  const [me] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from users where is_system_admin',
  );
  sysadminId = me!.id;
  planId = me!.plan_id;
  for (const facilityId of [A, B]) {
    const [role] = await server.db.query<{ id: number }>(
      `select id from roles where facility_id = $1 and name = 'Administrator'`,
      [facilityId],
    );
    adminRole[facilityId] = role!.id;
  }
});
afterAll(async () => {
  await server?.close();
});

let sequence = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 100000}${(sequence += 1)}`;

/** A signed-in user with a role of every permission in the given facilities, not a system administrator. */
async function facilityAdmin(facilityIds: number[]): Promise<BuiltUser & { token: string }> {
  const user = await buildUser(server.db, {
    facilityIds,
    permissions: fullPermissionMap(),
    roleName: unique('Full '),
  });
  return { ...user, token: await server.login(user.username, user.password) };
}

async function getUser(id: number): Promise<TUser> {
  const res = await server.request<TUser>('GET', `/api/v2/users/${id}`, { token: sysadmin });
  expect(res.status).toBe(200);
  return res.body;
}

async function editUser(token: string, id: number, body: Record<string, unknown>) {
  const { version } = await getUser(id);
  return server.request<TUser>('POST', `/api/v2/users/${id}`, {
    token,
    body: { reason: 'Access review', version, ...body },
  });
}

async function refusals(domain: string, entityId: number | null) {
  return server.db.query<{
    user_id: number;
    facility_id: number | null;
    new_values: Record<string, unknown>;
  }>(
    `select user_id, facility_id, new_values from audit_log
      where domain = $1 and action = 'AccessRefused'
        and entity_id is not distinct from $2 order by id`,
    [domain, entityId === null ? null : String(entityId)],
  );
}

function expectRefused(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toMatchObject({ errName: 'NotAllowed', name: 'NotAllowed' });
}

describe('a user cannot widen their own access', () => {
  it('refuses an administrator of one facility granting themself another facility', async () => {
    const me = await facilityAdmin([A]);
    const own = await getUser(me.id);
    const grants = own.facilityRoles.map(({ facilityId, roleIds }) => ({ facilityId, roleIds }));
    const res = await editUser(me.token, me.id, {
      facilityRoles: [...grants, { facilityId: B, roleIds: [adminRole[B]] }],
    });
    expectRefused(res);
    expect((await getUser(me.id)).facilityRoles.map((g) => g.facilityId)).toEqual([A]);
    const [audit] = await refusals('User', me.id);
    expect(audit).toMatchObject({
      user_id: me.id,
      new_values: { attempted: 'Update', why: 'nobody may change their own facilities or roles' },
    });
  });

  it('refuses changing one’s own roles even within one’s facility, but lets one edit one’s name', async () => {
    const me = await facilityAdmin([A]);
    const res = await editUser(me.token, me.id, {
      facilityRoles: [{ facilityId: A, roleIds: [adminRole[A]] }],
    });
    expectRefused(res);
    const renamed = await editUser(me.token, me.id, { firstName: 'Renamed' });
    expect(renamed.status).toBe(200);
  });

  it('refuses granting a role in a facility where the administrator lacks User Modify', async () => {
    const me = await facilityAdmin([A]);
    const target = await buildUser(server.db, { facilityIds: [] });
    const res = await editUser(me.token, target.id, {
      facilityRoles: [{ facilityId: B, roleIds: [adminRole[B]] }],
    });
    expectRefused(res);
    expect((await getUser(target.id)).facilityRoles).toEqual([]);
    expect(await refusals('User', target.id)).toMatchObject([
      { facility_id: B, new_values: { attempted: 'Update' } },
    ]);

    const created = await server.request('POST', '/api/v2/users', {
      token: me.token,
      body: {
        firstName: 'New',
        lastName: 'Hire',
        username: unique('NEW'),
        email: null,
        facilityRoles: [{ facilityId: B, roleIds: [adminRole[B]] }],
      },
    });
    expectRefused(created);
    expect(await refusals('User', null)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          facility_id: B,
          new_values: expect.objectContaining({ attempted: 'Create' }),
        }),
      ]),
    );
  });

  it('audits the refusal of a create sent with an Idempotency-Key too', async () => {
    const me = await facilityAdmin([A]);
    const before = (await refusals('User', null)).length;
    const created = await server.request('POST', '/api/v2/users', {
      token: me.token,
      headers: { 'idempotency-key': `refused-${unique('K')}` },
      body: {
        firstName: 'Keyed',
        lastName: 'Hire',
        username: unique('KEY'),
        email: null,
        facilityRoles: [{ facilityId: B, roleIds: [adminRole[B]] }],
      },
    });
    expectRefused(created);
    const after = await refusals('User', null);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ user_id: me.id, facility_id: B });
  });

  it('refuses granting a permission one does not hold in that facility; a lesser role is fine', async () => {
    const user = await buildUser(server.db, {
      facilityIds: [A],
      permissions: permissionsWith({ User: ['Get', 'Add', 'Modify'], Equipment: ['Get'] }),
      roleName: unique('User manager '),
    });
    const token = await server.login(user.username, user.password);
    const target = await buildUser(server.db, { facilityIds: [] });
    const res = await editUser(token, target.id, {
      facilityRoles: [{ facilityId: A, roleIds: [adminRole[A]] }],
    });
    expectRefused(res);
    const [audit] = await refusals('User', target.id);
    expect(audit?.new_values.missing).toEqual(
      expect.arrayContaining(['Equipment.Add', 'User.Archive']),
    );

    const lesser = await server.request<TRole>(
      'POST',
      `/api/v2/plans/${planId}/facilities/${A}/user_roles`,
      {
        token: sysadmin,
        body: { name: unique('Viewer '), permissions: { Equipment: { Get: true } } },
      },
    );
    expect(lesser.status).toBe(200);
    const ok = await editUser(token, target.id, {
      facilityRoles: [{ facilityId: A, roleIds: [lesser.body.id] }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses giving a role an action its editor does not hold in that facility', async () => {
    const user = await buildUser(server.db, {
      facilityIds: [A],
      permissions: permissionsWith({ UserRole: ['Get', 'Add', 'Modify'] }),
      roleName: unique('Role editor '),
    });
    const token = await server.login(user.username, user.password);
    const F = `/api/v2/plans/${planId}/facilities/${A}`;
    const created = await server.request<TRole>('POST', `${F}/user_roles`, {
      token,
      body: { name: unique('Wide '), permissions: { Equipment: { Delete: true } } },
    });
    expectRefused(created);

    // The editor's own role: giving it User Modify would widen their own access.
    const [own] = await server.db.query<{ id: number; version: number }>(
      `select r.id, r.version from roles r join user_facility_roles ufr on ufr.role_id = r.id
        where ufr.user_id = $1`,
      [user.id],
    );
    const widened = await server.request<TRole>('POST', `${F}/user_roles/${own!.id}`, {
      token,
      body: {
        permissions: permissionsWith({ UserRole: ['Get', 'Add', 'Modify'], User: ['Modify'] }),
        reason: 'Need more',
        version: own!.version,
      },
    });
    expectRefused(widened);
    const rows = await refusals('UserRole', own!.id);
    expect(rows).toMatchObject([{ facility_id: A, new_values: { missing: ['User.Modify'] } }]);

    const narrow = await server.request<TRole>('POST', `${F}/user_roles`, {
      token,
      body: { name: unique('Narrow '), permissions: { UserRole: { Get: true } } },
    });
    expect(narrow.status).toBe(200);
  });
});

describe('no holder of User Modify takes over another account', () => {
  it('refuses every action on the system administrator to a non-system administrator, audited', async () => {
    const me = await facilityAdmin([A, B]);
    const id = sysadminId;
    const before = (await refusals('User', id)).length;
    const attempts = [
      await editUser(me.token, id, { firstName: 'Mallory' }),
      await editUser(me.token, id, { email: 'mallory@example.com' }),
      ...(await Promise.all(
        ['block', 'lock', 'unlock', 'enable'].map((path) =>
          server.request('PUT', `/api/v2/users/${id}/${path}`, {
            token: me.token,
            body: { reason: 'takeover' },
          }),
        ),
      )),
      await server.request('PUT', `/api/v2/users/${id}/archive`, {
        token: me.token,
        body: { reason: 'takeover' },
      }),
      await server.request('POST', `/api/v2/users/${id}/resend-invitation`, {
        token: me.token,
        body: { reason: 'takeover', generateKey: true },
      }),
      await server.request('POST', `/api/v2/users/${id}/resend-invitation`, {
        token: me.token,
        body: { reason: 'takeover', generateKey: false },
      }),
      await server.request('DELETE', `/api/v2/users/${id}/secret-key`, {
        token: me.token,
        body: { reason: 'takeover' },
      }),
      await server.request('DELETE', `/api/v2/users/${id}/tokens`, { token: me.token }),
    ];
    for (const res of attempts) expectRefused(res);
    const rows = await refusals('User', id);
    expect(rows.length - before).toBe(attempts.length);
    expect(rows.at(-1)).toMatchObject({
      user_id: me.id,
      new_values: { attempted: 'SessionsEnded', why: 'the account is a system administrator' },
    });
    const still = await getUser(id);
    expect(still).toMatchObject({ firstName: 'System', isBlocked: false, hasSecretKey: false });
    expect(await server.request('GET', '/api/v2/users/me', { token: sysadmin })).toMatchObject({
      status: 200,
    });
  });

  it('refuses acting on an account that holds a permission the actor lacks in that facility', async () => {
    const user = await buildUser(server.db, {
      facilityIds: [A, B],
      permissions: permissionsWith({ User: ['Get', 'Modify', 'Archive'] }),
      roleName: unique('User keeper '),
    });
    const token = await server.login(user.username, user.password);
    const stronger = await buildUser(server.db, {
      facilityIds: [B],
      permissions: permissionsWith({ Equipment: ['Delete'] }),
      roleName: unique('Equipment deleter '),
    });
    const res = await server.request('PUT', `/api/v2/users/${stronger.id}/block`, {
      token,
      body: { reason: 'r' },
    });
    expectRefused(res);
    expect(await refusals('User', stronger.id)).toMatchObject([
      { facility_id: B, new_values: { attempted: 'Block', missing: ['Equipment.Delete'] } },
    ]);

    const weaker = await buildUser(server.db, {
      facilityIds: [B],
      permissions: permissionsWith({ User: ['Get'] }),
      roleName: unique('User reader '),
    });
    const ok = await server.request('PUT', `/api/v2/users/${weaker.id}/block`, {
      token,
      body: { reason: 'Left the company' },
    });
    expect(ok.status).toBe(200);
  });

  it('issues a secret key only for a pending invitation, unless a system administrator asks', async () => {
    const me = await facilityAdmin([A, B]);
    const registered = await buildUser(server.db, { facilityIds: [], email: null });
    const key = (token: string, id: number) =>
      server.request<TUserWithKey>('POST', `/api/v2/users/${id}/resend-invitation`, {
        token,
        body: { reason: 'Forgot password', generateKey: true },
      });
    expectRefused(await key(me.token, registered.id));
    expect(await refusals('User', registered.id)).toMatchObject([
      { new_values: { attempted: 'SecretKeyIssued' } },
    ]);

    const pending = await server.request<TUserWithKey>('POST', '/api/v2/users', {
      token: me.token,
      body: { firstName: 'Pending', lastName: 'User', username: unique('PEN'), email: null },
    });
    expect(pending.status).toBe(200);
    const fresh = await key(me.token, pending.body.user.id);
    expect(fresh.status).toBe(200);
    expect(fresh.body.secretKey).toBeTruthy();

    const bySysadmin = await key(sysadmin, registered.id);
    expect(bySysadmin.status).toBe(200);
    expect(bySysadmin.body.secretKey).toBeTruthy();
  });

  it('refuses changing the e-mail of an account that has set its password', async () => {
    const me = await facilityAdmin([A, B]);
    const colleague = await buildUser(server.db, { facilityIds: [] });
    const res = await editUser(me.token, colleague.id, {
      email: unique('mallory') + '@example.com',
    });
    expectRefused(res);
    expect((await getUser(colleague.id)).email).toBe(colleague.email);
    const byHimself = await editUser(me.token, me.id, { email: unique('me') + '@example.com' });
    expect(byHimself.status).toBe(200);
  });
});
