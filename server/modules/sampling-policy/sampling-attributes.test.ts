import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let A: string;
beforeAll(async () => {
  A = `${t.F}/sampling-policy/attributes`;
});

const accessibility = {
  name: 'Accessibility',
  weight: 3,
  options: [
    { label: 'Open', score: 1 },
    { label: 'Behind a panel', score: 3 },
    { label: 'Dismantle only', score: 5 },
  ],
  description: 'How the spot is reached for cleaning and sampling',
};

describe('sampling-assessment attributes', () => {
  it('are refused without the SamplingMethod permissions', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ SamplingMethod: ['Get', 'Modify'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', A, undefined, as)).status).toBe(200);
    expect((await t.call('POST', A, { ...accessibility, name: 'Refused' }, as)).status).toBe(403);
    const created = await t.call('POST', A, { ...accessibility, name: 'Probe' });
    const id = created.body.result.id;
    expect((await t.call('DELETE', `${A}/${id}`, { reason: 'x' }, as)).status).toBe(403);
    await t.call('DELETE', `${A}/${id}`, { reason: 'Probe done' });
    // Restoring needs the same right as archiving.
    expect((await t.call('PUT', `${A}/${id}?unarchive`, { reason: 'x' }, as)).status).toBe(403);
  });

  it('are created with scored options, checked, edited with a reason and audited', async () => {
    const bad = await t.call('POST', A, {
      name: 'Geometry',
      weight: 0,
      options: [
        { label: 'Flat', score: 1 },
        { label: 'flat', score: 101 },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'options[1].score',
      'weight',
    ]);
    const twice = await t.call('POST', A, {
      name: 'Geometry',
      weight: 2,
      options: [
        { label: 'Flat', score: 1 },
        { label: 'flat', score: 4 },
      ],
    });
    expect(twice.body.errors).toEqual([expect.objectContaining({ property: 'options[1].label' })]);
    const one = await t.call('POST', A, {
      name: 'Geometry',
      weight: 2,
      options: [{ label: 'x', score: 1 }],
    });
    expect(one.body.errors[0].property).toBe('options');
    const created = await t.call('POST', A, accessibility);
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ ...accessibility, version: 1 });
    const id = created.body.result.id;
    expect((await t.call('POST', A, accessibility)).body.errName).toBe('DuplicateEntryError');
    const list = await t.call('GET', `${A}?search=access`);
    expect(list.body.data.map((a: Body) => a.name)).toEqual(['Accessibility']);

    const edited = await t.call('PUT', `${A}/${id}`, {
      weight: 4,
      reason: 'Accessibility drives residue',
      version: 1,
    });
    expect(edited.body.result).toMatchObject({ weight: 4, version: 2 });
    const stale = await t.call('PUT', `${A}/${id}`, { weight: 5, reason: 'r', version: 1 });
    expect(stale.status).toBe(409);
    const [audit] = await t.server.db.query<Body>(
      `select reason, old_values, new_values from audit_log
        where domain = 'SamplingAttribute' and entity_id = $1 and action = 'Update'`,
      [String(id)],
    );
    expect(audit).toMatchObject({
      reason: 'Accessibility drives residue',
      old_values: { weight: 3 },
      new_values: { weight: 4 },
    });
    // Archived attributes are listed apart and restored with ?unarchive.
    await t.call('POST', A, { ...accessibility, name: 'Old criterion' });
    const old = (await t.call('GET', `${A}?search=old`)).body.data[0];
    expect((await t.call('DELETE', `${A}/${old.id}`, { reason: 'Replaced' })).status).toBe(200);
    const archived = await t.call('GET', `${t.F}/archived/sampling-policy/attributes?search=old`);
    expect(archived.body.data.map((a: Body) => a.archiveReason)).toEqual(['Replaced']);
    const restored = await t.call('PUT', `${A}/${old.id}?unarchive=true`, { reason: 'Back' });
    expect(restored.body.result.archivedAt).toBeNull();
    await t.call('DELETE', `${A}/${old.id}`, { reason: 'Replaced again' });
  });

  it('drive the risk assessment of sampling locations where a facility has them', async () => {
    await t.call('POST', A, {
      name: 'Material',
      weight: 1,
      options: [
        { label: 'Steel', score: 1 },
        { label: 'Plastic', score: 4 },
      ],
    });
    const attributes = (await t.call('GET', A)).body.data as Body[];
    const byName = Object.fromEntries(attributes.map((a) => [a.name, a.id]));
    const equipment = await t.call('POST', `${t.F}/equipments`, {
      name: 'Granulator G1',
      surfaceArea: { value: 2, unit: 'sqm' },
    });
    const L = `${t.F}/equipments/${equipment.body.result.id}/sampling-locations`;
    const location = (await t.call('POST', L, { data: { name: 'Chopper', sampleType: 'swab' } }))
      .body.result[0];
    const assess = (body: Body) =>
      t.call('POST', `${L}/${location.id}/assess`, {
        equipmentId: equipment.body.result.id,
        reason: 'FMEA 7',
        ...body,
      });
    const factors = await assess({ hardToClean: 5, inaccessibility: 4, productContact: 'Direct' });
    expect(factors.status).toBe(422);
    expect(factors.body.errors.map((e: Body) => e.property)).toContain('hardToClean');
    const partial = await assess({
      ratings: [
        { attributeId: byName.Accessibility, option: 'Nowhere' },
        { attributeId: 999999, option: 'Steel' },
      ],
    });
    expect(partial.body.errors.map((e: Body) => e.property)).toEqual([
      'ratings[0].option',
      'ratings[1].attributeId',
    ]);
    const unrated = await assess({ ratings: [{ attributeId: byName.Material, option: 'Steel' }] });
    expect(unrated.body.errors[0]).toMatchObject({ property: 'ratings' });
    // Accessibility 4 × 5 + Material 1 × 4 = 24 of at most 4 × 5 + 1 × 4 = 24: High.
    const assessed = await assess({
      ratings: [
        { attributeId: byName.Accessibility, option: 'Dismantle only' },
        { attributeId: byName.Material, option: 'plastic' },
      ],
    });
    expect(assessed.status).toBe(200);
    expect(assessed.body.result).toMatchObject({
      riskScore: 24,
      riskLevel: 'High',
      assessment: { method: 'attributes', maxScore: 24 },
    });
    expect(assessed.body.result.assessment.ratings[1]).toMatchObject({
      attribute: 'Material',
      option: 'Plastic',
      score: 4,
      weight: 1,
    });
    // 4 × 1 + 1 × 1 = 5 of 24: Low.
    const lower = await assess({
      version: 2,
      ratings: [
        { attributeId: byName.Accessibility, option: 'Open' },
        { attributeId: byName.Material, option: 'Steel' },
      ],
    });
    expect(lower.body.result).toMatchObject({ riskScore: 5, riskLevel: 'Low', version: 3 });
  });

  it('are not asked for where a facility has none, which keeps the four factors', async () => {
    const [other] = await t.server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id offset 1 limit 1',
    );
    const G = `/api/v2/plans/${other!.plan_id}/facilities/${other!.id}`;
    expect((await t.call('GET', `${G}/sampling-policy/attributes`)).body.total).toBe(0);
    const equipment = await t.call('POST', `${G}/equipments`, {
      name: 'Reactor R2',
      surfaceArea: { value: 8, unit: 'sqm' },
      material: 'Glass',
    });
    const L = `${G}/equipments/${equipment.body.result.id}/sampling-locations`;
    const location = (await t.call('POST', L, { data: { name: 'Manway', sampleType: 'swab' } }))
      .body.result[0];
    const base = { equipmentId: equipment.body.result.id, reason: 'FMEA 8' };
    const ratings = await t.call('POST', `${L}/${location.id}/assess`, {
      ...base,
      ratings: [{ attributeId: 1, option: 'Open' }],
    });
    expect(ratings.body.errors[0].property).toBe('ratings');
    const missing = await t.call('POST', `${L}/${location.id}/assess`, { ...base, hardToClean: 2 });
    expect(missing.body.errors.map((e: Body) => e.property)).toEqual([
      'inaccessibility',
      'productContact',
    ]);
    // 2 × 3 × glass 2 × indirect 2 = 24: Low.
    const assessed = await t.call('POST', `${L}/${location.id}/assess`, {
      ...base,
      hardToClean: 2,
      inaccessibility: 3,
      productContact: 'Indirect',
    });
    expect(assessed.body.result).toMatchObject({ riskScore: 24, riskLevel: 'Low' });
  });
});
