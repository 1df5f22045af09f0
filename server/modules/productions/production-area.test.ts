import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

async function equipment(name: string, value: number, unit: string): Promise<number> {
  const res = await t.call('POST', `${t.F}/equipments`, { name, surfaceArea: { value, unit } });
  expect(res.status).toBe(200);
  return res.body.result.id;
}

async function production(name: string, equipmentIds: number[], externalId?: string) {
  const res = await t.call('POST', `${t.F}/productions`, {
    name,
    equipmentIds,
    ...(externalId ? { externalId } : {}),
  });
  expect(res.status).toBe(200);
  return res.body.result.id as number;
}

describe('production surface area', () => {
  it('is refused without Production Get, and 404 for an unknown production', async () => {
    const id = await production('Refused line', []);
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect(
      (await t.call('GET', `${t.F}/productions/${id}/surface-area`, undefined, as)).status,
    ).toBe(403);
    expect((await t.call('GET', `${t.F}/productions/surface-areas`, undefined, as)).status).toBe(
      403,
    );
    const missing = await t.call('GET', `${t.F}/productions/999999/surface-area`);
    expect(missing.status).toBe(404);
    expect(missing.body.errName).toBe('NotFoundError');
    const bad = await t.call('GET', `${t.F}/productions/abc/surface-area`);
    expect(bad.status).toBe(422);
  });

  it('sums sqcm, sqin and sqm exactly into the default unit with a breakdown', async () => {
    const mixer = await equipment('Area mixer', 120, 'sqcm');
    const granulator = await equipment('Area granulator', 10, 'sqin');
    const dryer = await equipment('Area dryer', 1.5, 'sqm');
    const id = await production('Area line', [mixer, granulator, dryer]);
    const res = await t.call('GET', `${t.F}/productions/${id}/surface-area`);
    expect(res.status).toBe(200);
    // 120 + 10 × 6.4516 + 1.5 × 10000 = 15184.516 sqcm, with no floating-point residue.
    expect(res.body).toMatchObject({
      productionId: id,
      name: 'Area line',
      unit: 'sqcm',
      total: { value: 15184.516, unit: 'sqcm' },
      isComplete: true,
      missing: [],
    });
    expect(res.body.equipment).toEqual([
      expect.objectContaining({
        equipmentId: mixer,
        surfaceArea: { value: 120, unit: 'sqcm' },
        converted: { value: 120, unit: 'sqcm' },
        status: 'counted',
      }),
      expect.objectContaining({
        name: 'Area granulator',
        surfaceArea: { value: 10, unit: 'sqin' },
        converted: { value: 64.516, unit: 'sqcm' },
      }),
      expect.objectContaining({ converted: { value: 15000, unit: 'sqcm' } }),
    ]);
    expect(res.body.derivation).toContain('= 15184.516 sqcm');

    const list = await t.call('GET', `${t.F}/productions/surface-areas`);
    expect(list.status).toBe(200);
    expect(list.body.unit).toBe('sqcm');
    expect(list.body.data).toContainEqual({
      productionId: id,
      total: { value: 15184.516, unit: 'sqcm' },
      isComplete: true,
      missingCount: 0,
    });
  });

  it('follows the facility default unit (sqm)', async () => {
    const a = await equipment('Unit tank', 2500, 'sqcm');
    const b = await equipment('Unit pipe', 0.25, 'sqm');
    const id = await production('Unit line', [a, b]);
    const [unit] = await t.server.db.query<{ id: number }>(
      `select id from default_units where facility_id = $1 and short_name = 'surfaceArea'`,
      [t.facilityId],
    );
    const set = await t.call('POST', `${t.F}/default_units/${unit!.id}`, {
      unit: 'sqm',
      reason: 'Report in square metres',
    });
    expect(set.status).toBe(200);
    try {
      const res = await t.call('GET', `${t.F}/productions/${id}/surface-area`);
      expect(res.body.total).toEqual({ value: 0.5, unit: 'sqm' });
      expect(res.body.equipment[0].converted).toEqual({ value: 0.25, unit: 'sqm' });
    } finally {
      await t.call('POST', `${t.F}/default_units/${unit!.id}`, { unit: 'sqcm', reason: 'Back' });
    }
  });

  it('lists equipment without an area as missing and marks the total incomplete', async () => {
    const a = await equipment('Gap hopper', 300, 'sqcm');
    const b = await equipment('Gap sieve', 50, 'sqcm');
    const c = await equipment('Gap old press', 80, 'sqcm');
    // An area lost by a legacy import: the column holds a JSON null.
    await t.server.db.query(`update equipment set surface_area = 'null'::jsonb where id = $1`, [b]);
    const id = await production('Gap line', [a, b, c]);
    const archived = await t.call('PUT', `${t.F}/equipments/${c}/archive`, {
      reason: 'Retired',
      confirmImpact: true,
    });
    expect(archived.status).toBe(200);
    const res = await t.call('GET', `${t.F}/productions/${id}/surface-area`);
    expect(res.body).toMatchObject({
      total: { value: 300, unit: 'sqcm' },
      isComplete: false,
      missing: ['Gap sieve'],
    });
    expect(res.body.equipment.map((e: Body) => e.status)).toEqual([
      'counted',
      'missing',
      'archived',
    ]);
    expect(res.body.derivation).toContain('Incomplete: no surface area for Gap sieve');

    const empty = await production('Empty line', []);
    const none = await t.call('GET', `${t.F}/productions/${empty}/surface-area`);
    expect(none.body).toMatchObject({ total: { value: 0 }, isComplete: false, equipment: [] });
    expect(none.body.derivation).toContain('No equipment is mapped');
  });

  it('names an equipment row that no longer exists in words, not by its number', async () => {
    const a = await equipment('Gone hopper', 300, 'sqcm');
    const id = await production('Gone line', [a]);
    // Legacy data: the production still lists an equipment row that was removed.
    await t.server.db.query(
      `update productions set equipment_ids = equipment_ids || 999999 where id = $1`,
      [id],
    );
    const res = await t.call('GET', `${t.F}/productions/${id}/surface-area`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isComplete: false, missing: ['a deleted equipment item'] });
    expect(res.body.derivation).toContain('a deleted equipment item');
    expect(res.body.derivation).not.toContain('#');
  });
});

describe('productions list search', () => {
  it('honours nameOrExternalId as well as search', async () => {
    await production('Search Alpha line', [], 'EXT-ALPHA-7');
    await production('Search Beta line', [], 'EXT-BETA-8');
    const byExternal = await t.call('GET', `${t.F}/productions?nameOrExternalId=alpha-7`);
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.data.map((p: Body) => p.name)).toEqual(['Search Alpha line']);
    const byName = await t.call(
      'GET',
      `${t.F}/productions?nameOrExternalId=beta%20line&pageLimit=5`,
    );
    expect(byName.body).toMatchObject({ total: 1, pageLimit: 5 });
    const bySearch = await t.call('GET', `${t.F}/productions?search=Search%20Beta`);
    expect(bySearch.body.data.map((p: Body) => p.name)).toEqual(['Search Beta line']);
    const tooLong = await t.call('GET', `${t.F}/productions?nameOrExternalId=${'x'.repeat(201)}`);
    expect(tooLong.status).toBe(422);
  });
});
