import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let equipmentId: number;
beforeAll(async () => {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name: 'Tablet press T4',
    surfaceArea: { value: 3, unit: 'sqm' },
    material: 'Stainless steel 316L',
  });
  equipmentId = res.body.result.id;
});

describe('legacy /locations paths', () => {
  it('answer as the sampling-locations routes do, and are marked deprecated', async () => {
    const legacy = `${t.F}/equipments/${equipmentId}/locations`;
    const current = `${t.F}/equipments/${equipmentId}/sampling-locations`;
    const reader = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    expect((await t.call('GET', legacy, undefined, readerToken)).status).toBe(403);

    const created = await t.call('POST', legacy, {
      data: { name: 'Punch tips', sampleType: 'swab', swabArea: { value: 25, unit: 'sqcm' } },
      reason: 'Mapped on the old client',
    });
    expect(created.status).toBe(200);
    const id = created.body.result[0].id;
    expect((await t.call('GET', current)).body.data.map((l: Body) => l.id)).toEqual([id]);
    expect((await t.call('GET', `${legacy}/${id}`)).body).toEqual(
      (await t.call('GET', `${current}/${id}`)).body,
    );
    const bad = await t.call('POST', legacy, { data: { name: '', sampleType: 'swab' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('data[0].name');

    const edited = await t.call('PUT', `${legacy}/${id}`, {
      data: { description: 'Upper punches' },
      reason: 'Detail',
      version: 1,
    });
    expect(edited.body.result).toMatchObject({ description: 'Upper punches', version: 2 });
    const stale = await t.call('PUT', `${legacy}/${id}`, {
      data: { description: 'Lower punches' },
      reason: 'Detail',
      version: 1,
    });
    expect(stale.status).toBe(409);
    const assessed = await t.call('POST', `${legacy}/${id}/assess`, {
      equipmentId,
      reason: 'FMEA 3',
      hardToClean: 3,
      inaccessibility: 2,
      productContact: 'Direct',
    });
    expect(assessed.body.result).toMatchObject({ riskScore: 30, riskLevel: 'Medium' });
    const archived = await t.call('DELETE', `${legacy}/${id}`, { reason: 'Tooling changed' });
    expect(archived.body.result.archiveReason).toBe('Tooling changed');
    expect((await t.call('GET', `${legacy}?archived=true`)).body.data).toHaveLength(1);
    const restored = await t.call('PUT', `${legacy}/${id}`, { unArchive: true, reason: 'Back' });
    expect(restored.body.result.archivedAt).toBeNull();

    const doc = await t.server.request<Body>('GET', '/api/docs/json');
    const paths = doc.body.paths as Record<string, Record<string, Body>>;
    const legacyPath = '/api/v2/plans/{plan}/facilities/{facility}/equipments/{id}/locations';
    expect(paths[legacyPath]!.get!.deprecated).toBe(true);
    expect(paths[`${legacyPath}/{locationId}`]!.delete!.deprecated).toBe(true);
    const currentPath = legacyPath.replace('/locations', '/sampling-locations');
    expect(paths[currentPath]!.get!.deprecated).toBeUndefined();
  });
});

describe('sampling types', () => {
  it('are listed per facility, starting with Swab and Rinse', async () => {
    const none = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const noneToken = await t.server.login(none.username, none.password);
    expect((await t.call('GET', `${t.F}/sampling-types`, undefined, noneToken)).status).toBe(403);
    const list = await t.call('GET', `${t.F}/sampling-types`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Swab',
          sampleType: 'swab',
          swabArea: { value: 25, unit: 'sqcm' },
        }),
        expect.objectContaining({ name: 'Rinse', sampleType: 'rinse' }),
      ]),
    );
    const search = await t.call('GET', `${t.F}/sampling-types?search=rin&pageLimit=1`);
    expect(search.body).toMatchObject({ total: 1, pageLimit: 1 });
    const bad = await t.call('GET', `${t.F}/sampling-types?pageLimit=0`);
    expect(bad.status).toBe(422);
  });
});
