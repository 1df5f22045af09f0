import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptyPermissionMap,
  PERMISSION_RESOURCES,
  type PermissionMap,
} from '../../../core/permissions/permission-map.ts';
import type { TMyPermissions, TRole } from '../../../core/schemas/roles.schemas.ts';
import { allFacilityIds, buildUser } from '../../test/factories.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let admin: string;
let nobody: string;
let F: string;
let otherF: string;
let planId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  const plain = await buildUser(server.db);
  nobody = await server.login(plain.username, plain.password);
  const [first, second] = await allFacilityIds(server.db);
  const [plan] = await server.db.query<{ id: number }>('select id from plans limit 1');
  planId = plan!.id;
  F = `/api/v2/plans/${planId}/facilities/${first}`;
  otherF = `/api/v2/plans/${planId}/facilities/${second}`;
});
afterAll(async () => {
  await server?.close();
});

let sequence = 0;
const roleName = () => `Role ${Date.now() % 100000}-${(sequence += 1)}`;

/** A user whose role in the first facility grants exactly these UserRole actions. */
async function userWith(actions: string[], facilityIds?: number[]): Promise<string> {
  const permissions: PermissionMap = emptyPermissionMap();
  for (const action of actions) permissions.UserRole![action] = true;
  const user = await buildUser(server.db, {
    permissions,
    roleName: `UserRole ${actions.join('+')}`,
    ...(facilityIds ? { facilityIds } : {}),
  });
  return server.login(user.username, user.password);
}

async function create(body: Record<string, unknown>) {
  return server.request<TRole>('POST', `${F}/user_roles`, { token: admin, body });
}

describe('GET {F}/user_roles', () => {
  it('refuses a user without UserRole Get, and a facility not granted', async () => {
    const res = await server.request('GET', `${F}/user_roles`, { token: nobody });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    const [first] = await allFacilityIds(server.db);
    const onlyFirst = await userWith(['Get'], [first!]);
    expect((await server.request('GET', `${otherF}/user_roles`, { token: onlyFirst })).status).toBe(
      403,
    );
    expect((await server.request('GET', `${F}/user_roles`, { token: onlyFirst })).status).toBe(200);
  });

  it("lists the facility's roles with full permission maps", async () => {
    const res = await server.request<TRole[]>('GET', `${F}/user_roles`, { token: admin });
    expect(res.status).toBe(200);
    const administrator = res.body.find((r) => r.name === 'Administrator');
    expect(administrator?.permissions.User).toEqual({
      Add: true,
      Archive: true,
      Modify: true,
      Get: true,
    });
    expect(Object.keys(administrator!.permissions).sort()).toEqual(
      Object.keys(PERMISSION_RESOURCES).sort(),
    );
  });
});

describe('POST {F}/user_roles', () => {
  it('refuses a user without UserRole Add', async () => {
    const token = await userWith(['Get', 'Modify']);
    const res = await server.request('POST', `${F}/user_roles`, {
      token,
      body: { name: roleName() },
    });
    expect(res.status).toBe(403);
  });

  it('creates a role with every action false unless granted, audited', async () => {
    const name = roleName();
    const res = await create({ name, permissions: { Equipment: { Get: true } } });
    expect(res.status).toBe(200);
    expect(res.body.permissions.Equipment).toMatchObject({ Get: true, Add: false });
    expect(res.body.permissions.User).toEqual({
      Add: false,
      Archive: false,
      Modify: false,
      Get: false,
    });
    const [audit] = await server.db.query<{ facility_id: number }>(
      `select facility_id from audit_log where domain = 'UserRole' and action = 'Create'
        and entity_id = $1`,
      [String(res.body.id)],
    );
    expect(audit?.facility_id).toBe(res.body.facilityId);
  });

  it('refuses unknown resources and actions, and a duplicate name', async () => {
    const unknown = await create({ name: roleName(), permissions: { Spaceship: { Fly: true } } });
    expect(unknown.status).toBe(422);
    const badAction = await create({ name: roleName(), permissions: { User: { Delete: true } } });
    expect(badAction.status).toBe(422);
    const name = roleName();
    await create({ name });
    const dup = await create({ name: name.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'name' }],
    });
  });
});

describe('POST {F}/user_roles/{id}', () => {
  it('refuses a user without UserRole Modify', async () => {
    const role = (await create({ name: roleName() })).body;
    const token = await userWith(['Get', 'Add']);
    const res = await server.request('POST', `${F}/user_roles/${role.id}`, {
      token,
      body: { name: 'x', reason: 'r', version: role.version },
    });
    expect(res.status).toBe(403);
  });

  it('edits permissions with a reason; the audit lists each changed action; a stale version gets 409', async () => {
    const role = (await create({ name: roleName() })).body;
    const res = await server.request<TRole>('POST', `${F}/user_roles/${role.id}`, {
      token: admin,
      body: {
        permissions: { ...role.permissions, Product: { ...role.permissions.Product, Get: true } },
        reason: 'QA reads products',
        version: role.version,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.permissions.Product!.Get).toBe(true);
    const [audit] = await server.db.query<{
      old_values: unknown;
      new_values: unknown;
      reason: string;
    }>(
      `select old_values, new_values, reason from audit_log
        where domain = 'UserRole' and action = 'Update' and entity_id = $1`,
      [String(role.id)],
    );
    expect(audit).toEqual({
      old_values: { permissions: { 'Product.Get': false } },
      new_values: { permissions: { 'Product.Get': true } },
      reason: 'QA reads products',
    });
    const stale = await server.request('POST', `${F}/user_roles/${role.id}`, {
      token: admin,
      body: { name: 'Other', reason: 'r', version: role.version },
    });
    expect(stale.status).toBe(409);
    const same = await server.request('POST', `${F}/user_roles/${role.id}`, {
      token: admin,
      body: { name: role.name, reason: 'r', version: res.body.version },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
  });

  it('a role of another facility is not found through this facility', async () => {
    const res = await server.request<TRole>('POST', `${otherF}/user_roles`, {
      token: admin,
      body: { name: roleName() },
    });
    const cross = await server.request('POST', `${F}/user_roles/${res.body.id}`, {
      token: admin,
      body: { name: 'x', reason: 'r', version: 1 },
    });
    expect(cross.status).toBe(404);
  });
});

describe('PUT {F}/user_roles/{id}/archive and unArchive', () => {
  it('refuses a user without UserRole Delete', async () => {
    const role = (await create({ name: roleName() })).body;
    const token = await userWith(['Get', 'Modify']);
    const res = await server.request('PUT', `${F}/user_roles/${role.id}/archive`, {
      token,
      body: { reason: 'r' },
    });
    expect(res.status).toBe(403);
    const restore = await server.request('POST', `${F}/user_roles/${role.id}`, {
      token,
      body: { unArchive: true, reason: 'r' },
    });
    expect(restore.status).toBe(403);
  });

  it('archives a role nobody holds and restores it; refuses one that is held', async () => {
    const role = (await create({ name: roleName() })).body;
    const archived = await server.request<TRole>('PUT', `${F}/user_roles/${role.id}/archive`, {
      token: admin,
      body: { reason: 'Obsolete' },
    });
    expect(archived.body.archiveReason).toBe('Obsolete');
    const list = await server.request<TRole[]>('GET', `${F}/user_roles?archived=true`, {
      token: admin,
    });
    expect(list.body.map((r) => r.id)).toContain(role.id);
    const restored = await server.request<TRole>('POST', `${F}/user_roles/${role.id}`, {
      token: admin,
      body: { unArchive: true, reason: 'Needed again' },
    });
    expect(restored.body.archivedAt).toBeNull();

    const roles = await server.request<TRole[]>('GET', `${F}/user_roles`, { token: admin });
    const held = roles.body.find((r) => r.name === 'Administrator')!;
    const refused = await server.request('PUT', `${F}/user_roles/${held.id}/archive`, {
      token: admin,
      body: { reason: 'r' },
    });
    expect(refused.status).toBe(422);
  });
});

describe('GET {F}/UAM/access and {F}/UAM/permissions', () => {
  it('refuses a facility not granted, and answers access per the roles', async () => {
    const [first] = await allFacilityIds(server.db);
    const onlyFirst = await userWith([], [first!]);
    expect((await server.request('GET', `${otherF}/UAM/access`, { token: onlyFirst })).status).toBe(
      403,
    );
    expect((await server.request('GET', `${F}/UAM/access`, { token: onlyFirst })).body).toEqual({
      access: false,
    });
    expect((await server.request('GET', `${F}/UAM/access`, { token: admin })).body).toEqual({
      access: true,
    });
    const getter = await userWith(['Get']);
    expect((await server.request('GET', `${F}/UAM/access`, { token: getter })).body).toEqual({
      access: true,
    });
  });

  it("gives the user's maps in the facility and across the plan, and whether they are restricted", async () => {
    const [first] = await allFacilityIds(server.db);
    const user = await buildUser(server.db, { facilityIds: [first!], roleName: 'Production' });
    const token = await server.login(user.username, user.password);
    const res = await server.request<TMyPermissions>('GET', `${F}/UAM/permissions`, { token });
    expect(res.status).toBe(200);
    expect(res.body.isRestricted).toBe(true);
    expect(res.body.facility.User!.Get).toBe(false);
    const mine = await server.request<TMyPermissions>('GET', `${F}/UAM/permissions`, {
      token: admin,
    });
    expect(mine.body).toMatchObject({ isRestricted: false, plan: { User: { Get: true } } });
  });
});
