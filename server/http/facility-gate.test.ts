import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap } from '../test/factories.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { facilityPath } from '../test/test-server.ts';

const t = useFacilityTestServer();
// The seed: the first facility is product/full, the second api/lite.
let full: string;
let lite: string;
let liteId: number;

beforeAll(async () => {
  full = await facilityPath(t.server, 0);
  lite = await facilityPath(t.server, 1);
  liteId = Number(/facilities\/(\d+)$/.exec(lite)![1]);
});

async function lastRefusal() {
  const [row] = await t.server.db.query<{ domain: string; new_values: Record<string, unknown> }>(
    `select domain, new_values from audit_log where action = 'AccessRefused' order by id desc limit 1`,
  );
  return row;
}

describe('tier gating on the seeded lite facility', () => {
  it.each([
    ['GET', '/studies', 'Studies are not available on the lite tier'],
    ['POST', '/studies', 'Studies are not available on the lite tier'],
    ['GET', '/protocols', 'Protocols are not available on the lite tier'],
    ['POST', '/change-assessments', 'Change control is not available on the lite tier'],
    ['GET', '/moc', 'Change control is not available on the lite tier'],
    [
      'GET',
      '/verification/statistics',
      'Ongoing verification statistics are not available on the lite tier',
    ],
    [
      'GET',
      '/cleaning-assessments/from-last',
      'Cleaning assessments are not available on the lite tier',
    ],
    ['GET', '/report-info', 'Custom reports are not available on the lite tier'],
    ['GET', '/1/report-data/data', 'Custom reports are not available on the lite tier'],
  ])('refuses %s %s with 403 naming the tier, audited', async (method, path, message) => {
    const res = await t.call(method, `${lite}${path}`, method === 'GET' ? undefined : {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed', message });
    const refusal = await lastRefusal();
    expect(refusal).toMatchObject({ domain: 'Facility', new_values: { facility: liteId } });
  });

  it('keeps master data, limits and reports on the lite tier', async () => {
    for (const path of ['/products', '/equipments', '/mac-matrix', '/reports']) {
      const res = await t.call('GET', `${lite}${path}`);
      expect(res.status, path).toBe(200);
    }
  });

  it('answers the same calls on the full facility', async () => {
    for (const path of ['/studies', '/protocols', '/moc', '/verification/settings']) {
      const res = await t.call('GET', `${full}${path}`);
      expect(res.status, path).toBe(200);
    }
  });

  it('applies a tier change at once', async () => {
    const read = await t.call('GET', lite);
    const edit = (body: Record<string, unknown>, version: number) =>
      t.call('POST', lite, { ...body, reason: 'Licence upgraded', version });
    const upgraded = await edit({ tier: 'full' }, read.body.version);
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    expect((await t.call('GET', `${lite}/studies`)).status).toBe(200);
    const back = await edit({ tier: 'lite' }, upgraded.body.version);
    expect(back.status).toBe(200);
    expect((await t.call('GET', `${lite}/studies`)).status).toBe(403);
  });
});

describe('product-type gating', () => {
  it('keeps intermediates to api and intermediate facilities', async () => {
    const refused = await t.call('GET', `${full}/intermediates`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Intermediates are not available for product facilities');
    expect((await t.call('GET', `${lite}/intermediates`)).status).toBe(200);
  });
});

describe('a facility whose licence is grace-exceeded', () => {
  let operator: { username: string; password: string };
  let operatorToken: string;

  beforeAll(async () => {
    operator = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      roleName: 'Grace writer',
      permissions: fullPermissionMap(),
    });
    operatorToken = await t.server.login(operator.username, operator.password);
    const read = await t.call('GET', full);
    const set = await t.call('PUT', `${full}/license`, {
      state: 'grace-exceeded',
      workflow: 'renewal',
      reason: 'Renewal overdue',
      version: read.body.version,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  });

  it('refuses a change by anyone but a system administrator, naming the licence state', async () => {
    const res = await t.call('POST', `${full}/cleaning_agents`, { name: 'Agent X' }, operatorToken);
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
    expect(res.body.message).toContain('grace-exceeded');
    expect(await lastRefusal()).toMatchObject({
      domain: 'Facility',
      new_values: { attempted: 'Write', facility: t.facilityId },
    });
  });

  it('still answers reads, sign-in and logout', async () => {
    expect((await t.call('GET', `${full}/cleaning_agents`, undefined, operatorToken)).status).toBe(
      200,
    );
    const login = await t.server.request<{ token: string; licenseInfo: unknown[] }>(
      'POST',
      '/api/v2/auth/login',
      { body: { username: operator.username, password: operator.password } },
    );
    expect(login.status).toBe(200);
    expect(login.body.licenseInfo).toContainEqual({
      facilityId: t.facilityId,
      state: 'grace-exceeded',
      workflow: 'renewal',
    });
    const logout = await t.server.request('POST', '/api/v2/auth/logout', {
      token: login.body.token,
      body: {},
    });
    expect(logout.status).toBe(200);
  });

  it('lets a system administrator change data', async () => {
    const res = await t.call('POST', `${full}/cleaning_agents`, { name: 'Agent by admin' });
    expect(res.status, JSON.stringify(res.body)).not.toBe(403);
    expect(res.status).toBe(200);
  });

  it('leaves the other facility writable', async () => {
    const other = await buildUser(t.server.db, {
      roleName: 'Grace writer elsewhere',
      permissions: fullPermissionMap(),
    });
    const token = await t.server.login(other.username, other.password);
    const res = await t.call('POST', `${lite}/cleaning_agents`, { name: 'Agent Y' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
