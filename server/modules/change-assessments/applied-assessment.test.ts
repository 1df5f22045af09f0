import { beforeAll, describe, expect, it } from 'vitest';
import { adminActor } from '#server/test/factories/admin.ts';
import { buildChangeAssessment } from '#server/test/factories/change-assessments.ts';
import {
  facilityCalls,
  useFacilityTestServer,
  type TestBody as Body,
} from '#server/test/facility-test-file.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';

/*
 * An applied change assessment (issue 26, "One truth"): once approved, its change set is applied
 * and its evaluation is the one the approval signed, frozen. It says when it was applied and by
 * whose approval, and never reads as stale, whatever the facility's data do afterwards.
 */

const t = useFacilityTestServer();
const { ok } = facilityCalls(t);
const read = async (id: number) =>
  (await ok('GET', `/change-assessments/${id}`)).changeAssessment as Body;
const product = async (name: string) =>
  ((await ok('GET', `/products?search=${name}&pageLimit=100`)).data as Body[]).find(
    (p) => p.name === name,
  )!;

let ca: Body;
beforeAll(async () => {
  const mac = await buildMacFacility(t.server, t.facilityId);
  // Created, staged, evaluated and decided by the administrator through the module's services.
  ca = await buildChangeAssessment(
    t.server,
    { planId: t.planId, facilityId: t.facilityId },
    {
      actor: await adminActor(t.server.db),
      fields: { title: 'Raise A dose', changeType: 'Other' },
      changes: [
        {
          op: 'update',
          entity: 'products',
          recordId: mac.products.A,
          values: { maxDailyDose: { value: 300, unit: 'mg' } },
        },
      ],
      decideAll: true,
    },
  );
});

describe('an applied change assessment', () => {
  it('is not applied and compared with the data until it is approved', async () => {
    const before = await read(ca.id);
    expect(before.applied).toBeNull();
    expect(before.evaluation).toMatchObject({ current: true, frozen: false });
  });

  it('says what was applied and when, with its evaluation frozen, after any later change', async () => {
    const evaluated = await read(ca.id);
    await putInForce(t.server, t.F, adminEditor(t.token), 'ChangeAssessment', ca.id);
    const [version] = await t.server.db.query<{ approved_at: Date }>(
      `select approved_at from controlled_versions
        where document_type = 'ChangeAssessment' and document_id = $1 and version_number = 1`,
      [ca.id],
    );
    // The applied change moved product A on, and the facility's data change again afterwards.
    const b = await product('B');
    await ok('POST', `/products/${b.id}`, {
      minBatchSize: { value: 120, unit: 'kg' },
      reason: 'Larger batches',
      version: b.version,
    });
    const applied = await read(ca.id);
    expect(applied).toMatchObject({
      changeStatus: 'Approved',
      applied: {
        at: version!.approved_at.toISOString(),
        versionNumber: 1,
        approvedBy: expect.stringMatching(/^Approver/),
      },
      evaluation: {
        current: true,
        frozen: true,
        evaluatedAt: evaluated.evaluation.evaluatedAt,
        summary: evaluated.evaluation.summary,
      },
    });
    expect(applied.changes).toEqual([
      expect.objectContaining({ label: evaluated.changes[0].label, current: true }),
    ]);
    const listed = (await ok('GET', '/change-assessments')).changeAssessments as Body[];
    expect(listed.find((c) => c.id === ca.id)).toMatchObject({
      applied: applied.applied,
      evaluation: { frozen: true, current: true },
    });
  });
});
