import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPermissionMap } from '#core/permissions/permission-map.ts';
import type { TDepartment } from '#core/schemas/departments.schemas.ts';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
let admin: string;
let nobody: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  const plain = await buildUser(server.db);
  nobody = await server.login(plain.username, plain.password);
});
afterAll(async () => {
  await server?.close();
});

let sequence = 0;
const departmentName = () => `Dept ${Date.now() % 100000}-${(sequence += 1)}`;

async function userWith(actions: string[]): Promise<string> {
  const permissions = emptyPermissionMap();
  for (const action of actions) permissions.Department![action] = true;
  const user = await buildUser(server.db, { permissions, roleName: `Dept ${actions.join('+')}` });
  return server.login(user.username, user.password);
}

async function create(name: string, token = admin) {
  return server.request<TDepartment>('POST', '/api/v2/departments', { token, body: { name } });
}

describe('GET /api/v2/departments', () => {
  it('refuses a user without Department Get', async () => {
    expect((await server.request('GET', '/api/v2/departments', { token: nobody })).status).toBe(
      403,
    );
  });

  it('pages and searches departments', async () => {
    await create('Searchable Packaging');
    const res = await server.request<{ data: TDepartment[]; total: number }>(
      'GET',
      '/api/v2/departments?search=searchable',
      { token: admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject([{ name: 'Searchable Packaging', userCount: 0 }]);
    const all = await server.request<{ data: TDepartment[] }>('GET', '/api/v2/departments', {
      token: admin,
    });
    expect(all.body.data.map((d) => d.name)).toContain('Quality Assurance');
  });
});

describe('POST /api/v2/departments', () => {
  it('refuses a user without Department Add', async () => {
    const token = await userWith(['Get', 'Modify']);
    expect((await create(departmentName(), token)).status).toBe(403);
  });

  it('creates a department, audited, and refuses a duplicate name or an empty one', async () => {
    const name = departmentName();
    const res = await create(name);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, version: 1 });
    const dup = await create(name.toLowerCase());
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'name' }],
    });
    const empty = await create(' ');
    expect(empty.status).toBe(422);
    const [audit] = await server.db.query(
      `select 1 from audit_log where domain = 'Department' and action = 'Create' and entity_id = $1`,
      [String(res.body.id)],
    );
    expect(audit).toBeDefined();
  });
});

describe('POST /api/v2/departments/{id}', () => {
  it('refuses a user without Department Modify', async () => {
    const dept = (await create(departmentName())).body;
    const token = await userWith(['Get', 'Add']);
    const res = await server.request('POST', `/api/v2/departments/${dept.id}`, {
      token,
      body: { name: 'x', reason: 'r', version: 1 },
    });
    expect(res.status).toBe(403);
  });

  it('renames with a reason and the version; stale versions, no reason and no change are refused', async () => {
    const dept = (await create(departmentName())).body;
    const path = `/api/v2/departments/${dept.id}`;
    const renamed = await server.request<TDepartment>('POST', path, {
      token: admin,
      body: { name: `${dept.name} Renamed`, reason: 'Reorganisation', version: 1 },
    });
    expect(renamed.body).toMatchObject({ name: `${dept.name} Renamed`, version: 2 });
    const [audit] = await server.db.query(
      `select reason, old_values, new_values from audit_log
        where domain = 'Department' and action = 'Update' and entity_id = $1`,
      [String(dept.id)],
    );
    expect(audit).toEqual({
      reason: 'Reorganisation',
      old_values: { name: dept.name },
      new_values: { name: `${dept.name} Renamed` },
    });
    const stale = await server.request('POST', path, {
      token: admin,
      body: { name: 'Other', reason: 'r', version: 1 },
    });
    expect(stale.status).toBe(409);
    const noReason = await server.request('POST', path, {
      token: admin,
      body: { name: 'Other', version: 2 },
    });
    expect(noReason.status).toBe(422);
    const same = await server.request('POST', path, {
      token: admin,
      body: { name: `${dept.name} Renamed`, reason: 'r', version: 2 },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
    const missing = await server.request('POST', '/api/v2/departments/999999', {
      token: admin,
      body: { name: 'x', reason: 'r', version: 1 },
    });
    expect(missing.status).toBe(404);
  });
});
