import { describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

/**
 * A read without the state of the controlled versions, which a kept row does not hold (nor which
 * version is in force and which is a draft: issue 26), nor the integrity of the version in force,
 * which is checked as it is read, not kept.
 */
const fieldsOf = ({
  status: _s,
  signatureState: _g,
  versionNumber: _n,
  inForceVersionNumber: _f,
  draftVersionNumber: _d,
  integrity: _i,
  integrityReason: _r,
  ...fields
}: Body) => fields;

describe('versions of the cleaning limit policies and facility rules', () => {
  it('list each change of a limit policy, by residue type or id, as the policy read gave it', async () => {
    // Every facility starts from its defaults, stored with the facility.
    const start = await t.call('GET', `${t.F}/cleaning_limit_policies/Chemical`);
    expect((await t.call('GET', `${t.F}/cleaning_limit_policies/Chemical/versions`)).body).toEqual({
      versions: [expect.objectContaining({ version: 1, values: fieldsOf(start.body) })],
    });
    const one = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useLd50: true,
      version: 1,
      reason: 'LD50 known',
    });
    expect(one.status).toBe(200);
    const two = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      swabSampleLimit: 5,
      version: 2,
      reason: 'Tighter swab limit',
    });
    expect(two.status).toBe(200);
    const byType = await t.call('GET', `${t.F}/cleaning_limit_policies/chemical/versions`);
    expect(byType.status).toBe(200);
    expect(byType.body.versions.map((v: Body) => v.version)).toEqual([1, 2, 3]);
    expect(byType.body.versions[1].values).toEqual(fieldsOf(one.body));
    expect(byType.body.versions[2].values).toEqual(fieldsOf(two.body));
    expect(byType.body.versions[2].recordedBy.name).toEqual(expect.any(String));
    // The defaults are version 1, in force from the start; the two edits build version 2.
    expect(byType.body.versions.map((v: Body) => [v.versionNumber, v.status])).toEqual([
      [1, 'Approved'],
      [2, 'BeingBuilt'],
      [2, 'BeingBuilt'],
    ]);
    const byId = await t.call('GET', `${t.F}/cleaning_limit_policies/${one.body.id}/versions`);
    expect(byId.body).toEqual(byType.body);
    const [microbialRow] = await t.server.db.query<{ id: number }>(
      `select id from cleaning_limit_policies where residue_type = 'Microbial' limit 1`,
    );
    for (const unknown of ['999999', 'Solvent', '99999999999', String(microbialRow!.id)])
      expect(
        (await t.call('GET', `${t.F}/cleaning_limit_policies/${unknown}/versions`)).status,
      ).toBe(404);
  });

  it('list each change of the microbial policy and the inspection settings', async () => {
    const microbial = `${t.F}/microbial-cleaning-limit-policies`;
    const defaults = await t.call('GET', microbial);
    expect((await t.call('GET', `${microbial}/versions`)).body.versions).toEqual([
      expect.objectContaining({ version: 1, values: fieldsOf(defaults.body) }),
    ]);
    const changed = await t.call('POST', microbial, { rinseLimit: 10, version: 1, reason: 'WFI' });
    expect(changed.status).toBe(200);
    const kept = await t.call('GET', `${microbial}/versions`);
    expect(kept.body.versions).toHaveLength(2);
    expect(kept.body.versions[1]).toMatchObject({ version: 2, archived: false });
    expect(kept.body.versions[1].values).toEqual(fieldsOf(changed.body));

    const inspection = `${t.F}/cleaning-inspection-settings`;
    const start = await t.call('GET', inspection);
    const first = await t.call('POST', inspection, {
      dirtyHoldTimeHours: 48,
      version: 1,
      reason: 'DHT study',
    });
    const second = await t.call('POST', inspection, {
      dirtyHoldTimeHours: 72,
      version: 2,
      reason: 'DHT study extended',
    });
    expect(second.status).toBe(200);
    const settings = await t.call('GET', `${inspection}/versions`);
    expect(settings.body.versions.map((v: Body) => v.values)).toEqual(
      [start.body, first.body, second.body].map(fieldsOf),
    );
  });

  it('are refused without the CleaningPolicy permission', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    for (const path of [
      'cleaning_limit_policies/Chemical/versions',
      'microbial-cleaning-limit-policies/versions',
      'cleaning-inspection-settings/versions',
    ])
      expect((await t.call('GET', `${t.F}/${path}`, undefined, as)).status, path).toBe(403);
  });
});
