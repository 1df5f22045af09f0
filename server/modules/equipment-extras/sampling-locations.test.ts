import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let equipmentId: number;
let L: string;
let swabTypeId: number;
let rinseTypeId: number;
beforeAll(async () => {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name: 'Blender V1',
    surfaceArea: { value: 4, unit: 'sqm' },
    material: 'Stainless steel 316L',
  });
  equipmentId = res.body.result.id;
  L = `${t.F}/equipments/${equipmentId}/sampling-locations`;
  const types = await t.call('GET', `${t.F}/sampling-types`);
  swabTypeId = types.body.data.find((t: Body) => t.name === 'Swab').id;
  rinseTypeId = types.body.data.find((t: Body) => t.name === 'Rinse').id;
});

describe('sampling locations', () => {
  it('are refused without the SwabLocation permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', L, undefined, as)).status).toBe(403);
    const add = await t.call('POST', L, { data: { name: 'x', sampleType: 'swab' } }, as);
    expect(add.status).toBe(403);
    const reader = await buildUser(t.server.db, {
      permissions: permissionsWith({ SwabLocation: ['Get', 'Add', 'Modify'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    const created = await t.call(
      'POST',
      L,
      { data: { name: 'Permission probe', sampleType: 'rinse' } },
      readerToken,
    );
    expect(created.status).toBe(200);
    const id = created.body.result[0].id;
    // Archive (DELETE) and unarchive need SwabLocation Delete.
    expect((await t.call('DELETE', `${L}/${id}`, { reason: 'x' }, readerToken)).status).toBe(403);
  });

  it('are added one or several at a time, with the sampling type’s swab area, and checked by path', async () => {
    const one = await t.call('POST', L, {
      data: {
        name: 'Lid gasket',
        sampleType: 'swab',
        samplingTypeId: swabTypeId,
        material: 'PTFE',
      },
      equipmentId,
      reason: 'Initial mapping',
    });
    expect(one.status).toBe(200);
    expect(one.body.result[0]).toMatchObject({
      name: 'Lid gasket',
      equipmentId,
      swabArea: { value: 25, unit: 'sqcm' },
      version: 1,
      riskScore: null,
    });
    const [audit] = await t.server.db.query<Body>(
      `select action, reason, new_values from audit_log where domain = 'SamplingLocation' and entity_id = $1`,
      [String(one.body.result[0].id)],
    );
    expect(audit).toMatchObject({
      action: 'Create',
      reason: 'Initial mapping',
      new_values: { equipmentId, name: 'Lid gasket', material: 'PTFE' },
    });
    const several = await t.call('POST', L, {
      data: [
        { name: 'Discharge valve', sampleType: 'swab', swabArea: { value: 100, unit: 'sqcm' } },
        { name: 'Final rinse', sampleType: 'rinse', samplingTypeId: rinseTypeId },
      ],
    });
    expect(several.body.result.map((l: Body) => l.swabArea)).toEqual([
      { value: 100, unit: 'sqcm' },
      null,
    ]);
    const list = await t.call('GET', L);
    expect(list.body.data.map((l: Body) => l.name)).toEqual([
      'Discharge valve',
      'Final rinse',
      'Lid gasket',
      'Permission probe',
    ]);

    const bad = await t.call('POST', L, {
      data: [
        { name: 'Ok spot', sampleType: 'swab' },
        { name: '', sampleType: 'wipe', swabArea: { value: 5, unit: 'mg' } },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'data[1].name',
      'data[1].sampleType',
      'data[1].swabArea.unit',
    ]);
    const wrongType = await t.call('POST', L, {
      data: [
        { name: 'Spot 1', sampleType: 'swab' },
        { name: 'Spot 2', sampleType: 'swab', samplingTypeId: rinseTypeId },
      ],
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].property).toBe('data[1].samplingTypeId');
    // Nothing of a refused request is kept.
    expect((await t.call('GET', L)).body.data).toHaveLength(4);
    const otherEquipment = await t.call('POST', L, {
      data: { name: 'Spot', sampleType: 'swab' },
      equipmentId: equipmentId + 1000,
    });
    expect(otherEquipment.body.errors[0].property).toBe('equipmentId');
    const dup = await t.call('POST', L, { data: { name: 'LID GASKET', sampleType: 'swab' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'data[0].name' }],
    });
    const twice = await t.call('POST', L, {
      data: [
        { name: 'Twin', sampleType: 'swab' },
        { name: 'twin', sampleType: 'swab' },
      ],
    });
    expect(twice.body.errors[0].property).toBe('data[1].name');
    expect((await t.call('GET', `${t.F}/equipments/999999/sampling-locations`)).status).toBe(404);
  });

  it('are edited with a reason and a version, archived with DELETE and restored with PUT', async () => {
    const created = await t.call('POST', L, { data: { name: 'Spray ball', sampleType: 'swab' } });
    const id = created.body.result[0].id;
    const noVersion = await t.call('PUT', `${L}/${id}`, {
      data: { description: 'CIP spray ball' },
      reason: 'x',
    });
    expect(noVersion.status).toBe(422);
    expect(noVersion.body.errors[0].property).toBe('version');
    const edited = await t.call('PUT', `${L}/${id}`, {
      data: { description: 'CIP spray ball', name: 'Spray ball' },
      version: 1,
      reason: 'Described',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ description: 'CIP spray ball', version: 2 });
    const [audit] = await t.server.db.query<Body>(
      `select old_values, new_values from audit_log where domain = 'SamplingLocation' and action = 'Update' and entity_id = $1`,
      [String(id)],
    );
    expect(audit).toEqual({
      old_values: { equipmentId, description: null },
      new_values: { equipmentId, description: 'CIP spray ball' },
    });
    const stale = await t.call('PUT', `${L}/${id}`, {
      data: { description: 'Other' },
      version: 1,
      reason: 'x',
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const nothing = await t.call('PUT', `${L}/${id}`, {
      data: { description: 'CIP spray ball' },
      version: 2,
      reason: 'x',
    });
    expect(nothing.body.errName).toBe('NothingToChangeError');
    const rename = await t.call('PUT', `${L}/${id}`, {
      data: { name: 'Lid gasket' },
      version: 2,
      reason: 'x',
    });
    expect(rename.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'data.name' }],
    });

    expect((await t.call('DELETE', `${L}/${id}`, {})).status).toBe(422);
    const archived = await t.call('DELETE', `${L}/${id}`, { reason: 'Replaced' });
    expect(archived.body.result).toMatchObject({ archiveReason: 'Replaced', version: 3 });
    expect((await t.call('GET', L)).body.data.map((l: Body) => l.id)).not.toContain(id);
    expect((await t.call('GET', `${L}?archived=true`)).body.data.map((l: Body) => l.id)).toEqual([
      id,
    ]);
    const reuse = await t.call('POST', L, { data: { name: 'spray ball', sampleType: 'swab' } });
    expect(reuse.body.errName).toBe('ArchivedEntryError');
    const editArchived = await t.call('PUT', `${L}/${id}`, {
      data: { description: 'x' },
      version: 3,
      reason: 'x',
    });
    expect(editArchived.body.errName).toBe('ArchivedEntryError');
    const restored = await t.call('PUT', `${L}/${id}`, { unArchive: true, reason: 'Back' });
    expect(restored.body.result.archivedAt).toBeNull();
    const actions = await t.server.db.query<Body>(
      `select action, reason from audit_log where domain = 'SamplingLocation' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(actions.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive', 'Unarchive']);
  });

  it('are risk-assessed with a reason into a score and a level', async () => {
    const created = await t.call('POST', L, { data: { name: 'Shaft seal', sampleType: 'swab' } });
    const id = created.body.result[0].id;
    const assessment = {
      equipmentId,
      hardToClean: 5,
      inaccessibility: 4,
      productContact: 'Direct',
      reason: 'FMEA session 12',
    };
    const mismatch = await t.call('POST', `${L}/${id}/assess`, {
      ...assessment,
      equipmentId: equipmentId + 1000,
    });
    expect(mismatch.body.errors[0].property).toBe('equipmentId');
    const outOfScale = await t.call('POST', `${L}/${id}/assess`, { ...assessment, hardToClean: 6 });
    expect(outOfScale.body.errors[0].property).toBe('hardToClean');
    // The equipment's material (316L stainless, score 1): 5 × 4 × 1 × 5 = 100, High.
    const assessed = await t.call('POST', `${L}/${id}/assess`, assessment);
    expect(assessed.status).toBe(200);
    expect(assessed.body.result).toMatchObject({
      riskScore: 100,
      riskLevel: 'High',
      assessment: { material: 'Stainless steel 316L', materialScore: 1, contactScore: 5 },
      assessedAt: expect.any(String),
      version: 2,
    });
    const stale = await t.call('POST', `${L}/${id}/assess`, { ...assessment, version: 1 });
    expect(stale.body.errName).toBe('VersionConflictError');
    const again = await t.call('POST', `${L}/${id}/assess`, assessment);
    expect(again.body.errName).toBe('NothingToChangeError');
    const lower = await t.call('POST', `${L}/${id}/assess`, {
      ...assessment,
      productContact: 'Indirect',
      inaccessibility: 2,
      version: 2,
      reason: 'Seal is above the product line',
    });
    expect(lower.body.result).toMatchObject({ riskScore: 20, riskLevel: 'Low' });
    const [audit] = await t.server.db.query<Body>(
      `select reason, old_values, new_values from audit_log where domain = 'SamplingLocation' and action = 'Assess' order by seq desc limit 1`,
    );
    expect(audit).toMatchObject({
      reason: 'Seal is above the product line',
      old_values: { riskScore: 100, riskLevel: 'High' },
      new_values: { riskScore: 20, riskLevel: 'Low' },
    });
    const noCpn = await t.call('GET', `${t.F}/equipments/no-cpn?search=blender`);
    expect(noCpn.body.total).toBe(0);
  });
});

describe('samples', () => {
  let S: string;
  beforeAll(async () => {
    const created = await t.call('POST', L, {
      data: { name: 'Bottom outlet', sampleType: 'swab', swabArea: { value: 50, unit: 'sqcm' } },
    });
    S = `${L}/${created.body.result[0].id}/samples`;
  });

  it('are refused without the SwabLocation permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ SwabLocation: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', S, undefined, as)).status).toBe(200);
    expect((await t.call('POST', S, { name: 'x', sampleType: 'swab' }, as)).status).toBe(403);
  });

  it('are added with the location’s swab area and a unique batch number', async () => {
    const method = await t.call('POST', `${t.F}/analytical-method`, {
      name: 'TOC',
      testType: 'TOC',
    });
    const first = await t.call('POST', S, {
      name: 'S-001',
      sampleType: 'swab',
      analyticalTest: 'TOC',
      analyticalMethodId: method.body.result.id,
      batchNumber: 'B-2026-001',
    });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({
      name: 'S-001',
      swabArea: { value: 50, unit: 'sqcm' },
      batchNumber: 'B-2026-001',
      version: 1,
    });
    const dupBatch = await t.call('POST', S, {
      name: 'S-002',
      sampleType: 'swab',
      batchNumber: 'b-2026-001',
    });
    expect(dupBatch.status).toBe(409);
    expect(dupBatch.body).toMatchObject({
      errName: 'DuplicateBatchNumber',
      message: 'Batch number must be unique across samples',
      errors: [{ property: 'batchNumber' }],
    });
    const dupName = await t.call('POST', S, { name: 's-001', sampleType: 'swab' });
    expect(dupName.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'name' }],
    });
    const bad = await t.call('POST', S, {
      name: 'S-003',
      sampleType: 'swab',
      analyticalMethodId: 424242,
      rinseVolume: { value: 1, unit: 'kg' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('rinseVolume.unit');
    const unknownMethod = await t.call('POST', S, {
      name: 'S-003',
      sampleType: 'swab',
      analyticalMethodId: 424242,
    });
    expect(unknownMethod.body.errors[0].property).toBe('analyticalMethodId');
  });

  it('are edited, archived and unarchived through POST or PUT {id}', async () => {
    const created = await t.call('POST', S, { name: 'R-001', sampleType: 'rinse' });
    const id = created.body.result.id;
    const edited = await t.call('PUT', `${S}/${id}`, {
      rinseVolume: { value: 500, unit: 'ml' },
      version: 1,
      reason: 'Volume fixed',
    });
    expect(edited.body.result).toMatchObject({
      rinseVolume: { value: 500, unit: 'ml' },
      version: 2,
    });
    const stale = await t.call('POST', `${S}/${id}`, {
      description: 'x',
      version: 1,
      reason: 'x',
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const batchTaken = await t.call('POST', `${S}/${id}`, {
      batchNumber: 'B-2026-001',
      version: 2,
      reason: 'x',
    });
    expect(batchTaken.body.errName).toBe('DuplicateBatchNumber');
    const noReason = await t.call('POST', `${S}/${id}`, { archive: true });
    expect(noReason.body.errors[0].property).toBe('reason');
    const archived = await t.call('POST', `${S}/${id}`, { archive: true, reason: 'Not needed' });
    expect(archived.body.result.archiveReason).toBe('Not needed');
    expect((await t.call('GET', S)).body.data.map((s: Body) => s.id)).not.toContain(id);
    expect((await t.call('GET', `${S}?archived=true`)).body.data.map((s: Body) => s.id)).toEqual([
      id,
    ]);
    expect((await t.call('PUT', `${S}/${id}`, { archive: true, reason: 'x' })).body.errName).toBe(
      'NothingToChangeError',
    );
    const restored = await t.call('PUT', `${S}/${id}`, {
      unArchive: true,
      reason: 'Needed after all',
    });
    expect(restored.body.result.archivedAt).toBeNull();
    const actions = await t.server.db.query<Body>(
      `select action from audit_log where domain = 'Sample' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(actions.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive', 'Unarchive']);
    expect((await t.call('PUT', `${S}/999999`, { unArchive: true, reason: 'x' })).status).toBe(404);
  });
});
