import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let plan: string;
/** A user holding every permission of the spec's map, but no system administrator. */
let manager: string;
let managerId: number;
let nobody: string;
/** Signs in again after each licence change: only its own session ends. */
let watcher: { username: string; password: string };

beforeAll(async () => {
  plan = `/api/v2/plans/${t.planId}`;
  const made = await buildUser(t.server.db, {
    roleName: 'Facility manager',
    permissions: fullPermissionMap(),
  });
  managerId = made.id;
  manager = await t.server.login(made.username, made.password);
  const plain = await buildUser(t.server.db, { roleName: 'Nothing' });
  nobody = await t.server.login(plain.username, plain.password);
  watcher = await buildUser(t.server.db, { roleName: 'Watcher' });
});

async function lastAudit(action: string) {
  const [row] = await t.server.db.query<{
    domain: string;
    reason: string | null;
    old_values: TestBody | null;
    new_values: TestBody | null;
    user_id: number | null;
  }>(
    `select domain, reason, old_values, new_values, user_id from audit_log
      where action = $1 order by id desc limit 1`,
    [action],
  );
  return row!;
}

const properties = (res: { body: TestBody }) =>
  ((res.body.errors ?? []) as Array<{ property: string }>).map((e) => e.property);

describe('PUT …/facilities/{facility}/license', () => {
  const license = async (body: TestBody, as?: string) => {
    const read = await t.call('GET', t.F);
    return t.call('PUT', `${t.F}/license`, { version: read.body.version, ...body }, as);
  };

  it('refuses anyone but a system administrator, audited', async () => {
    const res = await license({ state: 'grace', workflow: 'renewal', reason: 'x' }, manager);
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
    const row = await lastAudit('AccessRefused');
    expect(row).toMatchObject({
      domain: 'Facility',
      user_id: managerId,
      new_values: { attempted: 'License', facility: t.facilityId },
    });
  });

  it.each([
    ['genuine', 'intimate', 'renewal'],
    ['intimate', 'grace', 'renewal'],
    ['grace', 'grace-exceeded', 'renewal'],
    ['grace-exceeded', 'genuine', 'none'],
    ['genuine', 'grace', 'audit'],
    ['grace', 'intimate', 'renewal'],
    ['intimate', 'genuine', 'none'],
  ])('moves %s → %s with a reason, audited', async (from, to, workflow) => {
    const before = await t.call('GET', t.F);
    expect(before.body.licenseState).toBe(from);
    const res = await license({ state: to, workflow, reason: `To ${to}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ licenseState: to, licenseWorkflow: workflow });
    expect(res.body.version).toBe(before.body.version + 1);
    const row = await lastAudit('LicenseChange');
    expect(row).toMatchObject({
      domain: 'Facility',
      reason: `To ${to}`,
      old_values: { state: from, workflow: before.body.licenseWorkflow },
      new_values: { state: to, workflow },
    });
    const login = await t.server.request<{ licenseInfo: TestBody[] }>(
      'POST',
      '/api/v2/auth/login',
      { body: { username: watcher.username, password: watcher.password } },
    );
    const listed = login.body.licenseInfo.find((info) => info.facilityId === t.facilityId);
    expect(listed).toEqual(
      to === 'genuine' ? undefined : { facilityId: t.facilityId, state: to, workflow },
    );
  });

  it('refuses what is not a licence change', async () => {
    const bad = await license({ state: 'expired', workflow: 'x', reason: 'r' });
    expect(bad.status).toBe(422);
    expect(properties(bad)).toContain('state');
    const noWorkflow = await license({ state: 'grace', reason: 'r' });
    expect(noWorkflow.status).toBe(422);
    expect(properties(noWorkflow)).toContain('workflow');
    const genuineWithWorkflow = await license({
      state: 'genuine',
      workflow: 'renewal',
      reason: 'r',
    });
    expect(properties(genuineWithWorkflow)).toContain('workflow');
    const noReason = await license({ state: 'grace', workflow: 'renewal' });
    expect(noReason.status).toBe(422);
    expect(properties(noReason)).toContain('reason');
    const same = await license({ state: 'genuine', workflow: 'none', reason: 'again' });
    expect(same.status).toBe(400);
    expect(same.body.errName).toBe('NothingToChangeError');
  });

  it('refuses a stale version with 409 and an unknown facility with 404', async () => {
    const read = await t.call('GET', t.F);
    const stale = await t.call('PUT', `${t.F}/license`, {
      state: 'grace',
      workflow: 'renewal',
      reason: 'r',
      version: read.body.version - 1,
    });
    expect(stale.status).toBe(409);
    const unknown = await t.call('PUT', `${plan}/facilities/999999/license`, {
      state: 'grace',
      workflow: 'renewal',
      reason: 'r',
      version: 1,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('facility groups', () => {
  it('lists, creates and renames a group, audited', async () => {
    const made = await t.call('POST', `${plan}/facility-groups`, { name: 'North Campus' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await lastAudit('Create')).domain).toBe('FacilityGroup');
    const list = await t.call('GET', `${plan}/facility-groups?pageLimit=100`);
    expect(list.body.data.map((g: TestBody) => g.name)).toEqual(['Main Site', 'North Campus']);
    const renamed = await t.call('POST', `${plan}/facility-groups/${made.body.id}`, {
      name: 'North Site',
      reason: 'Renamed by the site',
      version: made.body.version,
    });
    expect(renamed.status).toBe(200);
    expect(await lastAudit('Update')).toMatchObject({
      domain: 'FacilityGroup',
      reason: 'Renamed by the site',
      old_values: { name: 'North Campus' },
      new_values: { name: 'North Site' },
    });
    const stale = await t.call('POST', `${plan}/facility-groups/${made.body.id}`, {
      name: 'Again',
      reason: 'r',
      version: made.body.version,
    });
    expect(stale.status).toBe(409);
  });

  it('validates names and refuses duplicates', async () => {
    const empty = await t.call('POST', `${plan}/facility-groups`, { name: '' });
    expect(empty.status).toBe(422);
    expect(properties(empty)).toEqual(['name']);
    const duplicate = await t.call('POST', `${plan}/facility-groups`, { name: 'main site' });
    expect(duplicate.status).toBe(409);
  });

  it('leaves writes to a system administrator and reads to Facility Get', async () => {
    const res = await t.call('POST', `${plan}/facility-groups`, { name: 'Mine' }, manager);
    expect(res.status).toBe(403);
    expect(await lastAudit('AccessRefused')).toMatchObject({
      domain: 'FacilityGroup',
      new_values: { attempted: 'Add' },
    });
    expect((await t.call('GET', `${plan}/facility-groups`, undefined, manager)).status).toBe(200);
    expect((await t.call('GET', `${plan}/facility-groups`, undefined, nobody)).status).toBe(403);
  });
});

describe('facilities', () => {
  let groupId: number;
  beforeAll(async () => {
    const list = await t.call('GET', `${plan}/facility-groups`);
    groupId = list.body.data[0].id;
  });

  it('creates a facility granted to its creator, audited', async () => {
    const res = await t.call(
      'POST',
      `${plan}/facilities`,
      { name: 'Sterile Plant', productType: 'product', tier: 'lite', facilityGroupId: groupId },
      manager,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Sterile Plant',
      tier: 'lite',
      facilityGroupName: 'Main Site',
      licenseState: 'genuine',
      version: 1,
    });
    expect(await lastAudit('Create')).toMatchObject({ domain: 'UserRole' });
    const mine = await t.call('GET', `${plan}/facilities`, undefined, manager);
    expect(mine.body.facilities.map((f: TestBody) => f.name)).toContain('Sterile Plant');
    const created = await t.call(
      'GET',
      `${plan}/facilities/${res.body.id}/products`,
      undefined,
      manager,
    );
    expect(created.status).toBe(200);
    expect(
      (await t.call('GET', `${plan}/facilities/${res.body.id}/studies`, undefined, manager)).body
        .message,
    ).toBe('Studies are not available on the lite tier');
  });

  it('validates each field', async () => {
    const res = await t.call('POST', `${plan}/facilities`, {
      name: '',
      productType: 'tablet',
      tier: 'gold',
      facilityGroupId: 999999,
    });
    expect(res.status).toBe(422);
    expect(properties(res).sort()).toEqual(['name', 'productType', 'tier']);
    const unknownGroup = await t.call('POST', `${plan}/facilities`, {
      name: 'Nowhere',
      productType: 'api',
      tier: 'full',
      facilityGroupId: 999999,
    });
    expect(unknownGroup.status).toBe(422);
    expect(properties(unknownGroup)).toEqual(['facilityGroupId']);
    const duplicate = await t.call('POST', `${plan}/facilities`, {
      name: 'api plant',
      productType: 'api',
      tier: 'full',
      facilityGroupId: groupId,
    });
    expect(duplicate.status).toBe(409);
  });

  it('edits with a reason and the version, audited; a stale version gets 409', async () => {
    const read = await t.call('GET', t.F);
    const res = await t.call('POST', t.F, {
      productType: 'intermediate',
      reason: 'Site now makes intermediates',
      version: read.body.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.productType).toBe('intermediate');
    expect(await lastAudit('Update')).toMatchObject({
      domain: 'Facility',
      reason: 'Site now makes intermediates',
      old_values: { productType: 'product' },
      new_values: { productType: 'intermediate' },
    });
    const stale = await t.call('POST', t.F, {
      productType: 'product',
      reason: 'Back',
      version: read.body.version,
    });
    expect(stale.status).toBe(409);
    const noReason = await t.call('POST', t.F, {
      productType: 'product',
      version: res.body.version,
    });
    expect(properties(noReason)).toContain('reason');
    const back = await t.call('POST', t.F, {
      productType: 'product',
      reason: 'Back',
      version: res.body.version,
    });
    expect(back.status).toBe(200);
  });

  it('refuses without the Facility permission, audited', async () => {
    const read = await t.call('GET', t.F);
    const edit = await t.call(
      'POST',
      t.F,
      { name: 'x', reason: 'r', version: read.body.version },
      nobody,
    );
    expect(edit.status).toBe(403);
    expect(await lastAudit('AccessRefused')).toMatchObject({
      domain: 'Facility',
      new_values: { attempted: 'Modify' },
    });
    const create = await t.call(
      'POST',
      `${plan}/facilities`,
      { name: 'x', productType: 'api', tier: 'full', facilityGroupId: groupId },
      nobody,
    );
    expect(create.status).toBe(403);
    expect((await t.call('GET', `${plan}/facilities/all`, undefined, nobody)).status).toBe(403);
  });

  it('lists every facility to a system administrator and the granted ones to others', async () => {
    const getOnly = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      roleName: 'Facility reader',
      permissions: permissionsWith({ Facility: ['Get'] }),
    });
    const reader = await t.server.login(getOnly.username, getOnly.password);
    const theirs = await t.call('GET', `${plan}/facilities/all?pageLimit=100`, undefined, reader);
    expect(theirs.body.data.map((f: TestBody) => f.id)).toEqual([t.facilityId]);
    const all = await t.call('GET', `${plan}/facilities/all?pageLimit=100`);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
  });
});
