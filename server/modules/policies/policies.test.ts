import { describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

describe('cleaning limit policies', () => {
  it('are refused without the CleaningPolicy permission', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    expect((await t.call('GET', `${t.F}/cleaning_limit_policies`, undefined, as)).status).toBe(403);
    expect(
      (
        await t.call(
          'POST',
          `${t.F}/cleaning_limit_policies`,
          { residueType: 'Chemical', reason: 'x', useLd50: true },
          as,
        )
      ).status,
    ).toBe(403);
  });

  it('start from the defaults of spec §3, one per residue type', async () => {
    const res = await t.call('GET', `${t.F}/cleaning_limit_policies`);
    expect(res.body.policies.map((p: Body) => p.residueType)).toEqual([
      'Chemical',
      'Detergent',
      'Intermediate',
      'Nitrosamine',
    ]);
    const chemical = await t.call('GET', `${t.F}/cleaning_limit_policies/Chemical`);
    // A controlled record from the start: the defaults are its version 1, in force.
    expect(chemical.body).toMatchObject({
      id: expect.any(Number),
      version: 1,
      status: 'Approved',
      signatureState: 'Signed',
      versionNumber: 1,
      safetyFactor: 1000,
      modificationFactor: 1,
      policy: {
        arl: { value: 10, unit: 'ppm' },
        residueLimit: { value: 10, unit: 'mg/sqcm' },
        globalRecoveryPercentage: 100,
        swabSampleLimit: 10,
        rinseSampleLimit: 10,
        limitRepresentation: { productAndEquipmentLimits: { salMassUnit: 'mg' } },
      },
    });
    expect(
      (await t.call('GET', `${t.F}/intermediate-cleaning-limit-policies`)).body.policy,
    ).toMatchObject({
      residueType: 'Intermediate',
      safetyFactor: 1000,
      policy: { activesArl: { value: 10, unit: 'ppm' } },
    });
  });

  it('change with a reason and a version, audited field by field, and refuse bad values and stale edits', async () => {
    const first = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useGlobalRecoveryPercentage: true,
      globalRecoveryPercentage: 80,
      version: 1,
      reason: 'Recovery study VR-12',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      version: 2,
      status: 'BeingBuilt',
      signatureState: null,
      versionNumber: 2,
      policy: { useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 80, useDosage: true },
    });
    const [audit] = await t.server.db.query<Body>(
      `select reason, old_values, new_values from audit_log where domain = 'CleaningPolicy' order by id desc limit 1`,
    );
    expect(audit).toEqual({
      reason: 'Recovery study VR-12',
      old_values: {
        residueType: 'Chemical',
        useGlobalRecoveryPercentage: false,
        globalRecoveryPercentage: 100,
      },
      new_values: {
        residueType: 'Chemical',
        useGlobalRecoveryPercentage: true,
        globalRecoveryPercentage: 80,
      },
    });
    const stale = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      useLd50: true,
      version: 1,
      reason: 'x',
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const bad = await t.call('POST', `${t.F}/cleaning_limit_policies`, {
      residueType: 'Chemical',
      globalRecoveryPercentage: 120,
      safetyFactor: 0.5,
      arl: { value: 10, unit: 'mg' },
      version: 2,
      reason: 'x',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'arl.unit',
      'globalRecoveryPercentage',
      'safetyFactor',
    ]);
    expect(
      (
        await t.call('POST', `${t.F}/cleaning_limit_policies`, {
          residueType: 'Chemical',
          useLd50: true,
        })
      ).status,
    ).toBe(422);
    const fixed = await t.call('POST', `${t.F}/intermediate-cleaning-limit-policies`, {
      safetyFactor: 100,
      version: 1,
      reason: 'x',
    });
    expect(fixed.body.errors[0].property).toBe('safetyFactor');
    expect(
      (await t.call('GET', `${t.F}/cleaning_limit_policies/${first.body.id}`)).body.version,
    ).toBe(2);
  });
});

describe('cleaning limit policy fields in the OpenAPI document', () => {
  it('say what each field does to the numbers, or why it has no effect', async () => {
    const doc = await t.call('GET', '/api/docs/json');
    const body =
      doc.body.paths['/api/v2/plans/{plan}/facilities/{facility}/cleaning_limit_policies'].post
        .requestBody.content['application/json'].schema;
    const props = body.properties;
    expect(props.useSAR.description).toMatch(/SAL × area × recovery \/ rinse volume/);
    expect(props.useProductLimit.description).toMatch(/No effect in this facility/);
    expect(props.ignoreCombo.description).toMatch(/No effect on any number/);
    expect(props.useFixedSampleLimits.description).toMatch(/ceilings/);
    expect(props.swabSampleLimit.description).toMatch(/extraction volume/);
    expect(props.rinseSampleLimit.description).toMatch(/rinse/);
    expect(
      props.limitRepresentation.properties.productAndEquipmentLimits.properties.salMassUnit
        .description,
    ).toMatch(/mg\/sqcm/);
  });

  it('describe every policy field, nested ones too', async () => {
    const doc = await t.call('GET', '/api/docs/json');
    const body =
      doc.body.paths['/api/v2/plans/{plan}/facilities/{facility}/cleaning_limit_policies'].post
        .requestBody.content['application/json'].schema;
    type Schema = { description?: string; properties?: Record<string, Schema> };
    // A field is explained by its own description or, for a group, by each of its fields'.
    const undescribed = (schema: Schema, path: string): string[] =>
      schema.description
        ? []
        : schema.properties
          ? Object.entries(schema.properties).flatMap(([k, v]) => undescribed(v, `${path}.${k}`))
          : [path];
    const fields = Object.entries(body.properties as Record<string, Schema>).filter(
      ([k]) => !['residueType', 'reason', 'version'].includes(k),
    );
    expect(fields.length).toBeGreaterThan(25);
    expect(fields.flatMap(([k, v]) => undescribed(v, k))).toEqual([]);
    const representation = body.properties.limitRepresentation.properties;
    expect(representation.reporting.properties.swab.properties.showSar.description).toMatch(
      /No effect on any number/,
    );
    expect(representation.sampleLimits.properties.rinse.properties.unit.description).toMatch(
      /rinseSampleLimit/,
    );
  });
});
