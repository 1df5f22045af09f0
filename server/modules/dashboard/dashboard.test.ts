import { beforeAll, describe, expect, it } from 'vitest';
import { compileLimits } from '#core/limits/compile.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { policyApprover, putInForce } from '#server/test/policy-in-force.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { facilityLimitsInput } from '../limits/facility-limits-input.ts';

const t = useFacilityTestServer();

async function tokenWith(rights: Record<string, string[]>, facilityIds?: number[]) {
  const user = await buildUser(t.server.db, {
    permissions: permissionsWith(rights),
    ...(facilityIds ? { facilityIds } : {}),
  });
  return t.server.login(user.username, user.password);
}

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/*
 * One facility built over HTTP: actives, a product, five equipment items on one line, a study per
 * covered item. A study's outcome comes from its runs (studies.test.ts); here it is set on the
 * row, as the dashboard only reads it.
 */
const equipment: Record<string, number> = {};
const studies: Record<string, number> = {};

beforeAll(async () => {
  const create = recordCreator(t.server, t.token, t.F);
  const actives = {
    potent: await create('apis', { name: 'Potent', pde: { value: 0.5, unit: 'ug' } }),
    mid: await create('apis', { name: 'Mid', pde: { value: 0.05, unit: 'mg' } }),
    mild: await create('apis', { name: 'Mild', pde: { value: 2, unit: 'mg' } }),
    unknown: await create('apis', { name: 'Unknown' }),
  };
  const productA = await create('products', {
    name: 'A',
    maxDailyDose: { value: 1000, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: actives.potent, amount: { value: 10, unit: 'mg' } }],
  });
  const productB = await create('products', {
    name: 'B',
    maxDailyDose: { value: 500, unit: 'mg' },
    minBatchSize: { value: 50, unit: 'kg' },
    actives: [{ activeId: actives.mild, amount: { value: 20, unit: 'mg' } }],
  });
  for (const name of ['Validated', 'Overdue', 'Failed', 'Ongoing', 'Uncovered'])
    equipment[name] = await create('equipments', {
      name: `Blender ${name}`,
      surfaceArea: { value: 2, unit: 'sqm' },
    });
  const line = await create('productions', {
    name: 'Line 1',
    equipmentIds: Object.values(equipment),
    productIds: [productA, productB],
  });
  let seq = 0;
  for (const name of ['Validated', 'Overdue', 'Failed', 'Ongoing']) {
    seq += 1;
    const protocol = await t.call('POST', `${t.F}/protocols`, {
      protocolNumber: `DB-${seq}`,
      name: `Protocol ${name}`,
      productionId: line,
      productIds: [productA],
      equipmentIds: [equipment[name]],
    });
    expect(protocol.status, JSON.stringify(protocol.body)).toBe(200);
    await putInForce(
      t.server,
      t.F,
      { token: t.token, password: ADMIN.password },
      'Protocol',
      protocol.body.result.id,
    );
    const study = await t.call('POST', `${t.F}/studies`, {
      title: `Cleaning of ${name}`,
      studyType: 'Validation',
      protocolId: protocol.body.result.id,
    });
    expect(study.status, JSON.stringify(study.body)).toBe(200);
    studies[name] = (study.body.study ?? study.body.result ?? study.body).id as number;
  }
  const setOutcome = (name: string, outcome: string, closedAt: Date | null) =>
    t.server.db.query(`update studies set outcome = $2, closed_at = $3 where id = $1`, [
      studies[name]!,
      outcome,
      closedAt,
    ]);
  await setOutcome('Validated', 'Validated', daysAgo(30));
  await setOutcome('Overdue', 'Validated', daysAgo(400));
  await setOutcome('Failed', 'Failed', daysAgo(2));
});

describe('GET {F}/dashboard', () => {
  it('refuses a user without a role in the facility', async () => {
    const outsider = await tokenWith({ API: ['Get'] }, []);
    const res = await t.call('GET', `${t.F}/dashboard`, undefined, outsider);
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
  });

  it('shows a part only to a caller who may read the records behind it', async () => {
    const productsOnly = await tokenWith({ Product: ['Get'] });
    const res = await t.call('GET', `${t.F}/dashboard`, undefined, productsOnly);
    expect(res.status).toBe(200);
    const { dashboard } = res.body;
    expect(dashboard.setup).toEqual({
      actives: null,
      products: 2,
      equipment: null,
      productions: null,
      cleaningAssessments: null,
    });
    expect(dashboard.equipmentStatus).toBeNull();
    expect(dashboard.openChangeAssessments).toBeNull();
    expect(dashboard.releaseFlags).toBeNull();
    expect(dashboard.riskGoal).toBeNull();
    expect(dashboard.mySignatures).toEqual({ count: 0, items: [] });
  });

  it('counts the equipment by the latest study that covers it', async () => {
    const res = await t.call('GET', `${t.F}/dashboard`);
    expect(res.status).toBe(200);
    const status = res.body.dashboard.equipmentStatus;
    expect(status.equipmentCount).toBe(5);
    expect(status.counts).toEqual({
      Validated: 1,
      'On Going': 1,
      Failed: 1,
      Overdue: 1,
      'Not covered': 1,
    });
    expect(status.overdue).toEqual([
      expect.objectContaining({ id: equipment.Overdue, name: 'Blender Overdue' }),
    ]);
    expect(status.periodicVerificationDays).toBe(365);
    expect(res.body.dashboard.setup).toMatchObject({ actives: 4, products: 2, equipment: 5 });
  });

  it('the Overdue bar opens the studies behind it: GET {F}/studies?overdue=true', async () => {
    const res = await t.call('GET', `${t.F}/studies?overdue=true`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([studies.Overdue]);
    expect((await t.call('GET', `${t.F}/studies?overdue=false`)).body.total).toBe(4);
  });

  it('an item moves with its study’s outcome', async () => {
    await t.server.db.query(
      `update studies set outcome = 'Validated', closed_at = now() where id = $1`,
      [studies.Failed!],
    );
    const res = await t.call('GET', `${t.F}/dashboard`);
    expect(res.body.dashboard.equipmentStatus.counts).toMatchObject({ Validated: 2, Failed: 0 });
    await t.server.db.query(`update studies set outcome = 'Failed' where id = $1`, [
      studies.Failed!,
    ]);
  });

  it('counts the open change assessments by age, oldest first', async () => {
    const ids: number[] = [];
    for (const title of ['New press', 'Old detergent', 'Stale line', 'Dropped']) {
      const res = await t.call('POST', `${t.F}/change-assessments`, {
        title,
        changeType: 'New equipment',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push((res.body.changeAssessment ?? res.body.result).id);
    }
    await t.server.db.query(`update change_assessments set created_at = $2 where id = $1`, [
      ids[1]!,
      daysAgo(40),
    ]);
    await t.server.db.query(`update change_assessments set created_at = $2 where id = $1`, [
      ids[2]!,
      daysAgo(120),
    ]);
    await t.server.db.query(
      `update change_assessments set cancelled_at = now(), cancel_reason = 'not needed' where id = $1`,
      [ids[3]!],
    );
    const res = await t.call('GET', `${t.F}/dashboard`);
    const open = res.body.dashboard.openChangeAssessments;
    expect(open.open).toBe(3);
    expect(open.byAge).toEqual([
      { label: 'Under 7 days', count: 1 },
      { label: '7–30 days', count: 0 },
      { label: '30–90 days', count: 1 },
      { label: 'Over 90 days', count: 1 },
    ]);
    expect(open.oldest).toMatchObject({ id: ids[2], title: 'Stale line', ageDays: 120 });
    expect(open.oldest.number).toMatch(/^CA-\d{4}$/);
  });

  it("lists today's release flags of the runs that ended today", async () => {
    const insertRun = (study: number, sequence: number, endedAt: Date, flag: string) =>
      t.server.db.query(
        `insert into study_runs (facility_id, study_id, sequence, started_at, ended_at, verdict, release_flag)
         values ($1, $2, $3, $4, $4, 'Pass', $5)`,
        [t.facilityId, study, sequence, endedAt, flag],
      );
    await insertRun(studies.Ongoing!, 1, new Date(), 'CAN_BE_RELEASED');
    await insertRun(studies.Ongoing!, 2, new Date(), 'MAY_BE_RELEASED');
    await insertRun(studies.Failed!, 1, new Date(), 'CAN_NOT_BE_RELEASED');
    await insertRun(studies.Validated!, 1, daysAgo(3), 'CAN_BE_RELEASED');
    const res = await t.call('GET', `${t.F}/dashboard`);
    const flags = res.body.dashboard.releaseFlags;
    expect(flags.date).toBe(new Date().toISOString().slice(0, 10)); // the facility is on UTC
    expect(flags.counts).toEqual({
      CAN_BE_RELEASED: 1,
      MAY_BE_RELEASED: 1,
      CAN_NOT_BE_RELEASED: 1,
    });
    expect(flags.runs).toHaveLength(3);
    expect(flags.runs[0]).toMatchObject({ studyId: studies.Ongoing, sequence: 1 });
  });

  it('shows the records waiting for my signature, not for the submitter', async () => {
    const protocol = await t.call('POST', `${t.F}/protocols`, {
      protocolNumber: 'DB-WAIT',
      name: 'Protocol waiting',
      productIds: [],
    });
    expect(protocol.status, JSON.stringify(protocol.body)).toBe(200);
    const submit = await t.call('POST', `${t.F}/signatures`, {
      documentType: 'Protocol',
      documentId: protocol.body.result.id,
      action: 'Submit',
      password: ADMIN.password,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    const approver = await policyApprover(t.server, t.F);
    const mine = await t.call('GET', `${t.F}/dashboard`, undefined, approver.token);
    expect(mine.body.dashboard.mySignatures.count).toBe(1);
    expect(mine.body.dashboard.mySignatures.items[0]).toMatchObject({
      documentType: 'Protocol',
      documentId: protocol.body.result.id,
      action: 'Approve',
    });
    const submitter = await t.call('GET', `${t.F}/dashboard`);
    expect(submitter.body.dashboard.mySignatures.count).toBe(0);
  });

  it('holds the risk goal against the latest cleaning assessment', async () => {
    const set = await t.call('POST', `${t.F}/risk-goal`, {
      maxRiskScore: 40,
      minCoveragePercent: 80,
      reason: 'Annual review target',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const [starter] = await t.server.db.query<{ id: number }>(
      `select id from users order by id limit 1`,
    );
    await t.server.db.query(
      `insert into cleaning_assessments (facility_id, seq, number, started_by, result, completed_at)
       values ($1, 1, 'FCE-0001', $2, $3, now())`,
      [
        t.facilityId,
        starter!.id,
        JSON.stringify({
          counts: { cells: 4, study: 2, representative: 1, highestRiskScore: 48 },
        }),
      ],
    );
    const res = await t.call('GET', `${t.F}/dashboard`);
    expect(res.body.dashboard.riskGoal).toMatchObject({
      maxRiskScore: 40,
      minCoveragePercent: 80,
      current: {
        highestRiskScore: 48,
        coveragePercent: 75,
        meetsRiskScore: false,
        meetsCoverage: false,
      },
    });
    expect(res.body.dashboard.setup.cleaningAssessments).toBe(1);
  });
});

describe('GET {F}/dashboard/toxicity-score', () => {
  it('refuses a caller who may not read the actives', async () => {
    const res = await t.call(
      'GET',
      `${t.F}/dashboard/toxicity-score`,
      undefined,
      await tokenWith({ Product: ['Get'] }),
    );
    expect(res.status).toBe(403);
    expect(res.body.errName).toBe('NotAllowed');
  });

  it('counts the actives by toxicity score', async () => {
    const res = await t.call('GET', `${t.F}/dashboard/toxicity-score`);
    expect(res.status).toBe(200);
    const score = res.body.toxicityScore as Body;
    expect(score.total).toBe(4);
    expect(score.notRecorded).toBe(1);
    expect(Object.fromEntries(score.bands.map((b: Body) => [b.score, b.count]))).toEqual({
      1: 1,
      2: 0,
      3: 1,
      4: 0,
      5: 1,
    });
  });
});

describe('GET {F}/dashboard/mac_limit_tracker', () => {
  it('refuses a caller who may not read the limits', async () => {
    const res = await t.call(
      'GET',
      `${t.F}/dashboard/mac_limit_tracker`,
      undefined,
      await tokenWith({ API: ['Get'] }),
    );
    expect(res.status).toBe(403);
  });

  it('lists the snapshots of the last 90 days whose limits moved, with the approval behind them', async () => {
    const before = await t.call('GET', `${t.F}/dashboard/mac_limit_tracker`);
    const known = new Set(before.body.macLimitTracker.moves.map((m: Body) => m.snapshotId));
    const snapshot = async (hash: string, at: Date, documentType = 'ChangeAssessment') => {
      const [row] = await t.server.db.query<{ id: number }>(
        `insert into limits_snapshots (facility_id, created_at, document_type, document_id,
           version_number, input, input_hash, output_hash)
         values ($1, $2, $3, 77, 1, '{}', 'in', $4) returning id`,
        [t.facilityId, at, documentType, hash],
      );
      return row!.id;
    };
    const old = await snapshot('h-old', daysAgo(120));
    const moved = await snapshot('h-new', daysAgo(10));
    const same = await snapshot('h-new', daysAgo(5));
    const policy = await snapshot('h-policy', daysAgo(1), 'CleaningLimitPolicy');
    const res = await t.call('GET', `${t.F}/dashboard/mac_limit_tracker`);
    expect(res.status).toBe(200);
    const moves = (res.body.macLimitTracker.moves as Body[]).filter(
      (m) => !known.has(m.snapshotId),
    );
    expect(moves.map((m) => m.snapshotId)).toEqual([policy, moved]);
    expect(moves.map((m) => m.snapshotId)).not.toContain(old);
    expect(moves.map((m) => m.snapshotId)).not.toContain(same);
    expect(moves[1]).toMatchObject({
      documentType: 'ChangeAssessment',
      documentId: 77,
      changeAssessmentId: 77,
    });
    expect(moves[0]).toMatchObject({
      documentType: 'CleaningLimitPolicy',
      changeAssessmentId: null,
    });
  });

  it('lists the pairs whose rinse limit is under twice a method’s LOQ', async () => {
    const input = await facilityLimitsInput(t.server.db, t.facilityId);
    const rinse = new Map<string, number>();
    runMatrix(compileLimits(input), (view) => {
      const name = (i: number) => input.products[i]?.id ?? '';
      rinse.set(`${name(view.previous)}→${name(view.next)}`, view.rinseLimit);
    });
    const ab = rinse.get('A→B')!;
    const ba = rinse.get('B→A')!;
    expect(ba).toBeGreaterThan(ab * 4);
    // An LOQ at 0.8 × the A → B rinse limit (mg/ml): A → B is 1.25 × the LOQ; B → A is far above.
    const create = recordCreator(t.server, t.token, t.F);
    await create('analytical-method', {
      name: 'TOC 1',
      testType: 'TOC',
      loq: { value: ab * 0.8, unit: 'mg/ml' },
    });
    const res = await t.call('GET', `${t.F}/dashboard/mac_limit_tracker`);
    const near = res.body.macLimitTracker.nearLoq;
    expect(near.factor).toBe(2);
    expect(near.note).toBeNull();
    expect(near.count).toBe(1);
    expect(near.pairs[0]).toMatchObject({
      previous: 'A',
      next: 'B',
      method: 'TOC 1',
      unit: 'mg/ml',
    });
    expect(near.pairs[0].ratio).toBeCloseTo(1.25, 9);
  });
});
