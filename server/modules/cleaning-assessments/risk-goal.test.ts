import { describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { goalAgainst } from './risk-goal.ts';

const t = useFacilityTestServer();

const path = () => `${t.F}/risk-goal`;

async function tokenWith(rights: Record<string, string[]>): Promise<string> {
  const user = await buildUser(t.server.db, { permissions: permissionsWith(rights) });
  return t.server.login(user.username, user.password);
}

const lastAudit = async () => {
  const [row] = await t.server.db.query<Body>(
    `select action, reason, facility_id, old_values, new_values from audit_log
      where domain = 'RiskGoal' order by id desc limit 1`,
  );
  return row;
};

describe('the risk goal against an assessment', () => {
  const counts = { cells: 8, study: 4, representative: 2, tightened: 1, notCovered: 1 };
  it.each([
    [
      'met',
      { maxRiskScore: 60, minCoveragePercent: 75 },
      { ...counts, highestRiskScore: 60 },
      { highestRiskScore: 60, coveragePercent: 75, meetsRiskScore: true, meetsCoverage: true },
    ],
    [
      'missed',
      { maxRiskScore: 59.5, minCoveragePercent: 75.01 },
      { ...counts, highestRiskScore: 60 },
      { highestRiskScore: 60, coveragePercent: 75, meetsRiskScore: false, meetsCoverage: false },
    ],
    [
      'not set',
      { maxRiskScore: null, minCoveragePercent: null },
      { ...counts, highestRiskScore: 12 },
      { highestRiskScore: 12, coveragePercent: 75, meetsRiskScore: null, meetsCoverage: null },
    ],
    [
      'without risk scores',
      { maxRiskScore: 10, minCoveragePercent: 50 },
      { ...counts, highestRiskScore: null },
      { highestRiskScore: null, coveragePercent: 75, meetsRiskScore: null, meetsCoverage: true },
    ],
    [
      'with no cells',
      { maxRiskScore: 10, minCoveragePercent: 100 },
      { cells: 0, study: 0, representative: 0, highestRiskScore: null },
      { coveragePercent: 100, meetsCoverage: true },
    ],
    [
      'of unreadable counts',
      { maxRiskScore: 10, minCoveragePercent: 1 },
      { cells: '8', study: null, highestRiskScore: 'high' },
      { highestRiskScore: null, coveragePercent: 100, meetsRiskScore: null },
    ],
    [
      'rounded to hundredths',
      { maxRiskScore: null, minCoveragePercent: 66.67 },
      { cells: 3, study: 1, representative: 1 },
      { coveragePercent: 66.67, meetsCoverage: true },
    ],
  ])('%s', (_name, goal, assessmentCounts, expected) => {
    expect(goalAgainst(goal, { id: 9, counts: assessmentCounts })).toMatchObject({
      assessmentId: 9,
      ...expected,
    });
  });

  it('of no counts at all', () => {
    expect(
      goalAgainst({ maxRiskScore: 1, minCoveragePercent: 1 }, { id: 3, counts: null }),
    ).toEqual({
      assessmentId: 3,
      highestRiskScore: null,
      coveragePercent: 100,
      meetsRiskScore: null,
      meetsCoverage: true,
    });
  });
});

describe('GET and POST {F}/risk-goal', () => {
  it('are refused without RiskCalculation Get, and setting without FacilityCleaningEvaluation Generate', async () => {
    const nobody = await tokenWith({});
    expect((await t.call('GET', path(), undefined, nobody)).status).toBe(403);
    const reader = await tokenWith({ RiskCalculation: ['Get'] });
    expect((await t.call('GET', path(), undefined, reader)).status).toBe(200);
    const body = { maxRiskScore: 10, minCoveragePercent: 80, reason: 'Target' };
    const refused = await t.call('POST', path(), body, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.errName).toBe('NotAllowed');
    expect(await lastAudit()).toBeUndefined();
  });

  it('start unset, with nothing to compare with before a completed assessment', async () => {
    const res = await t.call('GET', path());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      riskGoal: {
        maxRiskScore: null,
        minCoveragePercent: null,
        version: 0,
        updatedAt: null,
        current: null,
      },
    });
  });

  it('refuse bad values and a missing reason with property paths', async () => {
    const bad = await t.call('POST', path(), {
      maxRiskScore: -1,
      minCoveragePercent: 120,
      reason: 'x',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
    expect(bad.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'maxRiskScore',
      'minCoveragePercent',
    ]);
    const noReason = await t.call('POST', path(), { maxRiskScore: 5, minCoveragePercent: 50 });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.map((e: Body) => e.property)).toEqual(['reason']);
    const missing = await t.call('POST', path(), { reason: 'Target' });
    expect(missing.status).toBe(422);
    expect((await t.call('GET', path())).body.riskGoal.version).toBe(0);
  });

  it('are set with a reason, then changed from the version read, audited field by field', async () => {
    const setter = await tokenWith({ FacilityCleaningEvaluation: ['Generate'] });
    const first = await t.call(
      'POST',
      path(),
      { maxRiskScore: 60, minCoveragePercent: 80, reason: 'Site target 2027' },
      setter,
    );
    expect(first.status).toBe(200);
    expect(first.body.riskGoal).toMatchObject({
      maxRiskScore: 60,
      minCoveragePercent: 80,
      version: 1,
      current: null,
    });
    expect(Date.parse(first.body.riskGoal.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await lastAudit()).toMatchObject({
      action: 'Create',
      reason: 'Site target 2027',
      facility_id: t.facilityId,
      new_values: { maxRiskScore: 60, minCoveragePercent: 80 },
    });

    const unversioned = await t.call('POST', path(), {
      maxRiskScore: 50,
      minCoveragePercent: 80,
      reason: 'x',
    });
    expect(unversioned.status).toBe(409);
    expect(unversioned.body.errName).toBe('VersionConflictError');
    const same = await t.call('POST', path(), {
      maxRiskScore: 60,
      minCoveragePercent: 80,
      reason: 'x',
      version: 1,
    });
    expect(same.status).toBe(400);
    expect(same.body.errName).toBe('NothingToChangeError');

    const changed = await t.call('POST', path(), {
      maxRiskScore: 60,
      minCoveragePercent: null,
      reason: 'Coverage is tracked by the annual review',
      version: 1,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.riskGoal).toMatchObject({
      maxRiskScore: 60,
      minCoveragePercent: null,
      version: 2,
    });
    expect(await lastAudit()).toMatchObject({
      action: 'Update',
      reason: 'Coverage is tracked by the annual review',
      old_values: { minCoveragePercent: 80 },
      new_values: { minCoveragePercent: null },
    });
    expect((await t.call('GET', path())).body.riskGoal).toMatchObject({
      maxRiskScore: 60,
      minCoveragePercent: null,
      version: 2,
    });
  });

  it("are each facility's own", async () => {
    const otherF = await facilityPath(t.server, 1);
    await setFacilityKind(t.server, 1, { tier: 'full' });
    const other = await t.call('GET', `${otherF}/risk-goal`);
    expect(other.body.riskGoal).toMatchObject({ maxRiskScore: null, version: 0 });
  });
});
