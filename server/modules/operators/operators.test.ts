import { beforeAll, describe, expect, it } from 'vitest';
import { emptyPermissionMap } from '#core/permissions/permission-map.ts';
import type { TOperator } from '#core/schemas/operators.schemas.ts';
import { buildUser } from '#server/test/factories.ts';
import { facilityPath } from '#server/test/test-server.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let nobody: string;
let otherF: string;
let departmentId: number;

beforeAll(async () => {
  const plain = await buildUser(t.server.db);
  nobody = await t.server.login(plain.username, plain.password);
  otherF = await facilityPath(t.server, 1);
  const [dept] = await t.server.db.query<{ id: number }>('select id from departments limit 1');
  departmentId = dept!.id;
});

let sequence = 0;
const badge = () => `OP-${Date.now() % 100000}-${(sequence += 1)}`;

async function userWith(actions: string[]): Promise<string> {
  const permissions = emptyPermissionMap();
  for (const action of actions) permissions.User![action] = true;
  const user = await buildUser(t.server.db, { permissions, roleName: `Ops ${actions.join('+')}` });
  return t.server.login(user.username, user.password);
}

async function create(body: Record<string, unknown>, token = t.token, base = t.F) {
  return t.server.request<TOperator>('POST', `${base}/operator`, { token, body });
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
    expect((await t.server.request('GET', `${t.F}/operator`, { token: nobody })).status).toBe(403);
  });

  it('lists the facility operators only, with search and paging', async () => {
    const mine = await operator({ lastName: 'Findable' });
    await create(
      { firstName: 'Other', lastName: 'Findable', operatorId: badge() },
      t.token,
      otherF,
    );
    const res = await t.server.request<{ data: TOperator[]; total: number; pageLimit: number }>(
      'GET',
      `${t.F}/operator?search=findable`,
      { token: t.token },
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
    const res = await t.server.request('GET', `${t.F}/operator/name/${op.operatorId}`, {
      token: nobody,
    });
    expect(res.status).toBe(403);
  });

  it("answers an operator's name by Operator ID, case-insensitively; unknown gets 404", async () => {
    const op = await operator({ firstName: 'Badge', lastName: 'Holder' });
    const res = await t.server.request(
      'GET',
      `${t.F}/operator/name/${op.operatorId.toLowerCase()}`,
      {
        token: t.token,
      },
    );
    expect(res.body).toEqual({ id: op.id, operatorId: op.operatorId, name: 'Badge Holder' });
    const other = await t.server.request('GET', `${otherF}/operator/name/${op.operatorId}`, {
      token: t.token,
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
    const [audit] = await t.server.db.query<{ facility_id: number }>(
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
      t.token,
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
    const res = await t.server.request('POST', `${t.F}/operator/${op.id}`, {
      token,
      body: { firstName: 'X', reason: 'r', version: 1 },
    });
    expect(res.status).toBe(403);
  });

  it('edits with a reason and version; stale version 409; no change refused', async () => {
    const op = await operator();
    const path = `${t.F}/operator/${op.id}`;
    const res = await t.server.request<TOperator>('POST', path, {
      token: t.token,
      body: { departmentId: null, reason: 'Moved', version: 1 },
    });
    expect(res.body).toMatchObject({ department: null, version: 2 });
    const [audit] = await t.server.db.query(
      `select old_values, new_values from audit_log
        where domain = 'Operator' and action = 'Update' and entity_id = $1`,
      [String(op.id)],
    );
    expect(audit).toEqual({ old_values: { departmentId }, new_values: { departmentId: null } });
    const stale = await t.server.request('POST', path, {
      token: t.token,
      body: { firstName: 'Z', reason: 'r', version: 1 },
    });
    expect(stale.status).toBe(409);
    const same = await t.server.request('POST', path, {
      token: t.token,
      body: { firstName: op.firstName, reason: 'r', version: 2 },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
  });
});

describe('PUT {F}/operator/{id}', () => {
  it('refuses a user without User Archive', async () => {
    const op = await operator();
    const token = await userWith(['Get', 'Modify']);
    const res = await t.server.request('PUT', `${t.F}/operator/${op.id}`, {
      token,
      body: { archive: true, reason: 'r' },
    });
    expect(res.status).toBe(403);
  });

  it('archives and restores with a reason; an archived Operator ID gets ArchivedEntryError', async () => {
    const op = await operator();
    const path = `${t.F}/operator/${op.id}`;
    const archived = await t.server.request<TOperator>('PUT', path, {
      token: t.token,
      body: { archive: true, reason: 'Left' },
    });
    expect(archived.body.archiveReason).toBe('Left');
    const list = await t.server.request<{ data: TOperator[] }>(
      'GET',
      `${t.F}/operator?archived=true&search=${op.operatorId}`,
      { token: t.token },
    );
    expect(list.body.data.map((o) => o.id)).toEqual([op.id]);
    const again = await create({ firstName: 'A', lastName: 'B', operatorId: op.operatorId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ errName: 'ArchivedEntryError' });
    const noReason = await t.server.request('PUT', path, {
      token: t.token,
      body: { unArchive: true },
    });
    expect(noReason.status).toBe(422);
    const restored = await t.server.request<TOperator>('PUT', path, {
      token: t.token,
      body: { unArchive: true, reason: 'Back' },
    });
    expect(restored.body.archivedAt).toBeNull();
  });
});
