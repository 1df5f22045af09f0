import { describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';

/*
 * A plain read of a controlled record answers the version in force (issue 26, "One truth"):
 * the inspection settings a run pins and the limit policy the limits use, never the draft being
 * built; the draft is the separate read `version=draft`, which the editing forms use.
 */

const t = useFacilityTestServer();

const read = async (path: string, query = '') => {
  const res = await t.call('GET', `${t.F}/${path}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('a controlled record read', () => {
  it('answers the approved inspection settings while a draft is being built', async () => {
    const path = 'cleaning-inspection-settings';
    const before = await read(path);
    expect(before).toMatchObject({
      status: 'Approved',
      versionNumber: 1,
      inForceVersionNumber: 1,
      draftVersionNumber: null,
      cleaningInspectionSettings: { minimumLightLux: 500 },
    });
    // With nothing in progress the draft read answers the version in force.
    expect(await read(path, '?version=draft')).toEqual(before);
    const saved = await t.call('POST', `${t.F}/${path}`, {
      minimumLightLux: 600,
      version: before.version,
      reason: 'Brighter inspection booth',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      status: 'BeingBuilt',
      versionNumber: 2,
      inForceVersionNumber: 1,
      draftVersionNumber: 2,
    });
    const inForce = await read(path);
    const draft = await read(path, '?version=draft');
    // The case the issue measured: 600 lux being built, 500 lux enforced.
    expect(inForce).toMatchObject({
      status: 'Approved',
      versionNumber: 1,
      version: 2,
      cleaningInspectionSettings: { minimumLightLux: 500 },
    });
    expect(draft).toMatchObject({
      status: 'BeingBuilt',
      versionNumber: 2,
      version: 2,
      cleaningInspectionSettings: { minimumLightLux: 600 },
    });
    for (const body of [inForce, draft])
      expect(body).toMatchObject({ inForceVersionNumber: 1, draftVersionNumber: 2 });

    await putInForce(t.server, t.F, adminEditor(t.token), 'CleaningInspectionSettings', before.id);
    const approved = await read(path);
    expect(approved).toMatchObject({
      status: 'Approved',
      versionNumber: 2,
      inForceVersionNumber: 2,
      draftVersionNumber: null,
      cleaningInspectionSettings: { minimumLightLux: 600 },
    });
    expect(await read(path, '?version=draft')).toEqual(approved);
  });

  it('answers the approved cleaning limit policy, alone, in the list and as of a moment', async () => {
    const one = (query = '') => read('cleaning_limit_policies/Chemical', query);
    const before = await one();
    expect(before).toMatchObject({ status: 'Approved', policy: { useARL: true } });
    const beforeAt = new Date().toISOString();
    const saved = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useARL: false,
      version: before.version,
      reason: 'General limit not applied to this site',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const inForce = {
      status: 'Approved',
      versionNumber: before.versionNumber,
      draftVersionNumber: before.versionNumber + 1,
      policy: { useARL: true },
    };
    expect(await one()).toMatchObject(inForce);
    const list = (await read('cleaning_limit_policies')).policies as Body[];
    expect(list.find((p) => p.residueType === 'Chemical')).toMatchObject(inForce);
    expect(await one('?version=draft')).toMatchObject({
      status: 'BeingBuilt',
      versionNumber: before.versionNumber + 1,
      policy: { useARL: false },
    });
    // Before the edit nothing was in progress; now the draft exists but is not in force.
    const now = new Date().toISOString();
    expect(await one(`?asOf=${beforeAt}`)).toMatchObject({
      versionNumber: before.versionNumber,
      draftVersionNumber: null,
      policy: { useARL: true },
    });
    expect(await one(`?asOf=${now}`)).toMatchObject(inForce);
    expect(await one(`?asOf=${now}&version=draft`)).toMatchObject({ policy: { useARL: false } });
    const bad = await t.call('GET', `${t.F}/cleaning_limit_policies/Chemical?version=latest`);
    expect(bad.status).toBe(422);
  });
});
