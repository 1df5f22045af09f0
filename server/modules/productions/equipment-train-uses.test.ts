import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { adminSigner } from '#server/test/factories/admin.ts';
import { signIntoForce } from '#server/test/factories/signed-record.ts';
import { buildApprovedProtocol } from '#server/test/factories/verification.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { studyCoverage } from '#server/modules/verification/studies/study-coverage.ts';

/*
 * Where an equipment train is used (issue 32): the coverage model and the changeover decision.
 * The small MAC facility: Line 1 is E1 and E2 making A and B. Line 1 is put on the train
 * 'Line 1 train' (E1, E2); a second train 'E2 only' has E2 alone. Protocols here name no
 * equipment and no sampling locations of their own, so what they cover comes from the train.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
let f: RunFacility;
const id: Record<string, number> = {};

const changeover = async (from: number, to: number) => {
  const res = await t.call(
    'GET',
    `${t.F}/changeovers?from=${from}&to=${to}&production=${id.line1}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TestBody;
};

const onTrain = (trainId: number) =>
  kit.study({ trainId, productionId: null, equipmentIds: [], samplingPlan: [] });

beforeAll(async () => {
  f = await kit.build();
  const [row] = await t.server.db.query<TestBody>(
    `select (select id from productions where facility_id = $1 and name = 'Line 1') as line1,
            (select id from equipment where facility_id = $1 and name = 'E1') as e1,
            (select id from equipment where facility_id = $1 and name = 'E2') as e2`,
    [t.facilityId],
  );
  Object.assign(id, row);
  // Each train signed into force: a production or protocol names only an approved train.
  const train = async (name: string, equipmentIds: number[]) => {
    const trainId = (await kit.ok('POST', '/equipment-trains', { name, equipmentIds })).result
      .id as number;
    await signIntoForce(
      t.server,
      { planId: t.planId, facilityId: t.facilityId },
      { documentType: 'EquipmentTrain', documentId: trainId },
    );
    return trainId;
  };
  id.lineTrain = await train('Line 1 train', [id.e1!, id.e2!]);
  id.e2Train = await train('E2 only', [id.e2!]);
  const line = await kit.ok('GET', `/productions/${id.line1}`);
  await kit.ok('POST', `/productions/${id.line1}`, {
    trainId: id.lineTrain,
    version: line.version,
    reason: 'Line 1 runs on its train',
  });
});

describe('the changeover decision follows the production’s equipment train', () => {
  it('finds an approved protocol that names the production’s train and nothing else', async () => {
    const [a, b] = f.productIds as [number, number];
    const before = await changeover(a, b);
    expect(before.reasons).toContain('No approved protocol covers the cleaning after A');
    const admin = await adminSigner(t.server.db);
    await buildApprovedProtocol(
      t.server,
      { planId: t.planId, facilityId: t.facilityId },
      {
        protocolNumber: 'PR-TRAIN',
        name: 'Protocol of the Line 1 train',
        trainId: id.lineTrain,
        productIds: f.productIds,
        limitsSnapshotId: f.snapshotId,
      },
      { submitter: admin },
    );
    const after = await changeover(a, b);
    expect(after.reasons).not.toContain('No approved protocol covers the cleaning after A');
  });
});

describe('a study covers its protocol’s equipment train', () => {
  it('covers the train’s items when the protocol lists none, not the production’s', async () => {
    const whole = await onTrain(id.lineTrain!);
    const part = await onTrain(id.e2Train!);
    const scopes = await studyCoverage(t.server.db, t.facilityId);
    const scopeOf = (studyId: number) => scopes.find((s) => s.id === studyId)?.equipmentIds;
    expect(scopeOf(whole)).toEqual([id.e1, id.e2].sort((x, y) => x! - y!));
    expect(scopeOf(part)).toEqual([id.e2]);
  });

  it('and the changeover over that train is validated once the study is', async () => {
    const [a, b] = f.productIds as [number, number];
    const study = await onTrain(id.lineTrain!);
    await t.server.db.query(
      `update studies set outcome = 'Validated', closed_at = now() where id = $1`,
      [study],
    );
    const answer = await changeover(a, b);
    expect(answer.reasons).toEqual([]);
    expect(answer.validated).toBe(true);
  });
});
