import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

async function equipment(name: string, roomGrade?: string): Promise<number> {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name,
    surfaceArea: { value: 2, unit: 'sqm' },
    ...(roomGrade ? { roomGrade } : {}),
  });
  expect(res.status).toBe(200);
  return res.body.result.id;
}
const names = (res: { body: Body }) => res.body.data.map((e: Body) => e.name);

describe('equipment groups mapping', () => {
  it('is refused without the EquipmentGroup permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ EquipmentGroup: ['Get', 'Modify'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const group = await t.call('POST', `${t.F}/equipment_groups`, { name: 'Refused group' });
    const id = group.body.result.id;
    expect((await t.call('GET', `${t.F}/equipment_groups/${id}/map`, undefined, as)).status).toBe(
      200,
    );
    // Mapping needs EquipmentGroup Set (spec §6), not Modify.
    const refused = await t.call(
      'POST',
      `${t.F}/equipment_groups/${id}/map`,
      { equipmentIds: [], version: 1, reason: 'x' },
      as,
    );
    expect(refused.status).toBe(403);
    const stranger = await buildUser(t.server.db);
    const other = await t.server.login(stranger.username, stranger.password);
    expect(
      (await t.call('GET', `${t.F}/equipment_groups/${id}/equipments`, undefined, other)).status,
    ).toBe(403);
    expect((await t.call('GET', `${t.F}/equipments/no-group`, undefined, other)).status).toBe(403);
  });

  it('maps equipment with a reason and a version, lists it, and refuses unknown items by position', async () => {
    const a = await equipment('Granulator A', 'C');
    const b = await equipment('Granulator B', 'C');
    const c = await equipment('Dryer C');
    const group = await t.call('POST', `${t.F}/equipment_groups`, { name: 'Granulators' });
    const id = group.body.result.id;
    expect((await t.call('GET', `${t.F}/equipment_groups/${id}/map`)).body).toEqual({
      groupId: id,
      equipmentIds: [],
      version: 1,
    });
    const noReason = await t.call('POST', `${t.F}/equipment_groups/${id}/map`, {
      equipmentIds: [a],
      version: 1,
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');
    const unknown = await t.call('POST', `${t.F}/equipment_groups/${id}/map`, {
      equipmentIds: [a, 999999],
      version: 1,
      reason: 'Equivalent design',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].property).toBe('equipmentIds');
    const mapped = await t.call('POST', `${t.F}/equipment_groups/${id}/map`, {
      equipmentIds: [a, b],
      version: 1,
      reason: 'Equivalent design',
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body).toEqual({ groupId: id, equipmentIds: [a, b], version: 2 });
    const [audit] = await t.server.db.query<Body>(
      `select reason, old_values, new_values from audit_log where domain = 'EquipmentGroup' and action = 'Update' and entity_id = $1`,
      [String(id)],
    );
    expect(audit).toEqual({
      reason: 'Equivalent design',
      old_values: { equipmentIds: [] },
      new_values: { equipmentIds: [a, b] },
    });
    const stale = await t.call('POST', `${t.F}/equipment_groups/${id}/map`, {
      equipmentIds: [a],
      version: 1,
      reason: 'x',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const same = await t.call('POST', `${t.F}/equipment_groups/${id}/map`, {
      equipmentIds: [a, b],
      version: 2,
      reason: 'x',
    });
    expect(same.body.errName).toBe('NothingToChangeError');

    const members = await t.call(
      'GET',
      `${t.F}/equipment_groups/${id}/equipments?sortBy=name&sortOrder=desc`,
    );
    expect(members.body).toMatchObject({ total: 2, pageNumber: 1, pageLimit: 10 });
    expect(names(members)).toEqual(['Granulator B', 'Granulator A']);
    const page2 = await t.call(
      'GET',
      `${t.F}/equipment_groups/${id}/equipments?pageLimit=1&pageNumber=3`,
    );
    expect(page2.body).toMatchObject({ total: 2, data: [] });
    expect((await t.call('GET', `${t.F}/equipment_groups/424242/equipments`)).status).toBe(404);

    const noGroup = await t.call('GET', `${t.F}/equipments/no-group?search=granulator`);
    expect(noGroup.body.total).toBe(0);
    expect(names(await t.call('GET', `${t.F}/equipments/no-group?search=dryer`))).toEqual([
      'Dryer C',
    ]);
    expect(names(await t.call('GET', `${t.F}/equipments/no-grade?search=dryer`))).toEqual([
      'Dryer C',
    ]);
    expect((await t.call('GET', `${t.F}/equipments/no-grade?search=granulator`)).body.total).toBe(
      0,
    );
    // No item has a sampling location yet.
    expect((await t.call('GET', `${t.F}/equipments/no-cpn?search=r`)).body.total).toBe(3);
    // Archiving the group puts its items back among the ungrouped.
    await t.call('PUT', `${t.F}/equipment_groups/${id}/archive`, { reason: 'Split' });
    expect((await t.call('GET', `${t.F}/equipments/no-group?search=granulator`)).body.total).toBe(
      2,
    );
    void c;
  });
});

describe('productions mapping', () => {
  it('is refused without Production Set', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Production: ['Get', 'Modify'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const production = await t.call('POST', `${t.F}/productions`, { name: 'Refused line' });
    const id = production.body.result.id;
    const refused = await t.call(
      'POST',
      `${t.F}/productions/${id}/map`,
      { equipmentIds: [], version: 1, reason: 'x' },
      as,
    );
    expect(refused.status).toBe(403);
    expect((await t.call('GET', `${t.F}/production-dropdown/no-group`, undefined, as)).status).toBe(
      200,
    );
  });

  it('maps equipment and products with a reason, and lists productions with ungrouped equipment', async () => {
    const press = await equipment('Press P1');
    const coater = await equipment('Coater P2');
    const product = await t.call('POST', `${t.F}/products`, {
      name: 'Tablet P',
      maxDailyDose: { value: 100, unit: 'mg' },
      minBatchSize: { value: 50, unit: 'kg' },
    });
    const line = await t.call('POST', `${t.F}/productions`, { name: 'Line P' });
    const id = line.body.result.id;
    const bad = await t.call('POST', `${t.F}/productions/${id}/map`, {
      equipmentIds: ['x'],
      version: 1,
      reason: 'x',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('equipmentIds[0]');
    const mapped = await t.call('POST', `${t.F}/productions/${id}/map`, {
      equipmentIds: [press, coater],
      productIds: [product.body.result.id],
      version: 1,
      reason: 'Line qualified',
    });
    expect(mapped.body).toEqual({
      productionId: id,
      equipmentIds: [press, coater],
      productIds: [product.body.result.id],
      version: 2,
    });
    const onlyEquipment = await t.call('POST', `${t.F}/productions/${id}/map`, {
      equipmentIds: [press],
      version: 2,
      reason: 'Coater moved',
    });
    expect(onlyEquipment.body.productIds).toEqual([product.body.result.id]);
    expect((await t.call('GET', `${t.F}/productions/${id}/map`)).body.equipmentIds).toEqual([
      press,
    ]);
    expect(
      (
        await t.call('POST', `${t.F}/productions/${id}/map`, {
          equipmentIds: [coater],
          version: 2,
          reason: 'x',
        })
      ).status,
    ).toBe(409);

    const dropdown = await t.call('GET', `${t.F}/production-dropdown/no-group`);
    expect(dropdown.body.data).toContainEqual({
      id,
      name: 'Line P',
      externalId: null,
      ungroupedEquipmentIds: [press],
    });
    await t.call('POST', `${t.F}/equipment_groups`, { name: 'Presses', equipmentIds: [press] });
    const after = await t.call('GET', `${t.F}/production-dropdown/no-group`);
    expect(after.body.data.map((p: Body) => p.id)).not.toContain(id);
  });
});
