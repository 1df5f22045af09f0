import { beforeAll, describe, expect, it } from 'vitest';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, policyApprover } from '#server/test/policy-in-force.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/*
 * "Compare with today" of a limits report: a change assessment lowering Beta's PDE, approved
 * after the report, moves B -> A on Line 1 from 250 to 125 mg (PDE 1 -> 0.5 ug, A's 50 kg batch
 * over its 200 mg dose); the report read as of its date still says what it said.
 */
const t = useFacilityTestServer();
let facility: MacFacility;
const { generate } = reportKit(t, () => facility.F);
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const call = (method: string, path: string, body?: unknown, as?: string) =>
  t.call(method, `${facility.F}${path}`, body, as);
async function ok(method: string, path: string, body?: unknown) {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

describe('Compare with today', () => {
  let report: TestBody;
  let ca: TestBody;

  beforeAll(async () => {
    report = await generate({ kind: 'production-limits', productionId: facility.line1 });
    expect(report.error).toBeNull();
    const beta = (await ok('GET', '/apis?search=Beta&pageLimit=100')).data[0] as TestBody;
    ca = (await ok('POST', '/change-assessments', { title: 'Lower Beta PDE', changeType: 'Other' }))
      .changeAssessment;
    ca = (
      await ok('POST', `/change-assessments/${ca.id}/changes`, {
        op: 'update',
        entity: 'actives',
        recordId: beta.id,
        values: { pde: { value: 0.5, unit: 'ug' } },
        reason: 'Toxicology report TX-9',
        version: ca.version,
      })
    ).changeAssessment;
    ca = (await ok('POST', `/change-assessments/${ca.id}/evaluate`, { version: ca.version }))
      .changeAssessment;
    const kit = changeAssessmentKit(call);
    ca = await kit.decideAll(ca);
    expect((await kit.sign(ca.id, 'Submit', adminEditor(t.token))).status).toBe(200);
    const approved = await kit.sign(ca.id, 'Approve', await policyApprover(t.server, facility.F));
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  });

  it('lists the moved limits with the change assessment that moved them', async () => {
    const res = await call('GET', `/reports/${report.id}/compare`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ reportId: report.id, asOf: report.asOf, same: false });
    expect(res.body.mode).toBe('limits');
    const moved = (res.body.rows as TestBody[]).find((r) => r.pair === 'Line 1: B -> A');
    expect(moved).toMatchObject({ change: 'changed', key: 'Line 1: B -> A' });
    expect(moved!.old).toBeCloseTo(250, 9);
    expect(moved!.new).toBeCloseTo(125, 9);
    expect(moved!.percentChange).toBeCloseTo(-50, 9);
    // A -> B is governed by the general limit (1,000 mg), which Beta's PDE does not move.
    expect((res.body.rows as TestBody[]).map((r) => r.pair)).not.toContain('Line 1: A -> B');
    expect(res.body.snapshots).toContainEqual(
      expect.objectContaining({
        documentType: 'ChangeAssessment',
        documentId: ca.id,
        changeAssessmentId: ca.id,
        title: expect.stringContaining('Lower Beta PDE'),
      }),
    );
    expect(res.body.edits).toContainEqual(
      expect.objectContaining({
        entityName: 'Beta',
        changeAssessment: { id: ca.id, number: ca.number, title: 'Lower Beta PDE' },
      }),
    );
  });

  it('leaves the report as it was: read again as of its date it is the same', async () => {
    const res = await call('GET', `/reports/${report.id}/regenerate`);
    expect(res.body).toMatchObject({ same: true, dataHash: report.dataHash });
  });

  it('answers 404 for an unknown report and 403 without ReportDocument Get', async () => {
    expect((await call('GET', '/reports/999999/compare')).status).toBe(404);
    const stranger = await buildUser(t.server.db, {
      facilityIds: [facility.facilityId],
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const token = await t.server.login(stranger.username, stranger.password);
    expect((await call('GET', `/reports/${report.id}/compare`, undefined, token)).status).toBe(403);
  });
});
