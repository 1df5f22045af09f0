import { beforeAll, describe, expect, it } from 'vitest';
import {
  facilityCalls,
  useFacilityTestServer,
  type TestBody,
} from '#server/test/facility-test-file.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * A train's new version staged in a change assessment (issue 32; EU GMP Annex 15 §11, ICH Q9):
 * its evaluation shows what it moves without moving it, and the assessment's approval puts it
 * in force with the productions on it. The facility of mac-test-data: Line 2 runs C and D on
 * Train 2 (E3) and nothing crosses the lines, so A → C has no cell; Train 2 with E1 gives one.
 */

const t = useFacilityTestServer();
const CA = '/change-assessments';
const { call, ok } = facilityCalls(t);
let mac: MacFacility;

const kit = changeAssessmentKit(call);

/** Every impact item of the evaluated assessment decided, then the assessment approved. */
async function approve(ca: TestBody) {
  await kit.decideAll(ca);
  await putInForce(t.server, t.F, adminEditor(t.token), 'ChangeAssessment', ca.id);
}

beforeAll(async () => {
  mac = await buildMacFacility(t.server, t.facilityId, { onTrains: true });
});

describe('an equipment train staged in a change assessment', () => {
  it('shows its effect before approval, and is in force with its productions once approved', async () => {
    const { E1, E3 } = mac.equipment;
    const train2 = mac.trains!.line2;
    const train = await ok('GET', `/equipment-trains/${train2}`);
    let ca = (await ok('POST', CA, { title: 'Blender on Line 2', changeType: 'Other' }))
      .changeAssessment as TestBody;
    ca = (
      await ok('POST', `${CA}/${ca.id}/changes`, {
        op: 'update',
        entity: 'equipmentTrains',
        recordId: train2,
        values: { equipmentIds: [E3, E1] },
        reason: 'The blender joins Line 2',
        version: ca.version,
      })
    ).changeAssessment as TestBody;
    ca = (await ok('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }))
      .changeAssessment as TestBody;
    const pairs = (await ok('GET', `${CA}/${ca.id}/impact/pairs?pageLimit=1000`))
      .pairs as TestBody[];
    // A → C appears: A's E1 is now on Line 2 with C.
    const ac = pairs.find((p) => p.previous === 'A' && p.next === 'C');
    expect(ac, JSON.stringify(pairs.map((p) => `${p.previous}→${p.next}`))).toBeDefined();
    // Evaluated, not applied: the train and its line are as they were.
    expect(await ok('GET', `/equipment-trains/${train2}`)).toMatchObject({
      versionNumber: train.versionNumber,
      equipmentIds: [E3],
      draftVersionNumber: null,
    });
    expect((await ok('GET', `/productions/${mac.line2}`)).equipmentIds).toEqual([E3]);

    await approve(ca);
    expect(await ok('GET', `/equipment-trains/${train2}`)).toMatchObject({
      status: 'Approved',
      versionNumber: 2,
      equipmentIds: [E3, E1],
      draftVersionNumber: null,
    });
    expect((await ok('GET', `/productions/${mac.line2}`)).equipmentIds).toEqual([E3, E1]);
    const [entry] = await t.server.db.query<TestBody>(
      `select reason, new_values from audit_log where domain = 'ElectronicSignature'
        and action = 'ApprovedByRecord' and new_values ->> 'documentType' = 'EquipmentTrain'
        and entity_id = $1`,
      [String(train2)],
    );
    expect(entry).toMatchObject({ new_values: { versionNumber: 2, status: 'Approved' } });
    expect(entry!.reason).toMatch(/^Approved with CA-\d+$/);
  });
});
