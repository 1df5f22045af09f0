import { beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '#core/units/format-number.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { signIntoForce } from '#server/test/factories/signed-record.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Protocols that cannot be inconsistent (core/verification/README.md, "Protocol"), over HTTP on
 * the small MAC facility: Line 1 is E1 and E2 making A and B, Line 2 is E3 making C and D. Valve
 * (steel) is a swab location on E1, Drain a rinse location on E1 (steel, the 1 L Rinse type).
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { ok, call } = kit;
let f: RunFacility;
type Named =
  'E1' | 'E2' | 'E3' | 'A' | 'B' | 'C' | 'line1' | 'line2' | 'drain' | 'train' | 'draftTrain';
type Method = 'rinseMethod' | 'swabMethod' | 'coarse' | 'fine' | 'betterRecovered';
/** Ids of the facility's records, by the names the tests use. */
const id = {} as Record<Named | Method, number>;
/** The rinse limit at Drain from the kit's snapshot (mg/ml), as a run of the study reads it. */
let drainLimit: number;
let seq = 0;

async function byName(path: string, name: string): Promise<number> {
  const res = await call('GET', `/${path}?search=${encodeURIComponent(name)}&pageLimit=100`);
  return (res.body.data as Body[]).find((r) => r.name === name)!.id as number;
}

const method = async (name: string, body: Record<string, unknown>) =>
  (await ok('POST', '/analytical-method', { name, testType: 'TOC', ...body })).result.id as number;

const saveProtocol = (body: Record<string, unknown>) => {
  seq += 1;
  return call('POST', '/protocols', {
    protocolNumber: `PC-${seq}`,
    name: `Protocol ${seq}`,
    ...body,
  });
};

const planRow = (location: number, sampleType: string, methodId: number) => ({
  samplingLocationId: location,
  sampleType,
  analyticalMethodId: methodId,
});

beforeAll(async () => {
  f = await kit.build();
  for (const name of ['E1', 'E2', 'E3'] as const) id[name] = await byName('equipments', name);
  for (const name of ['A', 'B', 'C'] as const) id[name] = await byName('products', name);
  id.line1 = await byName('productions', 'Line 1');
  id.line2 = await byName('productions', 'Line 2');
  id.train = (
    await ok('POST', '/equipment-trains', { name: 'Coating train', equipmentIds: [id.E2] })
  ).result.id;
  // A protocol names a train's version in force: the train is approved first (issue 32).
  await signIntoForce(
    t.server,
    { planId: t.planId, facilityId: t.facilityId },
    { documentType: 'EquipmentTrain', documentId: id.train },
  );
  // A train never approved: nothing is planned on its draft.
  id.draftTrain = (
    await ok('POST', '/equipment-trains', { name: 'Draft train', equipmentIds: [id.E2] })
  ).result.id;
  const rinseType = await byName('sampling-types', 'Rinse');
  const drain = await ok('POST', `/equipments/${id.E1}/sampling-locations`, {
    equipmentId: id.E1,
    data: [
      {
        name: 'Drain',
        sampleType: 'rinse',
        samplingTypeId: rinseType,
        material: 'Stainless steel 316L',
      },
    ],
  });
  id.drain = drain.result[0].id;
  id.rinseMethod = await method('TOC-R', { sampleType: 'rinse' });
  id.swabMethod = await method('TOC-S', { sampleType: 'swab' });
  // The limit a run judges Drain against: read from a run of a study of a plain protocol.
  const run = await kit.newRun(
    await kit.study({ samplingPlan: [planRow(id.drain, 'rinse', f.otherMethod)] }),
  );
  drainLimit = (run.plan as Body[]).find((p) => p.samplingLocationId === id.drain)!.limit;
  expect(drainLimit).toBeGreaterThan(0);
  // Methods by their LOQ as a multiple of that limit, recovering 80 % or 95 % from steel.
  const byLoq = (name: string, times: number, recoveryPercentage: number) =>
    method(name, {
      loq: { value: drainLimit * times, unit: 'mg/ml' },
      recoveries: [{ material: 'Stainless steel 316L', recoveryPercentage }],
    });
  id.coarse = await byLoq('TOC-coarse', 0.9, 80);
  id.fine = await byLoq('TOC-fine', 0.7, 80);
  id.betterRecovered = await byLoq('TOC-recovered', 0.9, 95);
});

const mg = (value: number) => `${formatNumber(value)} mg/ml`;

describe('a protocol is refused with field errors', () => {
  const error = (property: string, rule: string, message: string) => ({
    property,
    constraints: { [rule]: message },
  });
  const outsideTrain = (property: string, name: string) =>
    error(property, 'train', `${name} the production Line 1`);
  const offEquipment = (row: number, location: string) =>
    error(
      `samplingPlan[${row}].samplingLocationId`,
      'equipment',
      `${location} is on E1, which is not among the protocol's equipment`,
    );
  const onMethod = (rule: string, message: string) =>
    error('samplingPlan[0].analyticalMethodId', rule, message);
  // LOQ 0.9 × L ÷ 80 % = 1.125 × L, above the limit L.
  const coarseAtDrain = () =>
    onMethod(
      'methodFit',
      `TOC-coarse cannot show the limit: its LOQ ${mg(drainLimit * 0.9)} ÷ 80 % = ${mg(drainLimit * 1.125)} is above the limit of ${mg(drainLimit)}`,
    );
  const cases: {
    name: string;
    body: () => Record<string, unknown>;
    errors: () => { property: string; constraints: Record<string, string> }[];
  }[] = [
    {
      name: 'equipment outside the train',
      body: () => ({ productionId: id.line1, equipmentIds: [id.E1, id.E3] }),
      errors: () => [outsideTrain('equipmentIds[1]', 'E3 is not on')],
    },
    {
      name: 'a product not made on the train',
      body: () => ({ productionId: id.line1, productIds: [id.A, id.C] }),
      errors: () => [outsideTrain('productIds[1]', 'C is not made on')],
    },
    {
      name: "a location on equipment outside the protocol's equipment",
      body: () => ({
        productionId: id.line1,
        equipmentIds: [id.E2],
        samplingPlan: [planRow(f.steel, 'swab', f.otherMethod)],
      }),
      errors: () => [offEquipment(0, 'Valve')],
    },
    {
      name: "a location outside the train's equipment when the protocol lists none",
      body: () => ({
        productionId: id.line2,
        samplingPlan: [planRow(f.steel, 'swab', f.otherMethod)],
      }),
      errors: () => [offEquipment(0, 'Valve')],
    },
    {
      name: 'equipment outside the equipment train the protocol names',
      body: () => ({ productionId: id.line1, trainId: id.train, equipmentIds: [id.E1] }),
      errors: () => [
        error('equipmentIds[0]', 'train', 'E1 is not on the equipment train Coating train'),
      ],
    },
    {
      name: 'an equipment train with no approved version',
      body: () => ({ productionId: id.line1, trainId: id.draftTrain, equipmentIds: [id.E2] }),
      errors: () => [
        error(
          'trainId',
          'approved',
          'The equipment train Draft train has no approved version: approve it before a protocol names it',
        ),
      ],
    },
    {
      name: "a location outside the equipment train's items when the protocol lists none",
      body: () => ({
        trainId: id.train,
        samplingPlan: [planRow(f.steel, 'swab', f.otherMethod)],
      }),
      errors: () => [offEquipment(0, 'Valve')],
    },
    {
      name: "a plan row whose sample type is not the location's",
      body: () => ({ samplingPlan: [planRow(f.steel, 'rinse', f.otherMethod)] }),
      errors: () => [
        error('samplingPlan[0].sampleType', 'sampleType', 'Valve is sampled by swab, not rinse'),
      ],
    },
    {
      name: 'a rinse method for a swab location',
      body: () => ({ samplingPlan: [planRow(f.steel, 'swab', id.rinseMethod)] }),
      errors: () => [onMethod('sampleType', 'TOC-R is a rinse method; Valve is sampled by swab')],
    },
    {
      name: 'a swab method for a rinse location',
      body: () => ({ samplingPlan: [planRow(id.drain, 'rinse', id.swabMethod)] }),
      errors: () => [onMethod('sampleType', 'TOC-S is a swab method; Drain is sampled by rinse')],
    },
    {
      name: 'a method whose LOQ ÷ recovery is above the limit (the latest snapshot)',
      body: () => ({ samplingPlan: [planRow(id.drain, 'rinse', id.coarse)] }),
      errors: () => [coarseAtDrain()],
    },
    {
      name: 'the same, against the snapshot the protocol names',
      body: () => ({
        limitsSnapshotId: f.snapshotId,
        samplingPlan: [planRow(id.drain, 'rinse', id.coarse)],
      }),
      errors: () => [coarseAtDrain()],
    },
    {
      name: 'every problem at once, rows by index',
      body: () => ({
        productionId: id.line1,
        equipmentIds: [id.E3],
        samplingPlan: [
          planRow(f.steel, 'swab', f.otherMethod),
          planRow(id.drain, 'rinse', id.swabMethod),
        ],
      }),
      errors: () => [
        outsideTrain('equipmentIds[0]', 'E3 is not on'),
        offEquipment(0, 'Valve'),
        offEquipment(1, 'Drain'),
        error(
          'samplingPlan[1].analyticalMethodId',
          'sampleType',
          'TOC-S is a swab method; Drain is sampled by rinse',
        ),
      ],
    },
  ];

  it.each(cases)('$name: 422 DataValidationError, nothing saved', async ({ body, errors }) => {
    const before = await t.server.db.query('select count(*)::int as n from protocols');
    const res = await saveProtocol(body());
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.errors).toEqual(errors());
    expect(await t.server.db.query('select count(*)::int as n from protocols')).toEqual(before);
  });
});

describe('a consistent protocol is saved', () => {
  const cases: { name: string; body: () => Record<string, unknown> }[] = [
    {
      name: 'the train narrowed: one of its items and one of its products',
      body: () => ({ productionId: id.line1, equipmentIds: [id.E2], productIds: [id.B] }),
    },
    {
      name: "a location on the train's equipment when the protocol lists none",
      body: () => ({
        productionId: id.line1,
        samplingPlan: [planRow(f.steel, 'swab', id.swabMethod)],
      }),
    },
    {
      name: 'the equipment train’s item, on a production that has it',
      body: () => ({ productionId: id.line1, trainId: id.train, equipmentIds: [id.E2] }),
    },
    {
      // LOQ 0.7 × L ÷ 80 % = 0.875 × L, within the limit.
      name: 'a method whose LOQ ÷ recovery is within the limit',
      body: () => ({ samplingPlan: [planRow(id.drain, 'rinse', id.fine)] }),
    },
    {
      // LOQ 0.9 × L ÷ 95 % = 0.947 × L: the better recovery makes the same LOQ fit.
      name: 'the same LOQ with a better recovery',
      body: () => ({ samplingPlan: [planRow(id.drain, 'rinse', id.betterRecovered)] }),
    },
    {
      name: 'a method that states no sample type serves both',
      body: () => ({
        samplingPlan: [
          planRow(f.steel, 'swab', f.otherMethod),
          planRow(id.drain, 'rinse', f.otherMethod),
        ],
      }),
    },
  ];

  it.each(cases)('$name', async ({ body }) => {
    const res = await saveProtocol(body());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('an edit is checked on the whole record: widening the equipment is refused', async () => {
    const created = await saveProtocol({ productionId: id.line1, equipmentIds: [id.E1] });
    expect(created.status).toBe(200);
    const p = created.body.result as Body;
    const edit = await call('POST', `/protocols/${p.id}`, {
      equipmentIds: [id.E1, id.E3],
      reason: 'Wider',
      version: p.version,
    });
    expect(edit.status).toBe(422);
    expect(edit.body.errors).toEqual([
      { property: 'equipmentIds[1]', constraints: { train: 'E3 is not on the production Line 1' } },
    ]);
    // A protocol saved before the rule (written here below the API) still reads.
    await t.server.db.query('update protocols set equipment_ids = $1 where id = $2', [
      [id.E1, id.E3],
      p.id,
    ]);
    const read = await call('GET', `/protocols/${p.id}`);
    expect(read.status).toBe(200);
    expect(read.body.equipmentIds ?? read.body.result?.equipmentIds).toEqual([id.E1, id.E3]);
  });
});

describe('the limits snapshot the method is checked against', () => {
  it("is the one the protocol names, else the facility's latest", async () => {
    // A later snapshot that gives no limit at Drain (an empty engine input).
    await t.server.db.query(
      `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
         input, input_hash, output_hash)
       values ($1, 'CleaningLimitPolicy', 1, 2, '{}', 'x', 'y')`,
      [t.facilityId],
    );
    const plan = [planRow(id.drain, 'rinse', id.coarse)];
    const latest = await saveProtocol({ samplingPlan: plan });
    expect(latest.status, JSON.stringify(latest.body)).toBe(200);
    const named = await saveProtocol({ samplingPlan: plan, limitsSnapshotId: f.snapshotId });
    expect(named.status).toBe(422);
    expect(named.body.errors[0].constraints.methodFit).toMatch(/^TOC-coarse cannot show the limit/);
  });
});
