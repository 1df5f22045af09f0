import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let activeId: number;
let productId: number;
let equipmentId: number;
beforeAll(async () => {
  const active = await t.call('POST', `${t.F}/apis`, { name: 'Paracetamol' });
  activeId = active.body.result.id;
  const product = await t.call('POST', `${t.F}/products`, {
    name: 'Fever tablets',
    maxDailyDose: { value: 4, unit: 'g' },
    minBatchSize: { value: 100, unit: 'kg' },
  });
  productId = product.body.result.id;
  const edit = await t.call('POST', `${t.F}/products/${productId}`, {
    minBatchSize: { value: 120, unit: 'kg' },
    actives: [{ activeId, amount: { value: 500, unit: 'mg' } }],
    version: 1,
    reason: 'Larger batches from March',
  });
  expect(edit.status).toBe(200);
  const equipment = await t.call('POST', `${t.F}/equipments`, {
    name: 'Blender H1',
    surfaceArea: { value: 4, unit: 'sqm' },
  });
  equipmentId = equipment.body.result.id;
  const location = await t.call('POST', `${t.F}/equipments/${equipmentId}/sampling-locations`, {
    data: { name: 'Lid gasket', sampleType: 'swab' },
    equipmentId,
    reason: 'Initial mapping',
  });
  expect(location.status).toBe(200);
});

const history = (path: string, as?: string) =>
  t.call('GET', `${t.F}/${path}/history`, undefined, as);

describe('a record’s history', () => {
  it('is refused without the permission to read the record', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    const res = await history(`products/${productId}`, as);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
    expect((await history(`equipments/${equipmentId}`, as)).status).toBe(200);
  });

  it('lists the record’s own rows, newest first, with the names its values point to', async () => {
    const reader = await buildUser(t.server.db, {
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const as = await t.server.login(reader.username, reader.password);
    const res = await history(`products/${productId}`, as);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.data.map((row: Body) => row.action)).toEqual(['Update', 'Create']);
    expect(res.body.data[0]).toMatchObject({
      domain: 'Product',
      entityId: String(productId),
      reason: 'Larger batches from March',
      oldValues: { minBatchSize: { value: 100, unit: 'kg' } },
      newValues: { minBatchSize: { value: 120, unit: 'kg' } },
    });
    expect(res.body.names).toEqual({
      [`products:${productId}`]: 'Fever tablets',
      [`actives:${activeId}`]: 'Paracetamol',
    });
  });

  it('pages, and answers an unknown record with an empty history', async () => {
    const page = await t.call(
      'GET',
      `${t.F}/products/${productId}/history?pageLimit=1&pageNumber=2`,
    );
    expect(page.body).toMatchObject({ total: 2, pageNumber: 2, pageLimit: 1 });
    expect(page.body.data.map((row: Body) => row.action)).toEqual(['Create']);
    expect((await history('products/999999')).body).toMatchObject({ total: 0, data: [] });
    const bad = await t.call('GET', `${t.F}/products/${productId}/history?pageLimit=0`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('pageLimit');
  });

  it('includes the rows of the record’s children, such as equipment’s sampling locations', async () => {
    const res = await history(`equipments/${equipmentId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((row: Body) => `${row.domain} ${row.action}`)).toEqual([
      'SamplingLocation Create',
      'Equipment Create',
    ]);
    expect(res.body.names[`equipment:${equipmentId}`]).toBe('Blender H1');
  });
});

describe('the audit log', () => {
  it('names the records its rows are about', async () => {
    const res = await t.call('GET', '/api/v2/audit_logs?domains=Product&pageLimit=50');
    expect(res.status).toBe(200);
    expect(res.body.names[`products:${productId}`]).toBe('Fever tablets');
    expect(res.body.names[`actives:${activeId}`]).toBe('Paracetamol');
  });
});
