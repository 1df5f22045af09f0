import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPermissionMap } from '../../../core/permissions/permission-map.ts';
import type { TOperator } from '../../../core/schemas/operators.schemas.ts';
import { allFacilityIds, buildUser } from '../../test/factories.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let admin: string;
let nobody: string;
let F: string;
let otherF: string;
let departmentId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  const plain = await buildUser(server.db);
  nobody = await server.login(plain.username, plain.password);
  const [first, second] = await allFacilityIds(server.db);
  const [plan] = await server.db.query<{ id: number }>('select id from plans limit 1');
  F = `/api/v2/plans/${plan!.id}/facilities/${first}`;
  otherF = `/api/v2/plans/${plan!.id}/facilities/${second}`;
  const [dept] = await server.db.query<{ id: number }>('select id from departments limit 1');
  departmentId = dept!.id;
});
afterAll(async () => {
  await server?.close();
});

let sequence = 0;
const badge = () => `OP-${Date.now() % 100000}-${(sequence += 1)}`;

async function userWith(actions: string[]): Promise<string> {
  const permissions = emptyPermissionMap();
  for (const action of actions) permissions.User![action] = true;
  const user = await buildUser(server.db, { permissions, roleName: `Ops ${actions.join('+')}` });
  return server.login(user.username, user.password);
}

async function create(body: Record<string, unknown>, token = admin, base = F) {
  return server.request<TOperator>('POST', `${base}/operator`, { token, body });
}

async function operator(overrides: Record<string, unknown> = {}): Promise<TOperator> {
  const res = await create({
    firstName: 'Olga',
    lastName: 'Operator',
    operatorId: badge(),
    departmentId,
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('GET {F}/operator', () => {
  it('refuses a user without User Get', async () => {
    expect((await server.request('GET', `${F}/operator`, { token: nobody })).status).toBe(403);
  });

  it('lists the facility operators only, with search and paging', async () => {
    const mine = await operator({ lastName: 'Findable' });
    await create({ firstName: 'Other', lastName: 'Findable', operatorId: badge() }, admin, otherF);
    const res = await server.request<{ data: TOperator[]; total: number; pageLimit: number }>(
      'GET',
      `${F}/operator?search=findable`,
      { token: admin },
    );
    expect(res.body).toMatchObject({ total: 1, pageLimit: 10 });
    expect(res.body.data[0]).toMatchObject({
      id: mine.id,
      operatorId: mine.operatorId,
      department: { id: departmentId, name: 'Quality Assurance' },
    });
  });
});

describe('GET {F}/operator/name/{id}', () => {
  it('refuses a user without User Get', async () => {
    const op = await operator();
    const res = await server.request('GET', `${F}/operator/name/${op.operatorId}`, {
      token: nobody,
    });
    expect(res.status).toBe(403);
  });

  it("answers an operator's name by Operator ID, case-insensitively; unknown gets 404", async () => {
    const op = await operator({ firstName: 'Badge', lastName: 'Holder' });
    const res = await server.request('GET', `${F}/operator/name/${op.operatorId.toLowerCase()}`, {
      token: admin,
    });
    expect(res.body).toEqual({ id: op.id, operatorId: op.operatorId, name: 'Badge Holder' });
    const other = await server.request('GET', `${otherF}/operator/name/${op.operatorId}`, {
      token: admin,
    });
    expect(other.status).toBe(404);
  });
});

describe('POST {F}/operator', () => {
  it('refuses a user without User Add', async () => {
    const token = await userWith(['Get', 'Modify']);
    const res = await create({ firstName: 'A', lastName: 'B', operatorId: badge() }, token);
    expect(res.status).toBe(403);
  });

  it('creates, audited in the facility; a duplicate Operator ID gets 409 naming operatorId', async () => {
    const op = await operator();
    const [audit] = await server.db.query<{ facility_id: number }>(
      `select facility_id from audit_log where domain = 'Operator' and action = 'Create'
        and entity_id = $1`,
      [String(op.id)],
    );
    expect(audit).toBeDefined();
    const dup = await create({ firstName: 'A', lastName: 'B', operatorId: op.operatorId });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ errors: [{ property: 'operatorId' }] });
    const sameIdElsewhere = await create(
      { firstName: 'A', lastName: 'B', operatorId: op.operatorId },
      admin,
      otherF,
    );
    expect(sameIdElsewhere.status).toBe(200);
    const missing = await create({ firstName: 'A', operatorId: badge() });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: [{ property: 'lastName' }] });
    const badDept = await create({
      firstName: 'A',
      lastName: 'B',
      operatorId: badge(),
      departmentId: 999999,
    });
    expect(badDept.status).toBe(422);
  });
});

describe('POST {F}/operator/{id}', () => {
  it('refuses a user without User Modify', async () => {
    const op = await operator();
    const token = await userWith(['Get', 'Add']);
    const res = await server.request('POST', `${F}/operator/${op.id}`, {
      token,
      body: { firstName: 'X', reason: 'r', version: 1 },
    });
    expect(res.status).toBe(403);
  });

  it('edits with a reason and version; stale version 409; no change refused', async () => {
    const op = await operator();
    const path = `${F}/operator/${op.id}`;
    const res = await server.request<TOperator>('POST', path, {
      token: admin,
      body: { departmentId: null, reason: 'Moved', version: 1 },
    });
    expect(res.body).toMatchObject({ department: null, version: 2 });
    const [audit] = await server.db.query(
      `select old_values, new_values from audit_log
        where domain = 'Operator' and action = 'Update' and entity_id = $1`,
      [String(op.id)],
    );
    expect(audit).toEqual({ old_values: { departmentId }, new_values: { departmentId: null } });
    const stale = await server.request('POST', path, {
      token: admin,
      body: { firstName: 'Z', reason: 'r', version: 1 },
    });
    expect(stale.status).toBe(409);
    const same = await server.request('POST', path, {
      token: admin,
      body: { firstName: op.firstName, reason: 'r', version: 2 },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
  });
});

describe('PUT {F}/operator/{id}', () => {
  it('refuses a user without User Archive', async () => {
    const op = await operator();
    const token = await userWith(['Get', 'Modify']);
    const res = await server.request('PUT', `${F}/operator/${op.id}`, {
      token,
      body: { archive: true, reason: 'r' },
    });
    expect(res.status).toBe(403);
  });

  it('archives and restores with a reason; an archived Operator ID gets ArchivedEntryError', async () => {
    const op = await operator();
    const path = `${F}/operator/${op.id}`;
    const archived = await server.request<TOperator>('PUT', path, {
      token: admin,
      body: { archive: true, reason: 'Left' },
    });
    expect(archived.body.archiveReason).toBe('Left');
    const list = await server.request<{ data: TOperator[] }>(
      'GET',
      `${F}/operator?archived=true&search=${op.operatorId}`,
      { token: admin },
    );
    expect(list.body.data.map((o) => o.id)).toEqual([op.id]);
    const again = await create({ firstName: 'A', lastName: 'B', operatorId: op.operatorId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ errName: 'ArchivedEntryError' });
    const noReason = await server.request('PUT', path, { token: admin, body: { unArchive: true } });
    expect(noReason.status).toBe(422);
    const restored = await server.request<TOperator>('PUT', path, {
      token: admin,
      body: { unArchive: true, reason: 'Back' },
    });
    expect(restored.body.archivedAt).toBeNull();
  });
});
