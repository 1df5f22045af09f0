import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';

const t = useFacilityTestServer();
let fine: number;
let blind: number;
let unused: number;
let keen: number;

async function create(path: string, body: unknown): Promise<number> {
  const res = await t.call('POST', `${t.F}/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
  const result = res.body.result as { id: number } | { id: number }[];
  return Array.isArray(result) ? result[0]!.id : result.id;
}

/**
 * The MAC test facility (mac-test-data.ts). Line 1: B → A is its tightest pair, PDE 0.001 mg ×
 * 50 000 000 mg / 200 mg = 250 mg (under 10 ppm × 50 kg = 500 mg), over E1 + E2 = 130 000 sqcm.
 * E2 (5 000 sqcm) rinsed on its own in 1 L: 250 / 130 000 × 5 000 / 1000 = 0.009615… mg/ml;
 * swabbed over 25 sqcm: 250 / 130 000 × 25 = 0.04808… mg/swab. Line 2's E3 is looser:
 * D → C, 200 mg over 10 000 sqcm in 1 L = 0.2 mg/ml.
 */
beforeAll(async () => {
  await buildMacFacility(t.server, t.facilityId);
  const items = await t.server.db.query<{ id: number; name: string }>(
    `select id, name from equipment where facility_id = $1 and name in ('E2', 'E3')`,
    [t.facilityId],
  );
  fine = await create('analytical-method', {
    name: 'TOC fine',
    testType: 'TOC',
    loq: { value: 0.005, unit: 'mg/ml' },
  });
  blind = await create('analytical-method', {
    name: 'TOC blind',
    testType: 'TOC',
    loq: { value: 10, unit: 'ppm' },
  });
  unused = await create('analytical-method', {
    name: 'TOC spare',
    testType: 'TOC',
    loq: { value: 1, unit: 'ppm' },
  });
  keen = await create('analytical-method', {
    name: 'TOC keen',
    testType: 'TOC',
    loq: { value: 0.001, unit: 'mg/ml' },
  });
  // The facility's seeded sampling types: a swab over 25 sqcm (no extraction volume), a 1 L rinse.
  const types = await t.call('GET', `${t.F}/sampling-types`);
  const typeId = (name: string) =>
    (types.body.data as { id: number; name: string }[]).find((x) => x.name === name)!.id;
  for (const { id: equipmentId, name } of items) {
    const rinse = await create(`equipments/${equipmentId}/sampling-locations`, {
      data: { name: `${name} rinse`, sampleType: 'rinse', samplingTypeId: typeId('Rinse') },
    });
    const swab = await create(`equipments/${equipmentId}/sampling-locations`, {
      data: { name: `${name} outlet`, sampleType: 'swab', samplingTypeId: typeId('Swab') },
    });
    if (name === 'E3')
      await create(`equipments/${equipmentId}/sampling-locations/${rinse}/samples`, {
        name: `${name} R keen`,
        sampleType: 'rinse',
        analyticalMethodId: keen,
      });
    for (const methodId of [fine, blind]) {
      await create(`equipments/${equipmentId}/sampling-locations/${rinse}/samples`, {
        name: `${name} R ${methodId}`,
        sampleType: 'rinse',
        analyticalMethodId: methodId,
      });
    }
    await create(`equipments/${equipmentId}/sampling-locations/${swab}/samples`, {
      name: `${name} S`,
      sampleType: 'swab',
      analyticalMethodId: fine,
    });
  }
});

const fit = (id: number, as?: string) =>
  t.call('GET', `${t.F}/analytical-method/${id}/limit-fit`, undefined, as);

describe('GET {F}/analytical-method/{id}/limit-fit', () => {
  it('is refused without the AnalyticalMethod Get permission', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ EquipmentWiseCleaningLimit: ['Get'], SwabLocation: ['Get'] }),
    });
    const res = await fit(fine, await t.server.login(user.username, user.password));
    expect(res.status).toBe(403);
  });

  it('answers 404 for a method that does not exist', async () => {
    expect((await fit(999_999)).status).toBe(404);
  });

  it('gives the tightest rinse limit and an LOQ below it', async () => {
    const res = await fit(fine);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ methodName: 'TOC fine', isUsed: true });
    // E2 is tighter than E3 (0.2 mg/ml).
    expect(res.body.rinse).toMatchObject({
      equipmentName: 'E2',
      pair: ['B', 'A'],
      unit: 'mg/ml',
      loq: 0.005,
      canDetect: true,
      sampleCount: 2,
    });
    expect(res.body.rinse.limit).toBeCloseTo(((250 / 130_000) * 5_000) / 1000, 10);
    // The swab limit is known; an LOQ in mg/ml needs the swab extraction volume to compare.
    expect(res.body.swab.limit).toBeCloseTo((250 / 130_000) * 25, 10);
    expect(res.body.swab).toMatchObject({ equipmentName: 'E2', loq: null, canDetect: null });
    expect(res.body.swab.note).toMatch(/extraction volume/);
  });

  it('flags an LOQ above the tightest rinse limit', async () => {
    const res = await fit(blind);
    expect(res.status).toBe(200);
    // 10 ppm = 10 mg/L = 0.01 mg/ml, above 0.009615 mg/ml.
    expect(res.body.rinse).toMatchObject({ equipmentName: 'E2', loq: 0.01, canDetect: false });
    expect(res.body.swab).toMatchObject({ limit: null, sampleCount: 0, canDetect: null });
  });

  it('says a method is not used anywhere', async () => {
    const res = await fit(unused);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isUsed: false, loq: { value: 1, unit: 'ppm' } });
    for (const side of [res.body.swab, res.body.rinse]) {
      expect(side).toMatchObject({ limit: null, equipmentName: null, canDetect: null });
    }
  });

  it('lists every location limit the method cannot show, with the pair and the reason', async () => {
    const res = await fit(blind);
    expect(res.status).toBe(200);
    // E2's rinse (0.009615… mg/ml) is below 10 ppm = 0.01 mg/ml; E3's (0.2 mg/ml) is not.
    expect(res.body.unreachable).toEqual([
      {
        samplingLocationId: expect.any(Number),
        samplingLocationName: 'E2 rinse',
        equipmentId: expect.any(Number),
        equipmentName: 'E2',
        sampleType: 'rinse',
        limit: expect.closeTo(((250 / 130_000) * 5_000) / 1000, 10),
        unit: 'mg/ml',
        pair: 'B → A',
        reason:
          'TOC blind cannot show the limit: its LOQ 0.01 mg/ml ÷ 100 % = 0.01 mg/ml is above the limit of 0.009615 mg/ml',
      },
    ]);
  });

  it('names a swab LOQ that cannot be expressed per swab at every swab location', async () => {
    const res = await fit(fine);
    expect(res.status).toBe(200);
    const rows = res.body.unreachable as Record<string, unknown>[];
    expect(rows.map((r) => [r.samplingLocationName, r.sampleType, r.pair])).toEqual([
      ['E2 outlet', 'swab', 'B → A'],
      ['E3 outlet', 'swab', 'D → C'],
    ]);
    expect(rows[0]!.limit).toBeCloseTo((250 / 130_000) * 25, 10);
    expect(rows[0]!.reason).toBe(
      "TOC fine cannot show the limit: its LOQ of 0.005 mg/ml cannot be expressed per swab: state it in mg/swab or µg/swab on the method, or give the swab's sampling type an extraction volume",
    );
  });

  it('lists nothing for a method that can show every limit it is used for', async () => {
    const res = await fit(keen);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isUsed: true, unreachable: [] });
    expect((await fit(unused)).body.unreachable).toEqual([]);
  });
});

/**
 * A method that measures total organic carbon: its LOQ is carbon, so it meets a limit set for the
 * active as LOQ ÷ the carbon fraction of the actives made on the item (the lowest). Alpha 0.6 and
 * Beta 0.5 on E2 (A, B): 0.005 mg/ml of carbon ÷ 0.5 = 0.01 mg/ml of active, above E2's
 * 0.009615 mg/ml, though 0.005 alone is below it. Gamma 0.25 and Beta on E3 (C, D):
 * 0.005 ÷ 0.25 = 0.02 mg/ml, under E3's 0.2 mg/ml.
 */
describe('the limit fit of a method that measures total organic carbon', () => {
  let carbon: number;
  const activeId = async (name: string) =>
    (
      await t.server.db.query<{ id: number }>(
        'select id from actives where facility_id = $1 and name = $2',
        [t.facilityId, name],
      )
    )[0]!.id;
  async function carbonFraction(name: string, value: number | null) {
    const id = await activeId(name);
    const current = await t.call('GET', `${t.F}/apis/${id}`);
    const record = (current.body.result ?? current.body) as { version: number };
    const res = await t.call('POST', `${t.F}/apis/${id}`, {
      reason: 'Carbon fraction from the molecular formula',
      version: record.version,
      carbonFraction: value,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  beforeAll(async () => {
    carbon = await create('analytical-method', {
      name: 'TOC carbon',
      testType: 'TOC',
      loq: { value: 0.005, unit: 'mg/ml' },
    });
    const locations = await t.server.db.query<{ id: number; equipment_id: number }>(
      `select l.id, l.equipment_id from sampling_locations l join equipment e on e.id = l.equipment_id
        where l.facility_id = $1 and l.name in ('E2 rinse', 'E3 rinse')`,
      [t.facilityId],
    );
    for (const location of locations)
      await create(
        `equipments/${location.equipment_id}/sampling-locations/${location.id}/samples`,
        {
          name: `R carbon ${location.id}`,
          sampleType: 'rinse',
          analyticalMethodId: carbon,
        },
      );
    const measure = await t.call('GET', `${t.F}/analytical-method/${carbon}/residue-measure`);
    const set = await t.call('PUT', `${t.F}/analytical-method/${carbon}/residue-measure`, {
      residueMeasure: 'toc',
      version: measure.body.version,
      reason: 'Validated as a TOC method',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await carbonFraction('Alpha', 0.6);
    await carbonFraction('Beta', 0.5);
    await carbonFraction('Gamma', 0.25);
  });

  it('compares LOQ ÷ carbon fraction with the tightest limit, and shows the conversion', async () => {
    const res = await fit(carbon);
    expect(res.status).toBe(200);
    expect(res.body.rinse).toMatchObject({
      equipmentName: 'E2',
      pair: ['B', 'A'],
      loq: expect.closeTo(0.01, 12),
      canDetect: false,
      loqConversion: 'As active: 0.005 mg/ml of carbon ÷ carbon fraction 0.5 = 0.01 mg/ml',
    });
    expect(res.body.rinse.limit).toBeCloseTo(((250 / 130_000) * 5_000) / 1000, 10);
    expect(res.body.unreachable).toEqual([
      expect.objectContaining({
        samplingLocationName: 'E2 rinse',
        reason:
          'TOC carbon cannot show the limit: its LOQ 0.005 mg/ml ÷ carbon fraction 0.5 ÷ 100 % = 0.01 mg/ml is above the limit of 0.009615 mg/ml',
      }),
    ]);
  });

  it('cannot show a limit where an active made on the item states no carbon fraction', async () => {
    await carbonFraction('Gamma', null);
    const res = await fit(carbon);
    expect(res.status).toBe(200);
    // E3 cannot be converted at all: it is the hardest limit for this method.
    expect(res.body.rinse).toMatchObject({ equipmentName: 'E3', loq: null, canDetect: false });
    expect(res.body.rinse.note).toMatch(/carbon fraction is not stated/);
    expect(
      (res.body.unreachable as { samplingLocationName: string; reason: string }[]).map((r) => [
        r.samplingLocationName,
        /carbon fraction is not stated/.test(r.reason),
      ]),
    ).toEqual([
      ['E2 rinse', false],
      ['E3 rinse', true],
    ]);
    await carbonFraction('Gamma', 0.25);
  });
});
