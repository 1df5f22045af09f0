import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
let admin: string;
let plan: number;
let facility: number;
let other: number;
let F: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  const rows = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id',
  );
  plan = rows[0]!.plan_id;
  facility = rows[0]!.id;
  other = rows[1]!.id;
  F = `/api/v2/plans/${plan}/facilities/${facility}`;
});
afterAll(async () => {
  await server?.close();
});

async function tokenWith(allowed: Record<string, string[]>, facilityIds?: number[]) {
  const user = await buildUser(server.db, {
    permissions: permissionsWith(allowed),
    ...(facilityIds ? { facilityIds } : {}),
  });
  return server.login(user.username, user.password);
}

const SETTINGS = {
  timezone: 'Asia/Kolkata',
  dateFormat: 'DD-MMM-YYYY',
  timeFormat: 'hh:mm:ss',
  country: 'IN',
};

describe('GET {F}/date-time-settings', () => {
  it('refuses a user who is not granted the facility (403 NotAllowed)', async () => {
    const token = await tokenWith({ Facility: ['Get', 'Modify'] }, [other]);
    const res = await server.request('GET', `${F}/date-time-settings`, { token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('answers the defaults of spec §9 to any user of the facility', async () => {
    const res = await server.request('GET', `${F}/date-time-settings`, {
      token: await tokenWith({}),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dateTimeSettings: {
        timezone: 'UTC',
        dateFormat: 'DD MMM, YYYY',
        timeFormat: 'HH:mm',
        country: null,
        significantDigits: 4,
        version: expect.any(Number),
      },
    });
  });

  it('refuses a facility of another plan path (403)', async () => {
    const res = await server.request(
      'GET',
      `/api/v2/plans/${plan + 1}/facilities/${facility}/date-time-settings`,
      { token: admin },
    );
    expect(res.status).toBe(403);
  });
});

async function versionNow(): Promise<number> {
  const res = await server.request<{ dateTimeSettings: { version: number } }>(
    'GET',
    `${F}/date-time-settings`,
    { token: admin },
  );
  return res.body.dateTimeSettings.version;
}

describe('POST {F}/date-time-settings', () => {
  it('refuses a user without Facility Modify (403 NotAllowed)', async () => {
    const res = await server.request('POST', `${F}/date-time-settings`, {
      token: await tokenWith({ Facility: ['Get'] }),
      body: { dateTimeSettings: SETTINGS, version: await versionNow(), reason: 'Site in India' },
    });
    expect(res.status).toBe(403);
  });

  it.each([
    ['timezone', { timezone: 'Mars/Olympus' }],
    ['timezone', { timezone: '+05:30' }],
    ['dateFormat', { dateFormat: 'YYYY-MM-DD' }],
    ['timeFormat', { timeFormat: 'H:m' }],
  ])('refuses an invalid %s with a message on the field', async (field, change) => {
    const res = await server.request<{ errors: { property: string }[] }>(
      'POST',
      `${F}/date-time-settings`,
      {
        token: admin,
        body: { dateTimeSettings: { ...SETTINGS, ...change }, version: 1, reason: 'x' },
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e) => e.property)).toEqual([`dateTimeSettings.${field}`]);
  });

  it('refuses a change without a reason (422)', async () => {
    const res = await server.request('POST', `${F}/date-time-settings`, {
      token: admin,
      body: { dateTimeSettings: SETTINGS, version: await versionNow() },
    });
    expect(res.status).toBe(422);
  });

  it('changes the settings of this facility only and audits old and new values', async () => {
    const version = await versionNow();
    const res = await server.request('POST', `${F}/date-time-settings`, {
      token: await tokenWith({ Facility: ['Modify'] }),
      body: { dateTimeSettings: SETTINGS, version, reason: 'Site in India' },
    });
    expect(res.status).toBe(200);
    // Left out of the edit, the facility's significant digits stay as they were.
    const saved = { ...SETTINGS, significantDigits: 4, version: version + 1 };
    expect(res.body).toEqual({ dateTimeSettings: saved });
    const again = await server.request('GET', `${F}/date-time-settings`, { token: admin });
    expect(again.body).toEqual({ dateTimeSettings: saved });
    const untouched = await server.request(
      'GET',
      `/api/v2/plans/${plan}/facilities/${other}/date-time-settings`,
      { token: admin },
    );
    expect(untouched.body).toMatchObject({ dateTimeSettings: { timezone: 'UTC' } });
    const [audit] = await server.db.query<Record<string, unknown>>(
      `select facility_id, reason, old_values, new_values from audit_log
        where domain = 'DateTimeSettings' order by id desc limit 1`,
    );
    expect(audit).toEqual({
      facility_id: facility,
      reason: 'Site in India',
      old_values: {
        timezone: 'UTC',
        dateFormat: 'DD MMM, YYYY',
        timeFormat: 'HH:mm',
        country: null,
      },
      new_values: SETTINGS,
    });
    const same = await server.request('POST', `${F}/date-time-settings`, {
      token: admin,
      body: { dateTimeSettings: SETTINGS, version: version + 1, reason: 'Again' },
    });
    expect(same.body).toMatchObject({ errName: 'NothingToChangeError' });
  });

  it.each([1, 9, 4.5])(
    'refuses %s significant digits on the field and changes nothing',
    async (significantDigits) => {
      const version = await versionNow();
      const res = await server.request<{ errors: { property: string }[] }>(
        'POST',
        `${F}/date-time-settings`,
        {
          token: admin,
          body: {
            dateTimeSettings: { ...SETTINGS, significantDigits },
            version,
            reason: 'Digits',
          },
        },
      );
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e) => e.property)).toEqual([
        'dateTimeSettings.significantDigits',
      ]);
      expect(await versionNow()).toBe(version);
    },
  );

  it('sets the significant digits numbers show with, audited with the old and new value', async () => {
    const version = await versionNow();
    const res = await server.request('POST', `${F}/date-time-settings`, {
      token: await tokenWith({ Facility: ['Modify'] }),
      body: {
        dateTimeSettings: { ...SETTINGS, significantDigits: 6 },
        version,
        reason: 'Limits checked to six digits',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dateTimeSettings: { significantDigits: 6 } });
    const [audit] = await server.db.query<Record<string, unknown>>(
      `select reason, old_values, new_values from audit_log
        where domain = 'DateTimeSettings' order by id desc limit 1`,
    );
    expect(audit).toEqual({
      reason: 'Limits checked to six digits',
      old_values: { significantDigits: 4 },
      new_values: { significantDigits: 6 },
    });
    // Back to the default, so the tests after this one read the facility as it was.
    const back = await server.request('POST', `${F}/date-time-settings`, {
      token: admin,
      body: {
        dateTimeSettings: { ...SETTINGS, significantDigits: 4 },
        version: version + 1,
        reason: 'Back to four',
      },
    });
    expect(back.status).toBe(200);
  });
});

describe('GET {F}/default_units', () => {
  it('refuses a user without DefaultUnit Get (403 NotAllowed)', async () => {
    const res = await server.request('GET', `${F}/default_units`, {
      token: await tokenWith({ Facility: ['Get'] }),
    });
    expect(res.status).toBe(403);
  });

  it('lists the defaults of spec §3 with the units each measure allows', async () => {
    const res = await server.request<{ shortName: string; unit: string; allowedUnits: string[] }[]>(
      'GET',
      `${F}/default_units`,
      { token: await tokenWith({ DefaultUnit: ['Get'] }) },
    );
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.map((d) => [d.shortName, d.unit]))).toEqual({
      surfaceArea: 'sqcm',
      minBatchSize: 'kg',
      l5: 'ppm',
      l3: 'mg/sqcm',
      l4: 'mg',
      pde: 'mg',
      td: 'mg',
      strength: 'mg',
      ld50: 'mg/kg',
      volume: 'ml',
      ldd: 'mg',
      minDailyDose: 'mg',
      tabletWeight: 'mg',
      ai: 'ng',
    });
    expect(res.body.find((d) => d.shortName === 'surfaceArea')?.allowedUnits).toEqual([
      'sqcm',
      'sqin',
      'sqm',
    ]);
  });

  it('gives a facility created later its defaults too', async () => {
    const [created] = await server.db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       select plan_id, facility_group_id, 'New Site', 'product', 'full' from facilities
        order by id limit 1 returning id`,
    );
    const [count] = await server.db.query<{ n: number }>(
      'select count(*)::int as n from default_units where facility_id = $1',
      [created!.id],
    );
    expect(count?.n).toBe(14);
  });
});

describe('POST {F}/default_units/{id}', () => {
  async function unitId(shortName: string, facilityId = facility): Promise<number> {
    const [row] = await server.db.query<{ id: number }>(
      'select id from default_units where facility_id = $1 and short_name = $2',
      [facilityId, shortName],
    );
    return row!.id;
  }

  it('refuses a user without DefaultUnit Modify (403 NotAllowed)', async () => {
    const res = await server.request('POST', `${F}/default_units/${await unitId('volume')}`, {
      token: await tokenWith({ DefaultUnit: ['Get'] }),
      body: { unit: 'L', reason: 'Large vessels' },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a unit the measure does not allow, with the allowed ones on the field', async () => {
    const res = await server.request<{ errName: string; errors: { property: string }[] }>(
      'POST',
      `${F}/default_units/${await unitId('volume')}`,
      { token: admin, body: { unit: 'kg', reason: 'Wrong kind' } },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { property: 'unit', constraints: { allowedUnit: 'Allowed units are ml, L' } },
    ]);
  });

  it('refuses a missing reason (422) and an id of another facility (404)', async () => {
    const noReason = await server.request('POST', `${F}/default_units/${await unitId('volume')}`, {
      token: admin,
      body: { unit: 'L' },
    });
    expect(noReason.status).toBe(422);
    const elsewhere = await server.request(
      'POST',
      `${F}/default_units/${await unitId('volume', other)}`,
      { token: admin, body: { unit: 'L', reason: 'x' } },
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ errName: 'NotFoundError' });
  });

  it('changes one default unit and audits it', async () => {
    const id = await unitId('surfaceArea');
    const res = await server.request('POST', `${F}/default_units/${id}`, {
      token: await tokenWith({ DefaultUnit: ['Modify'] }),
      body: { unit: 'sqin', reason: 'US drawings' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, shortName: 'surfaceArea', unit: 'sqin' });
    const [audit] = await server.db.query<Record<string, unknown>>(
      `select facility_id, reason, old_values, new_values from audit_log
        where domain = 'DefaultUnit' order by id desc limit 1`,
    );
    expect(audit).toEqual({
      facility_id: facility,
      reason: 'US drawings',
      old_values: { unit: 'sqcm' },
      new_values: { unit: 'sqin' },
    });
  });
});

describe('two parallel edits of the date-time settings', () => {
  it('keep the first: the second, made from the same version, gets 409 and changes nothing', async () => {
    const version = await versionNow();
    const edit = (timezone: string) =>
      server.request('POST', `${F}/date-time-settings`, {
        token: admin,
        body: { dateTimeSettings: { ...SETTINGS, timezone }, version, reason: 'Parallel edit' },
      });
    const answers = await Promise.all([edit('Europe/Dublin'), edit('America/Chicago')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({ errName: 'VersionConflictError' });
    const kept = answers.find((a) => a.status === 200)!.body as {
      dateTimeSettings: { timezone: string };
    };
    const now = await server.request('GET', `${F}/date-time-settings`, { token: admin });
    expect(now.body).toEqual({
      dateTimeSettings: {
        ...SETTINGS,
        significantDigits: 4,
        timezone: kept.dateTimeSettings.timezone,
        version: version + 1,
      },
    });
    const [audits] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log
        where domain = 'DateTimeSettings' and reason = 'Parallel edit'`,
    );
    expect(audits!.n).toBe(1);
  });
});
