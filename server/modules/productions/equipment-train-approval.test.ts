import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsOf,
  useFacilityTestServer,
  type TestBody,
} from '#server/test/facility-test-file.ts';
import { buildSigners, signAs, signIntoForce } from '#server/test/factories/signed-record.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { ADMIN } from '#server/test/test-server.ts';

/*
 * The equipment train as a controlled record (issue 32; 21 CFR 11.50/11.70, 211.100(a)). The
 * facility of mac-test-data on its trains: Line 2 runs C and D on Train 2 (E3) and nothing
 * crosses the lines, so there is no A → C cell. Adding E1 to Train 2 puts C and D on E1 beside
 * A and B: that edit must move nothing while it is a draft, and everything once approved.
 */

const t = useFacilityTestServer();
let mac: MacFacility;
let train2: number;
const scope = () => ({ planId: t.planId, facilityId: t.facilityId });
const ref = (documentId: number) => ({ documentType: 'EquipmentTrain' as const, documentId });

const get = async (path: string) => {
  const res = await t.call('GET', `${mac.F}${path}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TestBody;
};

/** What the train's equipment reaches: the limits, the worst cases, the line's own equipment. */
const moved = async () => ({
  input: await get('/limits/input'),
  matrix: await get('/mac-matrix'),
  trains: await get('/worst-products/trains'),
  items: await get('/worst-products/equipment'),
  line2: (await get(`/productions/${mac.line2}`)).equipmentIds as number[],
});

beforeAll(async () => {
  mac = await buildMacFacility(t.server, t.facilityId, { onTrains: true });
  train2 = mac.trains!.line2;
});

describe('an equipment train’s versions', () => {
  it('is version 1 Approved once signed, and an edit is version 2 being built beside it', async () => {
    const { E1, E3 } = mac.equipment;
    const before = await moved();
    const read = await get(`/equipment-trains/${train2}`);
    expect(read).toMatchObject({ status: 'Approved', versionNumber: 1, equipmentIds: [E3] });

    const edited = await t.call('POST', `${mac.F}/equipment-trains/${train2}`, {
      equipmentIds: [E3, E1],
      version: read.version,
      reason: 'The blender joins Line 2',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // A save answers the draft it made; a plain read the version in force.
    expect(edited.body.result).toMatchObject({
      status: 'BeingBuilt',
      versionNumber: 2,
      equipmentIds: [E3, E1],
      inForceVersionNumber: 1,
      draftVersionNumber: 2,
    });
    expect(await get(`/equipment-trains/${train2}`)).toMatchObject({
      status: 'Approved',
      versionNumber: 1,
      equipmentIds: [E3],
      sharedArea: { total: { value: 10000, unit: 'sqcm' } },
      draftVersionNumber: 2,
    });
    expect(await get(`/equipment-trains/${train2}?version=draft`)).toMatchObject({
      status: 'BeingBuilt',
      equipmentIds: [E3, E1],
    });

    // The draft moves no limit, no worst case and no production.
    expect(await moved()).toEqual(before);
  });

  it('refuses an approval without the signer’s password, moving nothing', async () => {
    const { E3 } = mac.equipment;
    const before = await moved();
    const submit = await t.call('POST', `${mac.F}/signatures`, {
      ...ref(train2),
      action: 'Submit',
      password: ADMIN.password,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    expect(submit.body.document.status).toBe('BeingApproved');
    const { approver } = await buildSigners(t.server.db, t.facilityId);
    const token = await t.server.login(approver.username, approver.password);
    const approve = (password?: string) =>
      t.call(
        'POST',
        `${mac.F}/signatures`,
        { ...ref(train2), action: 'Approve', ...(password === undefined ? {} : { password }) },
        token,
      );
    const unsigned = await approve();
    expect(unsigned.status).toBe(422);
    const wrong = await approve('Not#the1password');
    expect(wrong.status, JSON.stringify(wrong.body)).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(await moved()).toEqual(before);
    expect((await get(`/equipment-trains/${train2}`)).equipmentIds).toEqual([E3]);
    const [failed] = await t.server.db.query<TestBody>(
      `select action from audit_log where domain = 'Authentication' and user_id = $1
        order by id desc limit 1`,
      [approver.id],
    );
    expect(failed).toMatchObject({ action: 'SignatureFailed' });
  });

  it('puts the approved equipment in force: the line, its limits and worst cases follow, audited', async () => {
    const { E1, E3 } = mac.equipment;
    const before = await moved();
    const { approver } = await buildSigners(t.server.db, t.facilityId);
    const approval = await signAs(t.server, scope(), approver, {
      ...ref(train2),
      action: 'Approve',
    });
    expect(approval.document.status).toBe('Approved');
    const after = await moved();
    expect(after.line2).toEqual([E3, E1]);
    expect(after.input).not.toEqual(before.input);
    expect(after.matrix).not.toEqual(before.matrix);
    // E1 now carries C and D of Line 2 beside A and B of Line 1.
    const onE1 = (after.items.equipment as TestBody[]).find((e) => e.name === 'E1')!;
    expect(onE1.products.map((p: TestBody) => p.name).sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(await get(`/equipment-trains/${train2}`)).toMatchObject({
      status: 'Approved',
      versionNumber: 2,
      equipmentIds: [E3, E1],
      sharedArea: { total: { value: 135000, unit: 'sqcm' } },
      draftVersionNumber: null,
    });

    // The Approve signature, with the limits it put in force, and the line's own audit row.
    const signatures = await get(`/signatures?documentType=EquipmentTrain&documentId=${train2}`);
    const approve = (signatures.signatures as TestBody[]).find(
      (s) => s.action === 'Approve' && s.versionNumber === 2,
    );
    expect(approve).toMatchObject({ valid: true, userId: approver.id });
    expect(approve!.limitsSnapshotId).toEqual(expect.any(Number));
    const signed = await t.server.db.query<TestBody>(
      `select action, user_id from audit_log where domain = 'ElectronicSignature'
        and entity_id = $1 and new_values ->> 'documentType' = 'EquipmentTrain' order by id`,
      [String(train2)],
    );
    expect(signed.map((r) => r.action)).toContain('Approve');
    expect((await auditRowsOf(t, 'Production', mac.line2)).at(-1)).toMatchObject({
      action: 'Update',
      reason: "The equipment of its train 'Train 2' changed",
      old_values: { equipmentIds: [E3] },
      new_values: { equipmentIds: [E3, E1] },
    });
    const [line2] = await t.server.db.query<{ updated_by: number }>(
      'select updated_by from productions where id = $1',
      [mac.line2],
    );
    expect(line2!.updated_by).toBe(approver.id);
  });
});

describe('what may name a train', () => {
  it('refuses a production on a train never approved (422 on trainId), and takes it once approved', async () => {
    const { E1, E2 } = mac.equipment;
    const made = await t.call('POST', `${mac.F}/equipment-trains`, {
      name: 'Unapproved train',
      equipmentIds: [E1, E2],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const trainId = made.body.result.id as number;
    const production = await t.call('POST', `${mac.F}/productions`, {
      name: 'Line on an unapproved train',
      equipmentIds: [E1, E2],
      productIds: [mac.products.A],
      trainId,
    });
    expect(production.status).toBe(422);
    expect(production.body.errors[0]).toMatchObject({ property: 'trainId' });
    expect(production.body.errors[0].constraints.approved).toContain("'Unapproved train'");

    // Approved, the same production is taken.
    await signIntoForce(t.server, scope(), ref(trainId));
    const again = await t.call('POST', `${mac.F}/productions`, {
      name: 'Line on an unapproved train',
      equipmentIds: [E1, E2],
      productIds: [mac.products.A],
      trainId,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
