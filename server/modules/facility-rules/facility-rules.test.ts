import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

const lastAudit = async (domain: string) => {
  const [row] = await t.server.db.query<Body>(
    `select action, reason, old_values, new_values from audit_log where domain = $1 order by id desc limit 1`,
    [domain],
  );
  return row;
};

describe('microbial cleaning limit policies', () => {
  it('are refused without the CleaningPolicy permission', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    const path = `${t.F}/microbial-cleaning-limit-policies`;
    expect((await t.call('GET', path, undefined, as)).status).toBe(403);
    expect((await t.call('POST', path, { rinseLimit: 10, reason: 'x' }, as)).status).toBe(403);
  });

  it('start from the Annex 1 defaults in force and change with a reason, a version and an audit row', async () => {
    const path = `${t.F}/microbial-cleaning-limit-policies`;
    const first = await t.call('GET', path);
    expect(first.body).toMatchObject({
      id: expect.any(Number),
      version: 1,
      status: 'Approved',
      signatureState: 'Signed',
      versionNumber: 1,
      policy: { gradeLimits: { A: { contactPlate: 0 }, D: { contactPlate: 50 } }, rinseLimit: 100 },
    });
    const changed = await t.call('POST', path, { rinseLimit: 10, version: 1, reason: 'WFI rinse' });
    expect(changed.status).toBe(200);
    // The approved version 1 stays in force; the change is version 2, being built.
    expect(changed.body).toMatchObject({
      id: first.body.id,
      version: 2,
      status: 'BeingBuilt',
      versionNumber: 2,
      policy: { rinseLimit: 10 },
    });
    expect(await lastAudit('MicrobialCleaningLimitPolicy')).toEqual({
      action: 'Update',
      reason: 'WFI rinse',
      old_values: { rinseLimit: 100 },
      new_values: { rinseLimit: 10 },
    });
    const stale = await t.call('POST', path, { rinseLimit: 20, version: 1, reason: 'x' });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const same = await t.call('POST', path, { rinseLimit: 10, version: 2, reason: 'x' });
    expect(same.body.errName).toBe('NothingToChangeError');
    // The draft read answers the version being built; the plain read the one in force.
    expect((await t.call('GET', `${path}?version=draft`)).body).toMatchObject({
      version: 2,
      versionNumber: 2,
      status: 'BeingBuilt',
      inForceVersionNumber: 1,
      draftVersionNumber: 2,
      policy: { rinseLimit: 10 },
    });
    expect((await t.call('GET', path)).body).toMatchObject({
      version: 2,
      versionNumber: 1,
      status: 'Approved',
      inForceVersionNumber: 1,
      draftVersionNumber: 2,
      policy: { rinseLimit: 100 },
    });
  });

  it('refuse bad values and unknown methods with property paths', async () => {
    const path = `${t.F}/microbial-cleaning-limit-policies`;
    const bad = await t.call('POST', path, {
      alertLevelPercentage: 120,
      gradeLimits: { A: { contactPlate: -1, swab: 0 } },
      version: 2,
      reason: 'x',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'alertLevelPercentage',
      'gradeLimits.A.contactPlate',
      'gradeLimits.B',
      'gradeLimits.C',
      'gradeLimits.D',
    ]);
    const noReason = await t.call('POST', path, { rinseLimit: 5, version: 2 });
    expect(noReason.body.errors[0].property).toBe('reason');
    const unknown = await t.call('POST', path, {
      microbialMethodIds: [9999],
      version: 2,
      reason: 'x',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].property).toBe('microbialMethodIds[0]');
    const method = await t.call('POST', `${t.F}/microbial-analytical-method`, {
      name: 'TAMC contact plate',
      testType: 'TAMC',
      samplingMethod: 'Contact plate',
      resultUnit: 'CFU/plate',
    });
    const ok = await t.call('POST', path, {
      microbialMethodIds: [method.body.result.id],
      version: 2,
      reason: 'Method validated',
    });
    expect(ok.body.policy.microbialMethodIds).toEqual([method.body.result.id]);
  });
});

describe('cleaning inspection settings', () => {
  it('are refused without the CleaningPolicy permission', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', `${t.F}/cleaning-inspection-settings`, undefined, as)).status).toBe(
      403,
    );
    expect(
      (await t.call('POST', `${t.F}/cleaning-inspection-settings`, { reason: 'x' }, as)).status,
    ).toBe(403);
  });

  it('answer the defaults, then change with a reason and refuse bad input and stale edits', async () => {
    const path = `${t.F}/cleaning-inspection-settings`;
    expect((await t.call('GET', path)).body).toMatchObject({
      id: expect.any(Number),
      version: 1,
      status: 'Approved',
      versionNumber: 1,
      cleaningInspectionSettings: {
        visualInspectionRequired: true,
        visibleResidueLimit: { value: 4, unit: 'ug/sqcm' },
        dirtyHoldTimeHours: null,
      },
    });
    const changed = await t.call('POST', path, {
      dirtyHoldTimeHours: 48,
      checklist: [{ item: 'No visible residue', isMandatory: true }],
      version: 1,
      reason: 'DHT study 2026-04',
    });
    expect(changed.body).toMatchObject({
      version: 2,
      status: 'BeingBuilt',
      versionNumber: 2,
      cleaningInspectionSettings: { dirtyHoldTimeHours: 48, minimumLightLux: 500 },
    });
    expect((await lastAudit('CleaningInspectionSettings'))?.new_values).toMatchObject({
      dirtyHoldTimeHours: 48,
    });
    const bad = await t.call('POST', path, {
      visibleResidueLimit: { value: 4, unit: 'ppm' },
      checklist: [{ item: '', isMandatory: true }],
      colour: 'red',
      version: 2,
      reason: 'x',
    });
    expect(bad.status).toBe(422);
    // The unknown key is reported under its own name.
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'checklist[0].item',
      'colour',
      'visibleResidueLimit.unit',
    ]);
    expect(
      (await t.call('POST', path, { minimumLightLux: 800, version: 1, reason: 'x' })).status,
    ).toBe(409);
  });
});
