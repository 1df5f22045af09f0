import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Issue 31, "The changeover decision": GET {F}/changeovers over HTTP on a real database, with
 * the small MAC facility (Line 1: E1 and E2, products A and B; E1 has the swab locations).
 */

const t = useFacilityTestServer();
const kit = runKit(t);
let f: RunFacility;
let line1: number;
let a: number;
let b: number;
let c: number;

beforeAll(async () => {
  f = await kit.build();
  [a, b] = f.productIds as [number, number];
  const id = async (table: string, name: string) =>
    (
      await t.server.db.query<{ id: number }>(
        `select id from ${table} where facility_id = $1 and name = $2`,
        [t.facilityId, name],
      )
    )[0]!.id;
  line1 = await id('productions', 'Line 1');
  c = await id('products', 'C');
});

const changeover = (from: number | string, to: number | string, production: number | string) =>
  t.call('GET', `${t.F}/changeovers?from=${from}&to=${to}&production=${production}`);

async function decision(from: number, to: number): Promise<Body> {
  const res = await changeover(from, to, line1);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The pair as the production's MAC matrix has it. */
async function matrixPair(previous: string, next: string): Promise<Body> {
  const res = await t.call(
    'GET',
    `${t.F}/mac-matrix/pairs?productionId=${line1}&previous=${previous}&next=${next}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0];
}

const validate = (studyId: number, closedAt = 'now()') =>
  t.server.db.query(
    `update studies set outcome = 'Validated', closed_at = ${closedAt} where id = $1`,
    [studyId],
  );

describe('GET {F}/changeovers', () => {
  it('answers the MAC matrix’s limits for the pair and asks for verification when no study covers it', async () => {
    const answer = await decision(a, b);
    const pair = await matrixPair('A', 'B');
    // Each limit of the answer is the matrix's, by its name there.
    const names = { maco: 'maco', sal: 'sal', swab: 'swabLimit', rinse: 'rinseLimit' } as const;
    for (const [mine, matrix] of Object.entries(names))
      expect(answer.limits[mine], mine).toEqual(pair[matrix] ?? null);
    expect(answer.limits.governing).toBe(pair.governing);
    expect(answer.limits.governingActive).toBe(pair.governingActive);
    expect(answer.limits.swab).toMatchObject({ unit: 'mg/swab' });
    expect(answer.limits.maco).toMatchObject({ unit: 'mg' });
    expect(answer.limits.governing).not.toBeNull();
    expect(answer).toMatchObject({
      validated: false,
      verificationRequired: true,
      cleaningProcedureId: null,
    });
    expect(answer.reasons).toEqual([
      'No study covers the cleaning of E1 after A',
      'No study covers the cleaning of E2 after A',
      'No approved protocol covers the cleaning after A',
    ]);
    // No protocol: the items' own sampling locations, each with the pair's swab limit and the
    // matrix's swab recovery (no method names one).
    const asMatrix = {
      limit: pair.swabLimit ?? null,
      recovery: 1,
      recoverySource: "the facility's swab recovery, as in the MAC matrix",
    };
    expect(answer.samplingPlan).toEqual([
      { samplingLocationId: f.steel, sampleType: 'swab', analyticalMethodId: null, ...asMatrix },
      { samplingLocationId: f.ptfe, sampleType: 'swab', analyticalMethodId: null, ...asMatrix },
    ]);
  });

  it('says which items a study in progress leaves uncovered, and follows its protocol', async () => {
    // Covers E1 only (its sampling plan is on E1), for A and B, and is not yet Validated.
    const study = await kit.study();
    const [row] = await t.server.db.query<{ seq: number }>(
      'select seq from studies where id = $1',
      [study],
    );
    const number = `ST-${String(row!.seq).padStart(4, '0')}`;
    const answer = await decision(a, b);
    expect(answer.validated).toBe(false);
    expect(answer.reasons).toEqual([
      `Study ${number} covering E1 after A is On Going, not Validated`,
      'No study covers the cleaning of E2 after A',
    ]);
    expect(answer.samplingPlan.map((s: Body) => s.analyticalMethodId)).toEqual([
      f.method,
      f.method,
    ]);
  });

  it('covers a product through the product group its study names: the worst case stands for the group', async () => {
    const group = async (name: string, productIds: number[]) => {
      const res = await t.call('POST', `${t.F}/product_groups`, { name, productIds });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.id as number;
    };
    // A Validated study of B and a group without A: A is not covered.
    const without = await group('Bracket without A', [c]);
    await validate(
      await kit.study({ productionId: line1, productIds: [b], productGroupId: without }),
    );
    expect((await decision(a, b)).validated).toBe(false);

    // A Validated study of the group A belongs to covers the changeover after A on every item.
    const bracket = await group('Bracket of A', [a, c]);
    const study = await kit.study({
      productionId: line1,
      productIds: [b],
      productGroupId: bracket,
    });
    await validate(study);
    const answer = await decision(a, b);
    expect(answer).toMatchObject({ validated: true, verificationRequired: false, reasons: [] });
    expect(answer.samplingPlan.map((s: Body) => s.analyticalMethodId)).toEqual([
      f.method,
      f.method,
    ]);

    // An archived group no longer stands for its products.
    const archived = await t.call('PUT', `${t.F}/product_groups/${bracket}/archive`, {
      reason: 'Bracketing withdrawn',
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    const withdrawn = await decision(a, b);
    expect(withdrawn.validated).toBe(false);
    expect(withdrawn.reasons).toContain('No study covers the cleaning of E2 after A');
  });

  it('is validated when a Validated study covers every item of the production for the product', async () => {
    const study = await kit.study({ productionId: line1 });
    await validate(study);
    const answer = await decision(b, a);
    const pair = await matrixPair('B', 'A');
    expect(answer).toMatchObject({ validated: true, verificationRequired: false, reasons: [] });
    expect(answer.limits.maco).toEqual(pair.maco);
    // The protocol's method recovers 80 % from the valve's steel: the run divides a result there
    // by 0.8, so the sheet's limit for what is measured is the pair's swab limit × 0.8
    // (0.0480769 × 0.8 = 0.0384615 mg/swab). The PTFE gasket has no recovery of its own and
    // keeps the matrix's.
    expect(answer.samplingPlan).toEqual([
      {
        samplingLocationId: f.steel,
        sampleType: 'swab',
        analyticalMethodId: f.method,
        limit: { value: expect.closeTo(0.0384615385, 9), unit: 'mg/swab' },
        recovery: 0.8,
        recoverySource: 'HPLC-1 on Stainless steel 316L',
      },
      {
        samplingLocationId: f.ptfe,
        sampleType: 'swab',
        analyticalMethodId: f.method,
        limit: pair.swabLimit ?? null,
        recovery: 1,
        recoverySource: "the facility's swab recovery, as in the MAC matrix",
      },
    ]);
    expect(pair.swabLimit.value).toBeCloseTo(0.0480769231, 9);

    // Past its periodic verification (365 days), it no longer covers the changeover.
    await validate(study, `now() - interval '400 days'`);
    const overdue = await decision(b, a);
    expect(overdue.verificationRequired).toBe(true);
    expect(overdue.reasons[0]).toMatch(/^Study ST-\d{4} covering E1 after B is overdue/);
    await validate(study);
  });

  it('answers a campaign (the same product again) without limits, judged for coverage alike', async () => {
    const answer = await decision(b, b);
    expect(answer.limits).toEqual({
      maco: null,
      sal: null,
      swab: null,
      rinse: null,
      governing: null,
      governingActive: null,
    });
    expect(answer).toMatchObject({ validated: true, verificationRequired: false, reasons: [] });
    expect(answer.samplingPlan.map((s: Body) => s.limit)).toEqual([null, null]);
  });

  it('answers 404 for unknown ids or a pair the production does not make, 4xx for bad ids', async () => {
    expect((await changeover(99_999_999, b, line1)).status).toBe(404);
    expect((await changeover(a, 99_999_999, line1)).status).toBe(404);
    expect((await changeover(a, b, 99_999_999)).status).toBe(404);
    const notOnLine = await changeover(a, c, line1);
    expect(notOnLine.status).toBe(404);
    expect(notOnLine.body.message).toContain('A and C are not both made on this production');
    for (const bad of [changeover('x', b, line1), changeover(a, -1, line1)]) {
      const res = await bad;
      expect([400, 422]).toContain(res.status);
      expect(res.body.errName).toBeTruthy();
    }
  });
});

describe('GET {F}/changeovers, per-location swab areas', () => {
  it('gives a location swabbed over its own area the limit of that area; the others keep the facility swab’s', async () => {
    const [e1] = await t.server.db.query<{ id: number }>(
      'select equipment_id as id from sampling_locations where id = $1',
      [f.steel],
    );
    const locations = `${t.F}/equipments/${e1!.id}/sampling-locations`;
    const current = await t.call('GET', `${locations}/${f.steel}`);
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    const res = await t.call('PUT', `${locations}/${f.steel}`, {
      data: { swabArea: { value: 2, unit: 'sqin' } },
      reason: 'Valve swabbed over a 2 in² template',
      version: current.body.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // By hand: B → A on Line 1 is governed by Beta's PDE, MACO = 0.001 mg × 50 kg ÷ 200 mg
    // = 250 mg, spread over E1 and E2 (125,000 + 5,000 cm²): SAL = 250 ÷ 130,000 =
    // 0.0019230769 mg/cm². The facility's swab (its Swab sampling type, 25 cm², no recovery
    // applied by the policy) gives 0.0480769 mg/swab; the valve's own 2 in² = 12.9032 cm²,
    // recovered 80 % by the protocol's method, gives 0.0019230769 × 12.9032 × 0.8 =
    // 0.0198511 mg/swab (the run's limit there, 0.0248138, with the result divided by 0.8).
    const answer = await decision(b, a);
    expect(answer.limits.maco).toEqual({ value: 250, unit: 'mg' });
    expect(answer.limits.sal.value).toBeCloseTo(250 / 130_000, 12);
    expect(answer.limits.swab.value).toBeCloseTo(0.0480769231, 9);
    const limitAt = (location: number) =>
      answer.samplingPlan.find((s: Body) => s.samplingLocationId === location).limit;
    expect(limitAt(f.steel).unit).toBe('mg/swab');
    expect(limitAt(f.steel).value).toBeCloseTo(0.0198510769, 9);
    expect(limitAt(f.ptfe)).toEqual(answer.limits.swab);
  });
});
