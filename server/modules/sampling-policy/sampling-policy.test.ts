import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let P: string;
beforeAll(async () => {
  P = `${t.F}/sampling-policy`;
});

const swabPolicy = {
  name: 'Swab worst-case locations',
  sampleType: 'swab',
  swabArea: { value: 25, unit: 'sqcm' },
  minimumRiskScore: 100,
  notes: 'Per SOP-VAL-012',
};

const auditOf = (id: number) =>
  t.server.db.query<Body>(
    `select action, reason, old_values, new_values from audit_log
      where domain = 'SamplingPolicy' and entity_id = $1 order by seq`,
    [String(id)],
  );

describe('sampling policy', () => {
  it('is refused without the SamplingMethod permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ SamplingMethod: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', P, undefined, as)).status).toBe(200);
    const add = await t.call('POST', P, { ...swabPolicy, name: 'Refused' }, as);
    expect(add.status).toBe(403);
    const none = await buildUser(t.server.db, {
      permissions: permissionsWith({ Equipment: ['Get'] }),
    });
    const noneToken = await t.server.login(none.username, none.password);
    expect((await t.call('GET', P, undefined, noneToken)).status).toBe(403);
    const created = await t.call('POST', P, { ...swabPolicy, name: 'Refusal probe' });
    const id = created.body.result.id;
    expect(
      (await t.call('PUT', `${P}/${id}`, { notes: 'x', reason: 'r', version: 1 }, as)).status,
    ).toBe(403);
    expect((await t.call('DELETE', `${P}/${id}`, { reason: 'r' }, as)).status).toBe(403);
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from sampling_policies where name = 'Refused'`,
    );
    expect(count!.n).toBe(0);
  });

  it('is created, listed with search and audited', async () => {
    const created = await t.call('POST', P, swabPolicy);
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ ...swabPolicy, version: 1, archivedAt: null });
    const id = created.body.result.id;
    const [audit] = await auditOf(id);
    expect(audit).toMatchObject({ action: 'Create', new_values: { name: swabPolicy.name } });
    const list = await t.call('GET', `${P}?search=worst&pageLimit=5`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, pageNumber: 1, pageLimit: 5 });
    expect(list.body.data[0].id).toBe(id);
    expect((await t.call('GET', `${P}/${id}`)).body.name).toBe(swabPolicy.name);
    const duplicate = await t.call('POST', P, { ...swabPolicy, name: 'SWAB worst-case locations' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errName).toBe('DuplicateEntryError');
  });

  it('refuses bad input with per-property messages and saves nothing', async () => {
    const bad = await t.call('POST', P, {
      name: '',
      sampleType: 'wipe',
      swabArea: { value: -1, unit: 'ml' },
      locationsPerEquipment: 1.5,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'locationsPerEquipment',
      'name',
      'sampleType',
      'swabArea.unit',
      'swabArea.value',
    ]);
    const neither = await t.call('POST', P, {
      name: 'Rinse with no rule',
      sampleType: 'rinse',
    });
    expect(neither.status).toBe(422);
    expect(neither.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'locationsPerEquipment',
      'rinseVolume',
    ]);
    const both = await t.call('POST', P, {
      name: 'Both rules',
      sampleType: 'rinse',
      rinseVolume: { value: 1, unit: 'L' },
      locationsPerEquipment: 3,
      minimumRiskScore: 50,
    });
    expect(both.body.errors).toEqual([expect.objectContaining({ property: 'minimumRiskScore' })]);
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from sampling_policies where name in ('Rinse with no rule', 'Both rules')`,
    );
    expect(count!.n).toBe(0);
  });

  it('is edited with a reason and the version it was made from; a stale edit is refused', async () => {
    const created = await t.call('POST', P, {
      name: 'Rinse three per item',
      sampleType: 'rinse',
      rinseVolume: { value: 1, unit: 'L' },
      locationsPerEquipment: 3,
    });
    const id = created.body.result.id;
    const noReason = await t.call('PUT', `${P}/${id}`, { locationsPerEquipment: 4, version: 1 });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');
    const noVersion = await t.call('PUT', `${P}/${id}`, { locationsPerEquipment: 4, reason: 'r' });
    expect(noVersion.body.errors[0].property).toBe('version');
    const edited = await t.call('PUT', `${P}/${id}`, {
      locationsPerEquipment: 4,
      reason: 'Larger vessels',
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ locationsPerEquipment: 4, version: 2 });
    const stale = await t.call('PUT', `${P}/${id}`, {
      locationsPerEquipment: 5,
      reason: 'Lost update',
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    // Switching to a risk-score rule must clear the count: the record is checked as a whole.
    const switched = await t.call('PUT', `${P}/${id}`, {
      minimumRiskScore: 25,
      reason: 'Risk based',
      version: 2,
    });
    expect(switched.body.errors[0].property).toBe('minimumRiskScore');
    const cleared = await t.call('PUT', `${P}/${id}`, {
      minimumRiskScore: 25,
      locationsPerEquipment: null,
      reason: 'Risk based',
      version: 2,
    });
    expect(cleared.body.result).toMatchObject({
      minimumRiskScore: 25,
      locationsPerEquipment: null,
      version: 3,
    });
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Update']);
    expect(audit[1]).toMatchObject({
      reason: 'Larger vessels',
      old_values: { locationsPerEquipment: 3 },
      new_values: { locationsPerEquipment: 4 },
    });
  });

  it('is archived by DELETE with a reason and restored by PUT ?unarchive', async () => {
    const created = await t.call('POST', P, { ...swabPolicy, name: 'Archive me' });
    const id = created.body.result.id;
    const noReason = await t.call('DELETE', `${P}/${id}`, {});
    expect(noReason.status).toBe(422);
    const archived = await t.call('DELETE', `${P}/${id}`, { reason: 'Superseded' });
    expect(archived.body.result).toMatchObject({ archiveReason: 'Superseded', version: 2 });
    expect((await t.call('GET', `${P}?search=archive me`)).body.total).toBe(0);
    const list = await t.call('GET', `${t.F}/archived/sampling-policy?search=archive me`);
    expect(list.body.data.map((p: Body) => p.id)).toEqual([id]);
    const edit = await t.call('PUT', `${P}/${id}`, { notes: 'x', reason: 'r', version: 2 });
    expect(edit.body.errName).toBe('ArchivedEntryError');
    const restored = await t.call('PUT', `${P}/${id}?unarchive`, { reason: 'Still in use' });
    expect(restored.body.result).toMatchObject({ archivedAt: null, version: 3 });
    const again = await t.call('PUT', `${P}/${id}`, { unArchive: true, reason: 'Twice' });
    expect(again.body.errName).toBe('NothingToChangeError');
    const audit = await auditOf(id);
    expect(audit.slice(1)).toMatchObject([
      { action: 'Archive', reason: 'Superseded' },
      { action: 'Unarchive', reason: 'Still in use' },
    ]);
    expect((await t.call('DELETE', `${P}/999999`, { reason: 'x' })).status).toBe(404);
  });
});
