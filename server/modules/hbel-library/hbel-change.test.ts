import { beforeAll, describe, expect, it } from 'vitest';
import { testMonograph } from '#server/test/hbel-test-data.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { adminEditor, policyApprover } from '#server/test/policy-in-force.ts';
import { ADMIN, facilityPath, setFacilityKind } from '#server/test/test-server.ts';

/*
 * Issue 32: a new approved version of an HBEL library entry reaches a facility's linked actives
 * only through a change assessment opened in every facility that uses it, its impact on the
 * limits computed before anyone approves it; until then each site keeps the version it linked.
 */

const t = useFacilityTestServer();
const LIB = () => `/api/v2/plans/${t.planId}/hbel-library`;
let one: MacFacility;
let two: MacFacility;

// F3 = 5: 50 mg/day; F3 = 10: 25 mg/day (hbel-test-data.ts).
const monograph = (f3: number) => testMonograph('Gamma', f3);

const approveVersion = async (id: number) => {
  const sign = async (action: string, as: { token: string; password: string }) =>
    t.call(
      'POST',
      `${t.F}/signatures`,
      { documentType: 'HbelMonograph', documentId: id, action, password: as.password },
      as.token,
    );
  expect((await sign('Submit', adminEditor(t.token))).status).toBe(200);
  const approved = await sign('Approve', await policyApprover(t.server, t.F));
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
};

const gammaOf = async (F: string) => {
  const list = await t.call('GET', `${F}/apis?search=Gamma&pageLimit=10`);
  const found = (list.body.data as TestBody[]).find((a) => a.name === 'Gamma')!;
  return (await t.call('GET', `${F}/apis/${found.id}`)).body;
};

const assessmentsOf = async (F: string) =>
  (await t.call('GET', `${F}/change-assessments?pageLimit=100`)).body
    .changeAssessments as TestBody[];

let id: number;

/** Decides, submits and approves the facility's one open assessment; its calls for what follows. */
async function approveAssessmentOf(F: string) {
  const call = (method: string, path: string, body?: unknown, as?: string) =>
    t.call(method, `${F}${path}`, body, as);
  const kit = changeAssessmentKit(call);
  const [listed] = await assessmentsOf(F);
  let ca = (await call('GET', `/change-assessments/${listed!.id}`)).body.changeAssessment;
  ca = await kit.decideAll(ca);
  expect((await kit.sign(ca.id, 'Submit', adminEditor(t.token))).status).toBe(200);
  const approved = await kit.sign(ca.id, 'Approve', await policyApprover(t.server, F));
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return call;
}

beforeAll(async () => {
  await setFacilityKind(t.server, 1, { tier: 'full', productType: 'product' });
  one = await buildMacFacility(t.server, t.facilityId);
  const otherF = await facilityPath(t.server, 1);
  two = await buildMacFacility(t.server, Number(/facilities\/(\d+)/.exec(otherF)![1]));
  const created = await t.call('POST', LIB(), { ...monograph(5), signingFacilityId: t.facilityId });
  expect(created.status).toBe(200);
  id = created.body.id;
  await approveVersion(id);
  // Site one overrides the PDE (signed); site two takes the library's.
  const g1 = await gammaOf(one.F);
  const linked1 = await t.call('PUT', `${one.F}/apis/${g1.id}/hbel-link`, {
    monographId: id,
    pdeOverride: { value: 20, unit: 'mg' },
    justification: 'Paediatric products at this site',
    password: ADMIN.password,
    version: g1.version,
    reason: 'Use the library PDE',
  });
  expect(linked1.status, JSON.stringify(linked1.body)).toBe(200);
  const g2 = await gammaOf(two.F);
  const linked2 = await t.call('PUT', `${two.F}/apis/${g2.id}/hbel-link`, {
    monographId: id,
    version: g2.version,
    reason: 'Use the library PDE',
  });
  expect(linked2.status).toBe(200);
});

describe('a new version of a library entry', () => {
  it('opens nothing while it is being built', async () => {
    const current = await t.call('GET', `${LIB()}/${id}`);
    const next = await t.call('POST', `${LIB()}/${id}`, {
      ...monograph(10),
      version: current.body.version,
      reason: 'Shorter study: F3 10',
    });
    expect(next.status).toBe(200);
    expect(await assessmentsOf(one.F)).toEqual([]);
    expect(await assessmentsOf(two.F)).toEqual([]);
  });

  it('once approved, opens a change assessment in each facility using it, its impact computed', async () => {
    await approveVersion(id);
    const number = `HBEL-${String(id).padStart(4, '0')}`;
    for (const [F, label] of [
      [
        one.F,
        "Active 'Gamma': PDE from " +
          number +
          ' version 2 (was 50 mg; the site override of 20 mg ends)',
      ],
      [two.F, "Active 'Gamma': PDE from " + number + ' version 2 (was 50 mg)'],
    ] as const) {
      const list = await assessmentsOf(F);
      expect(list).toHaveLength(1);
      const ca = (await t.call('GET', `${F}/change-assessments/${list[0]!.id}`)).body
        .changeAssessment;
      expect(ca).toMatchObject({
        title: `${number} Gamma: version 2 of the HBEL library`,
        changeType: 'HBEL/dose/batch change',
        changeStatus: 'Pending Approval',
        changes: [expect.objectContaining({ entity: 'hbelLink', current: true, label })],
        evaluation: expect.objectContaining({ current: true }),
      });
      // The HBEL criterion of C → D moves (C holds Gamma): 20 → 25 mg at one, 50 → 25 mg at two.
      expect(ca.evaluation.summary).toMatchObject({ criteriaMoved: 1, pairsListed: 1 });
    }
    // Nothing moved yet: each site keeps the version it linked.
    expect((await gammaOf(one.F)).pde).toEqual({ value: 20, unit: 'mg' });
    const gamma2 = await gammaOf(two.F);
    expect(gamma2.pde.value).toBeCloseTo(50, 12);
    expect(gamma2.hbelLineage[0].versionNumber).toBe(1);
  });

  it('moves no site to it by the link route while its assessment is open', async () => {
    const gamma = await gammaOf(one.F);
    const direct = await t.call('PUT', `${one.F}/apis/${gamma.id}/hbel-link`, {
      monographId: id,
      version: gamma.version,
      reason: 'Take version 2 at once',
    });
    expect(direct.status).toBe(409);
    expect(direct.body.message).toMatch(/change assessment CA-\d{4}: approve or cancel it first/);
    expect((await gammaOf(one.F)).hbelLineage[0].versionNumber).toBe(1);
  });

  it('reaches a site when its assessment is approved, and its limits follow', async () => {
    const call = await approveAssessmentOf(two.F);
    const gamma = await gammaOf(two.F);
    expect(gamma.pde.value).toBeCloseTo(25, 12);
    expect(gamma.hbelLineage[0]).toMatchObject({ versionNumber: 2, override: null });
    // C → D by the HBEL criterion: 25 mg × 80 000 000 mg / 300 mg = 6 666 666.67 mg.
    const pair = await call('GET', '/mac-matrix/pairs?previous=C&next=D');
    expect(
      Object.values(pair.body.data[0].criteria as Record<string, TestBody>).some(
        (q) => Math.abs(q.value - 6_666_666.667) < 0.01,
      ),
    ).toBe(true);
    // Site one still waits on its own assessment.
    expect((await gammaOf(one.F)).hbelLineage[0].versionNumber).toBe(1);
  });

  it("ends a site's signed override when its assessment is approved, audited and shown in the lineage", async () => {
    const call = await approveAssessmentOf(one.F);
    const gamma = await gammaOf(one.F);
    // The library's new 25 mg, not the 20 mg signed against version 1.
    expect(gamma.pde.value).toBeCloseTo(25, 12);
    expect(gamma.hbelLineage[0]).toMatchObject({
      versionNumber: 2,
      override: null,
      justification: null,
      overrideSignature: null,
      endedOverride: {
        pde: { value: 20, unit: 'mg' },
        justification: 'Paediatric products at this site',
        versionNumber: 1,
        signedBy: expect.any(String),
      },
    });
    const [audit] = await t.server.db.query<{
      action: string;
      old_values: TestBody;
      new_values: TestBody;
      reason: string;
    }>(
      `select action, old_values, new_values, reason from audit_log
        where facility_id = $1 and domain = 'API' and entity_id = $2 order by id desc limit 1`,
      [one.facilityId, gamma.id],
    );
    expect(audit).toMatchObject({
      action: 'HbelLink',
      old_values: expect.objectContaining({ override: { value: 20, unit: 'mg' } }),
      new_values: expect.objectContaining({ versionNumber: 2, override: null }),
    });
    expect(audit!.reason).toMatch(/version 2 approved in the HBEL library/);
    // The derivation of C → D says where its PDE came from, and that the override ended.
    const explain = await call('GET', '/mac-matrix/explain?previous=C&next=D');
    expect(explain.status).toBe(200);
    expect(JSON.stringify(explain.body.explanation)).toMatch(
      /site override 20 mg signed against version 1 \(justification: Paediatric products at this site, signed by [^)]+\) ended with this version/,
    );
  });

  it('opens none in a facility without change control, which keeps the version it linked', async () => {
    await setFacilityKind(t.server, 1, { tier: 'lite' });
    const current = await t.call('GET', `${LIB()}/${id}`);
    const next = await t.call('POST', `${LIB()}/${id}`, {
      ...monograph(2),
      version: current.body.version,
      reason: 'Longer study: F3 2',
    });
    expect(next.status).toBe(200);
    await approveVersion(id);
    // Site one (full tier) has the assessment of version 3 besides that of version 2.
    const titles = (await assessmentsOf(one.F)).map((c) => c.title).sort();
    expect(titles).toEqual([
      expect.stringContaining('version 2 of the HBEL library'),
      expect.stringContaining('version 3 of the HBEL library'),
    ]);
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from change_assessments where facility_id = $1`,
      [two.facilityId],
    );
    expect(count!.n).toBe(1);
    expect((await gammaOf(two.F)).hbelLineage[0].versionNumber).toBe(2);
  });
});
