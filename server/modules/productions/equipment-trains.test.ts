import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsOf,
  tokenWith,
  useFacilityTestServer,
  type TestBody,
} from '#server/test/facility-test-file.ts';
import { buildEquipment } from '#server/test/factories/entities.ts';
import { signIntoForce } from '#server/test/factories/signed-record.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * Equipment trains (EquipmentTrain, issue 32). The facility of mac-test-data: Line 1 runs A and
 * B on E1 (12.5 sqm) and E2 (5000 sqcm); Line 2 runs C and D on E3 (1 sqm). The default unit of
 * surface area is sqcm, so E1 + E2 = 125,000 sqcm + 5,000 sqcm = 130,000 sqcm.
 */

const t = useFacilityTestServer();
let facility: MacFacility;
let trains: string;

const trainCount = async () =>
  (await t.server.db.query<{ n: number }>('select count(*)::int as n from equipment_trains'))[0]!.n;

async function createTrain(values: Record<string, unknown>) {
  const res = await t.call('POST', trains, values);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as TestBody;
}

/** Signs the train's version being built into force: only then does a production follow it. */
async function approve(trainId: number) {
  const answer = await signIntoForce(
    t.server,
    { planId: t.planId, facilityId: t.facilityId },
    { documentType: 'EquipmentTrain', documentId: trainId },
  );
  expect(answer.document.status).toBe('Approved');
}

beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
  trains = `${facility.F}/equipment-trains`;
});

describe('equipment trains: guarded by EquipmentTrain', () => {
  it('needs Get to list and read, Add to create, Modify to edit, Delete to archive', async () => {
    const { E1, E2 } = facility.equipment;
    const train = await createTrain({ name: 'Guarded train', equipmentIds: [E1, E2] });
    const nobody = await tokenWith(t, { Equipment: ['Get'] });
    const reader = await tokenWith(t, { EquipmentTrain: ['Get'] });
    const adder = await tokenWith(t, { EquipmentTrain: ['Get', 'Add'] });
    const modifier = await tokenWith(t, { EquipmentTrain: ['Get', 'Modify'] });
    const deleter = await tokenWith(t, { EquipmentTrain: ['Get', 'Delete'] });
    const one = `${trains}/${train.id}`;
    const body = { name: 'Another train', equipmentIds: [E2] };

    expect((await t.call('GET', trains, undefined, nobody)).status).toBe(403);
    expect((await t.call('GET', one, undefined, nobody)).status).toBe(403);
    expect((await t.call('GET', `${one}/versions`, undefined, nobody)).status).toBe(403);
    expect((await t.call('GET', trains, undefined, reader)).status).toBe(200);
    expect((await t.call('GET', `${one}/versions`, undefined, reader)).status).toBe(200);

    expect((await t.call('POST', trains, body, reader)).status).toBe(403);
    expect((await t.call('POST', trains, body, modifier)).status).toBe(403);
    expect((await t.call('POST', trains, body, adder)).status).toBe(200);

    const edit = { description: 'Granulation suite', version: 1, reason: 'Described' };
    expect((await t.call('POST', one, edit, adder)).status).toBe(403);
    expect((await t.call('POST', one, edit, modifier)).status).toBe(200);

    const archive = { reason: 'No longer used' };
    expect((await t.call('PUT', `${one}/archive`, archive, modifier)).status).toBe(403);
    expect((await t.call('PUT', `${one}/archive`, archive, deleter)).status).toBe(200);
  });
});

describe('equipment trains: the record', () => {
  it('keeps the order of its equipment and computes the shared area with its derivation', async () => {
    const { E1, E2 } = facility.equipment;
    const train = await createTrain({ name: 'Line 1 train', equipmentIds: [E2, E1] });
    expect(train.equipmentIds).toEqual([E2, E1]);
    // 5000 sqcm + 12.5 sqm × 10,000 sqcm/sqm = 5,000 + 125,000 = 130,000 sqcm.
    expect(train.sharedArea).toMatchObject({
      unit: 'sqcm',
      total: { value: 130000, unit: 'sqcm' },
      isComplete: true,
      missing: [],
    });
    expect(train.sharedArea.equipment.map((line: TestBody) => line.name)).toEqual(['E2', 'E1']);
    expect(train.sharedArea.derivation).toContain(
      'E2 5000 sqcm + E1 12.5 sqm → 125000 sqcm = 130000 sqcm',
    );
    const read = await t.call('GET', `${trains}/${train.id}`);
    expect(read.body.sharedArea.total).toEqual({ value: 130000, unit: 'sqcm' });
    const list = await t.call('GET', `${trains}?search=Line 1 train`);
    expect(list.body.data[0].sharedArea.total).toEqual({ value: 130000, unit: 'sqcm' });

    const [created] = await auditRowsOf(t, 'EquipmentTrain', train.id);
    expect(created).toMatchObject({
      action: 'Create',
      new_values: { name: 'Line 1 train', equipmentIds: [E2, E1] },
    });
    const reordered = await t.call('POST', `${trains}/${train.id}`, {
      equipmentIds: [E1, E2],
      version: 1,
      reason: 'The blender comes first',
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.result.equipmentIds).toEqual([E1, E2]);
    const rows = await auditRowsOf(t, 'EquipmentTrain', train.id);
    expect(rows.at(-1)).toMatchObject({
      action: 'Update',
      reason: 'The blender comes first',
      old_values: { equipmentIds: [E2, E1] },
      new_values: { equipmentIds: [E1, E2] },
    });
  });

  it('refuses an empty train, unknown or archived equipment and an item twice (422), changing nothing', async () => {
    const { E1 } = facility.equipment;
    const [facilityRow] = await t.server.db.query<{ plan_id: number }>(
      'select plan_id from facilities where id = $1',
      [t.facilityId],
    );
    const scope = { planId: facilityRow!.plan_id, facilityId: t.facilityId };
    const oldMill = (await buildEquipment(t.server.db, scope, { name: 'Old mill' })).id;
    expect(
      (await t.call('PUT', `${facility.F}/equipments/${oldMill}/archive`, { reason: 'Scrapped' }))
        .status,
    ).toBe(200);
    const before = await trainCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Empty', equipmentIds: [] }, 'equipmentIds'],
      [{ name: 'Nothing' }, 'equipmentIds'],
      [{ name: 'Unknown', equipmentIds: [E1, 999999] }, 'equipmentIds'],
      [{ name: 'Archived', equipmentIds: [oldMill] }, 'equipmentIds'],
      [{ name: 'Twice', equipmentIds: [E1, E1] }, 'equipmentIds'],
    ];
    for (const [body, property] of cases) {
      const res = await t.call('POST', trains, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      expect(res.body.errors.map((e: TestBody) => e.property)).toContain(property);
    }
    expect(await trainCount()).toBe(before);
  });
});

describe('equipment trains: productions on a train', () => {
  it('gives a production the same limits with the train as without it', async () => {
    const { E1, E2 } = facility.equipment;
    const matrix = async () => {
      const res = await t.call('GET', `${facility.F}/mac-matrix`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const input = async () => (await t.call('GET', `${facility.F}/limits/input`)).body;
    const [matrixBefore, inputBefore] = [await matrix(), await input()];
    const train = await createTrain({ name: 'Limits train', equipmentIds: [E1, E2] });
    await approve(train.id);
    const line = await t.call('GET', `${facility.F}/productions/${facility.line1}`);
    const linked = await t.call('POST', `${facility.F}/productions/${facility.line1}`, {
      trainId: train.id,
      version: line.body.version,
      reason: 'Runs on the limits train',
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.result).toMatchObject({ trainId: train.id, equipmentIds: [E1, E2] });
    expect(await matrix()).toEqual(matrixBefore);
    expect(await input()).toEqual(inputBefore);
    // Back off the train, for the tests after this one.
    const off = await t.call('POST', `${facility.F}/productions/${facility.line1}`, {
      trainId: null,
      version: linked.body.result.version,
      reason: 'Off the train',
    });
    expect(off.status).toBe(200);
  });

  it('refuses a production whose equipment is not its train’s, in the train’s order', async () => {
    const { E1, E2, E3 } = facility.equipment;
    const train = await createTrain({ name: 'Ordered train', equipmentIds: [E1, E2] });
    await approve(train.id);
    for (const equipmentIds of [[E2, E1], [E1], [E1, E2, E3]]) {
      const res = await t.call('POST', `${facility.F}/productions`, {
        name: `On the ordered train ${equipmentIds.join('-')}`,
        trainId: train.id,
        equipmentIds,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].property).toBe('equipmentIds');
      expect(res.body.errors[0].constraints.train).toContain("'Ordered train'");
    }
  });

  it('carries an edit of the train’s equipment to its productions, audited on each', async () => {
    const { E1, E2, E3 } = facility.equipment;
    const train = await createTrain({ name: 'Carried train', equipmentIds: [E1] });
    await approve(train.id);
    const made = await t.call('POST', `${facility.F}/productions`, {
      name: 'Line on the carried train',
      trainId: train.id,
      equipmentIds: [E1],
      productIds: [facility.products.A],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const production = made.body.result.id as number;
    const edited = await t.call('POST', `${trains}/${train.id}`, {
      equipmentIds: [E3, E1, E2],
      version: 1,
      reason: 'Dryer and mill added',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // The edit is version 2, being built: it is carried once approved.
    await approve(train.id);
    const read = await t.call('GET', `${facility.F}/productions/${production}`);
    expect(read.body).toMatchObject({ trainId: train.id, equipmentIds: [E3, E1, E2], version: 2 });
    expect((await auditRowsOf(t, 'Production', production)).at(-1)).toMatchObject({
      action: 'Update',
      reason: "The equipment of its train 'Carried train' changed",
      old_values: { equipmentIds: [E1] },
      new_values: { equipmentIds: [E3, E1, E2] },
    });

    // A train a live production runs on is not archived: 422 naming the production.
    const archive = await t.call('PUT', `${trains}/${train.id}/archive`, { reason: 'Retired' });
    expect(archive.status).toBe(422);
    expect(JSON.stringify(archive.body.errors)).toContain("'Line on the carried train'");
    expect((await t.call('GET', `${trains}/${train.id}`)).body.archivedAt).toBeNull();
  });
});

describe('equipment trains: archived productions and past reads', () => {
  it('catches a restored production up with its train, and refuses it on an archived train', async () => {
    const { E1, E2 } = facility.equipment;
    const train = await createTrain({ name: 'Restore train', equipmentIds: [E1] });
    await approve(train.id);
    const made = await t.call('POST', `${facility.F}/productions`, {
      name: 'Line archived meanwhile',
      trainId: train.id,
      equipmentIds: [E1],
    });
    const production = made.body.result.id as number;
    const archive = (path: string) => t.call('PUT', `${path}/archive`, { reason: 'Idle' });
    const restore = (path: string, version: number) =>
      t.call('POST', path, { unArchive: true, version, reason: 'In use again' });
    const path = `${facility.F}/productions/${production}`;
    expect((await archive(path)).status).toBe(200);
    const edited = await t.call('POST', `${trains}/${train.id}`, {
      equipmentIds: [E2, E1],
      version: 1,
      reason: 'Mill added',
    });
    expect(edited.status).toBe(200);
    await approve(train.id);
    // Archived, the production was left as it was; restored, it takes the train's equipment.
    expect((await t.call('GET', path)).body.equipmentIds).toEqual([E1]);
    const restored = await restore(path, (await t.call('GET', path)).body.version);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await t.call('GET', path)).body.equipmentIds).toEqual([E2, E1]);
    expect((await auditRowsOf(t, 'Production', production)).at(-1)).toMatchObject({
      action: 'Update',
      reason: "The equipment of its train 'Restore train' changed while it was archived",
      new_values: { equipmentIds: [E2, E1] },
    });

    // With the production archived the train may go; the production then does not come back.
    expect((await archive(path)).status).toBe(200);
    expect((await archive(`${trains}/${train.id}`)).status).toBe(200);
    const refused = await restore(path, (await t.call('GET', path)).body.version);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ property: 'trainId' });
    expect((await t.call('GET', path)).body.archivedAt).not.toBeNull();
  });

  it('reads the shared area of the train as it was, as of a moment', async () => {
    const { E1, E2 } = facility.equipment;
    const train = await createTrain({ name: 'Past train', equipmentIds: [E2] });
    const [{ at }] = (await t.server.db.query<{ at: string }>(
      `select to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at`,
    )) as [{ at: string }];
    const edited = await t.call('POST', `${trains}/${train.id}`, {
      equipmentIds: [E2, E1],
      version: 1,
      reason: 'Blender added',
    });
    expect(edited.body.result.sharedArea.total).toEqual({ value: 130000, unit: 'sqcm' });
    const past = await t.call('GET', `${trains}/${train.id}?asOf=${encodeURIComponent(at)}`);
    expect(past.status, JSON.stringify(past.body)).toBe(200);
    expect(past.body.equipmentIds).toEqual([E2]);
    expect(past.body.sharedArea.total).toEqual({ value: 5000, unit: 'sqcm' });
  });
});
