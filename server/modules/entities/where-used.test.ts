import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { facilityPath } from '#server/test/test-server.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
const ids: Record<string, number> = {};
let otherF: string;

beforeAll(async () => {
  const create = recordCreator(t.server, t.token, t.F);
  otherF = await facilityPath(t.server, 1);
  ids.alpha = await create('apis', { name: 'Alpha', pde: { value: 0.1, unit: 'mg' } });
  ids.unused = await create('apis', { name: 'Unused' });
  const dose = {
    maxDailyDose: { value: 200, unit: 'mg' },
    minBatchSize: { value: 50, unit: 'kg' },
  };
  const withAlpha = { actives: [{ activeId: ids.alpha, amount: { value: 10, unit: 'mg' } }] };
  ids.tabA = await create('products', { name: 'Tab A', ...dose, ...withAlpha });
  ids.syrupB = await create('products', { name: 'Syrup B', ...dose, ...withAlpha });
  ids.gone = await create('products', { name: 'Gone C', ...dose, ...withAlpha });
  ids.mixer = await create('equipments', { name: 'Mixer', surfaceArea: { value: 2, unit: 'sqm' } });
  ids.line = await create('productions', {
    name: 'Line 1',
    equipmentIds: [ids.mixer],
    productIds: [ids.tabA],
  });
  ids.group = await create('equipment_groups', { name: 'Mixers', equipmentIds: [ids.mixer] });
  ids.agent = await create('cleaning_agents', { name: 'Alkaline detergent' });
  await create('cleaning-procedure', { name: 'CIP 1', cleaningAgentIds: [ids.agent] });
  ids.method = await create('analytical-method', { name: 'TOC swab', testType: 'TOC' });
  const L = `${t.F}/equipments/${ids.mixer}/sampling-locations`;
  const location = await t.call('POST', L, { data: { name: 'Outlet', sampleType: 'swab' } });
  const sample = await t.call('POST', `${L}/${location.body.result[0].id}/samples`, {
    name: 'S-1',
    sampleType: 'swab',
    analyticalMethodId: ids.method,
  });
  expect(sample.status).toBe(200);
  const archived = await t.call('PUT', `${t.F}/products/${ids.gone}/archive`, {
    reason: 'Discontinued',
  });
  expect(archived.status).toBe(200);
});

const whereUsed = (path: string, id: number, as?: string, F = t.F) =>
  t.call('GET', `${F}/${path}/${id}/where-used`, undefined, as);

describe('where a record is used', () => {
  it('is refused without the permission to read the record, and in a facility not granted', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const refused = await whereUsed('apis', ids.alpha!, as);
    expect(refused.status).toBe(403);
    expect(refused.body.errName).toBe('NotAllowed');

    const [first] = await t.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const single = await buildUser(t.server.db, { facilityIds: [first!.id] });
    const singleToken = await t.server.login(single.username, single.password);
    const elsewhere = await whereUsed('apis', ids.alpha!, singleToken, otherF);
    expect(elsewhere.status).toBe(403);
  });

  it('answers NotFoundError for an id of another facility or one that does not exist', async () => {
    const other = await whereUsed('apis', ids.alpha!, undefined, otherF);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ errName: 'NotFoundError' });
    expect(JSON.stringify(other.body)).not.toContain('Tab A');
    expect((await whereUsed('apis', 999999)).status).toBe(404);
    const bad = await whereUsed('apis', 0);
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
  });

  it('lists the live products an active is in, leaving out archived ones', async () => {
    const res = await whereUsed('apis', ids.alpha!);
    expect(res.status).toBe(200);
    expect(res.body.usedBy).toEqual([
      {
        entity: 'products',
        label: 'Products',
        field: 'Actives: Active',
        records: [
          { id: ids.syrupB, name: 'Syrup B' },
          { id: ids.tabA, name: 'Tab A' },
        ],
        total: 2,
      },
    ]);
    expect((await whereUsed('apis', ids.unused!)).body.usedBy).toEqual([]);
  });

  it('lists the productions of equipment and of a product, and the equipment’s groups', async () => {
    const equipment = await whereUsed('equipments', ids.mixer!);
    const byKind = Object.fromEntries(
      equipment.body.usedBy.map((g: Body) => [g.entity, g.records.map((r: Body) => r.name)]),
    );
    expect(byKind).toMatchObject({ productions: ['Line 1'], equipmentGroups: ['Mixers'] });
    const product = await whereUsed('products', ids.tabA!);
    expect(product.body.usedBy).toEqual([
      expect.objectContaining({
        entity: 'productions',
        field: 'Products',
        records: [{ id: ids.line, name: 'Line 1' }],
      }),
    ]);
    expect((await whereUsed('productions', ids.line!)).body.usedBy).toEqual([]);
  });

  it('lists the procedures of a cleaning agent and the samples of an analytical method', async () => {
    const agent = await whereUsed('cleaning_agents', ids.agent!);
    expect(agent.body.usedBy).toEqual([
      expect.objectContaining({
        entity: 'cleaningProcedures',
        records: [expect.objectContaining({ name: 'CIP 1' })],
      }),
    ]);
    const method = await whereUsed('analytical-method', ids.method!);
    expect(method.body.usedBy).toEqual([
      expect.objectContaining({
        entity: 'samples',
        records: [expect.objectContaining({ name: 'S-1', equipmentId: ids.mixer })],
      }),
    ]);
  });

  it('leaves out the kinds the caller may not read', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'], Production: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const res = await whereUsed('equipments', ids.mixer!, as);
    expect(res.status).toBe(200);
    expect(res.body.usedBy.map((g: Body) => g.entity)).toEqual(['productions']);
  });
});
