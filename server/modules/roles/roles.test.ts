import { beforeAll, describe, expect, it } from 'vitest';
import {
  emptyPermissionMap,
  PERMISSION_RESOURCES,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import { roleTemplateNamed } from '#core/permissions/role-templates.ts';
import type { TMyPermissions, TRole } from '#core/schemas/roles.schemas.ts';
import { allFacilityIds, buildUser } from '#server/test/factories.ts';
import { facilityPath } from '#server/test/test-server.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let nobody: string;
let otherF: string;

beforeAll(async () => {
  const plain = await buildUser(t.server.db);
  nobody = await t.server.login(plain.username, plain.password);
  otherF = await facilityPath(t.server, 1);
});

let sequence = 0;
const roleName = () => `Role ${Date.now() % 100000}-${(sequence += 1)}`;

/** A user whose role in the first facility grants exactly these UserRole actions. */
async function userWith(actions: string[], facilityIds?: number[]): Promise<string> {
  const permissions: PermissionMap = emptyPermissionMap();
  for (const action of actions) permissions.UserRole![action] = true;
  const user = await buildUser(t.server.db, {
    permissions,
    roleName: `UserRole ${actions.join('+')}`,
    ...(facilityIds ? { facilityIds } : {}),
  });
  return t.server.login(user.username, user.password);
}

async function create(body: Record<string, unknown>) {
  return t.server.request<TRole>('POST', `${t.F}/user_roles`, { token: t.token, body });
}

describe('GET {F}/user_roles', () => {
  it('refuses a user without UserRole Get, and a facility not granted', async () => {
    const res = await t.server.request('GET', `${t.F}/user_roles`, { token: nobody });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    const [first] = await allFacilityIds(t.server.db);
    const onlyFirst = await userWith(['Get'], [first!]);
    expect(
      (await t.server.request('GET', `${otherF}/user_roles`, { token: onlyFirst })).status,
    ).toBe(403);
    expect((await t.server.request('GET', `${t.F}/user_roles`, { token: onlyFirst })).status).toBe(
      200,
    );
  });

  it("lists the facility's roles with full permission maps", async () => {
    const res = await t.server.request<TRole[]>('GET', `${t.F}/user_roles`, { token: t.token });
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
    const res = await t.server.request('POST', `${t.F}/user_roles`, {
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
    const [audit] = await t.server.db.query<{ facility_id: number }>(
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
    const res = await t.server.request('POST', `${t.F}/user_roles/${role.id}`, {
      token,
      body: { name: 'x', reason: 'r', version: role.version },
    });
    expect(res.status).toBe(403);
  });

  it('edits permissions with a reason; the audit lists each changed action; a stale version gets 409', async () => {
    const role = (await create({ name: roleName() })).body;
    const res = await t.server.request<TRole>('POST', `${t.F}/user_roles/${role.id}`, {
      token: t.token,
      body: {
        permissions: { ...role.permissions, Product: { ...role.permissions.Product, Get: true } },
        reason: 'QA reads products',
        version: role.version,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.permissions.Product!.Get).toBe(true);
    const [audit] = await t.server.db.query<{
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
    const stale = await t.server.request('POST', `${t.F}/user_roles/${role.id}`, {
      token: t.token,
      body: { name: 'Other', reason: 'r', version: role.version },
    });
    expect(stale.status).toBe(409);
    const same = await t.server.request('POST', `${t.F}/user_roles/${role.id}`, {
      token: t.token,
      body: { name: role.name, reason: 'r', version: res.body.version },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
  });

  it('a role of another facility is not found through this facility', async () => {
    const res = await t.server.request<TRole>('POST', `${otherF}/user_roles`, {
      token: t.token,
      body: { name: roleName() },
    });
    const cross = await t.server.request('POST', `${t.F}/user_roles/${res.body.id}`, {
      token: t.token,
      body: { name: 'x', reason: 'r', version: 1 },
    });
    expect(cross.status).toBe(404);
  });
});

describe('PUT {F}/user_roles/{id}/archive and unArchive', () => {
  it('refuses a user without UserRole Delete', async () => {
    const role = (await create({ name: roleName() })).body;
    const token = await userWith(['Get', 'Modify']);
    const res = await t.server.request('PUT', `${t.F}/user_roles/${role.id}/archive`, {
      token,
      body: { reason: 'r' },
    });
    expect(res.status).toBe(403);
    const restore = await t.server.request('POST', `${t.F}/user_roles/${role.id}`, {
      token,
      body: { unArchive: true, reason: 'r' },
    });
    expect(restore.status).toBe(403);
  });

  it('archives a role nobody holds and restores it; refuses one that is held', async () => {
    const role = (await create({ name: roleName() })).body;
    const archived = await t.server.request<TRole>('PUT', `${t.F}/user_roles/${role.id}/archive`, {
      token: t.token,
      body: { reason: 'Obsolete' },
    });
    expect(archived.body.archiveReason).toBe('Obsolete');
    const list = await t.server.request<TRole[]>('GET', `${t.F}/user_roles?archived=true`, {
      token: t.token,
    });
    expect(list.body.map((r) => r.id)).toContain(role.id);
    const restored = await t.server.request<TRole>('POST', `${t.F}/user_roles/${role.id}`, {
      token: t.token,
      body: { unArchive: true, reason: 'Needed again' },
    });
    expect(restored.body.archivedAt).toBeNull();

    const roles = await t.server.request<TRole[]>('GET', `${t.F}/user_roles`, { token: t.token });
    const held = roles.body.find((r) => r.name === 'Administrator')!;
    const refused = await t.server.request('PUT', `${t.F}/user_roles/${held.id}/archive`, {
      token: t.token,
      body: { reason: 'r' },
    });
    expect(refused.status).toBe(422);
  });
});

describe('GET {F}/UAM/access and {F}/UAM/permissions', () => {
  it('refuses a facility not granted, and answers access per the roles', async () => {
    const [first] = await allFacilityIds(t.server.db);
    const onlyFirst = await userWith([], [first!]);
    expect(
      (await t.server.request('GET', `${otherF}/UAM/access`, { token: onlyFirst })).status,
    ).toBe(403);
    expect((await t.server.request('GET', `${t.F}/UAM/access`, { token: onlyFirst })).body).toEqual(
      {
        access: false,
      },
    );
    expect((await t.server.request('GET', `${t.F}/UAM/access`, { token: t.token })).body).toEqual({
      access: true,
    });
    const getter = await userWith(['Get']);
    expect((await t.server.request('GET', `${t.F}/UAM/access`, { token: getter })).body).toEqual({
      access: true,
    });
  });

  it("gives the user's maps in the facility and across the plan, and whether they are restricted", async () => {
    const [first] = await allFacilityIds(t.server.db);
    const user = await buildUser(t.server.db, { facilityIds: [first!], roleName: 'Production' });
    const token = await t.server.login(user.username, user.password);
    const res = await t.server.request<TMyPermissions>('GET', `${t.F}/UAM/permissions`, { token });
    expect(res.status).toBe(200);
    expect(res.body.isRestricted).toBe(true);
    // The shipped Production template: runs and what they need to read, no administration.
    expect(res.body.facility).toEqual(roleTemplateNamed('Production')!.permissions());
    const mine = await t.server.request<TMyPermissions>('GET', `${t.F}/UAM/permissions`, {
      token: t.token,
    });
    expect(mine.body).toMatchObject({ isRestricted: false, plan: { User: { Get: true } } });
  });
});
