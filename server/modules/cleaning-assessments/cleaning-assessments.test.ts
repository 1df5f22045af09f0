import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitBetweenReads } from '#server/test/commit-between-reads.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminActor, adminSigner } from '#server/test/factories/admin.ts';
import { buildChangeAssessment } from '#server/test/factories/change-assessments.ts';
import { actorFor } from '#server/test/factories/signed-record.ts';
import { recordFactory } from '#server/test/factories/entities.ts';
import { signedPdfText } from '#server/test/signed-pdf.ts';
import { pastTheVersionLock } from '#server/test/sign-test-kit.ts';
import { runCleaningAssessment } from './cleaning-assessment.job.ts';
import { getAssessment } from './cleaning-assessments.service.ts';

/*
 * A small facility worked by hand (Chemical policy in force: health, dose and the 10 ppm general
 * limit; no dose is given, so health governs while it is below 10 ppm × 100 kg = 1,000 mg).
 * Every product is 100 kg per batch at 1,000 mg a day: MACO = PDE × 1e5.
 *   A (Alpha 0.001 mg) 100 mg   B (Beta 0.005 mg) 500 mg   C (Gamma 0.008 mg) 800 mg
 *   D (Delta 0.002 mg) 200 mg
 * E1 and E2 are 1 sqm each. Line 1: A, B, C on E1 + E2; Line 2: C, D on E2. Surface limits:
 * A 100/20,000 = 0.005; B 0.025; C 800/20,000 = 0.04; D 200/10,000 = 0.02 mg/sqcm.
 * Groups: AB (representative A), CD (representative D, 0.02 < 0.04).
 * Studies: A on Line 1 at 0.005 and D on Line 2 at 0.02 (Validated); C on Line 1 (Failed).
 */
const t = useFacilityTestServer();

let ids: Record<'alpha' | 'beta' | 'delta' | 'a' | 'b' | 'c' | 'd' | 'line1' | 'line2', number>;

async function poll(id: number, F = t.F): Promise<TestBody> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.call('GET', `${F}/cleaning-assessments/${id}`);
    expect(res.status).toBe(200);
    const a = res.body.cleaningAssessment as TestBody;
    // Read in one snapshot, a job that has ended comes with its complete record.
    if (a.progress.state === 'done') expect(a.completedAt).not.toBeNull();
    if (a.progress.state === 'done' || a.progress.state === 'failed') return a;
    if (Date.now() > deadline) throw new Error(`assessment ${id} still ${a.progress.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function assess(reason?: string): Promise<TestBody> {
  const res = await t.call('POST', `${t.F}/cleaning-assessments`, reason ? { reason } : {});
  expect(res.status).toBe(200);
  return res.body.cleaningAssessment as TestBody;
}

const cells = (a: TestBody) =>
  (a.result.coverage as TestBody[]).map(
    (c) => `${c.train} ${c.product} ${c.state}${c.representative ? ` (${c.representative})` : ''}`,
  );

beforeAll(async () => {
  // Written by the administrator through the app's write path, as their POSTs would write them.
  const scope = { planId: t.planId, facilityId: t.facilityId };
  const create = recordFactory(t.server.db, scope, await adminActor(t.server.db));
  const active = (name: string, pde: number) =>
    create('apis', { name, pde: { value: pde, unit: 'mg' } });
  const product = (name: string, activeId: number) =>
    create('products', {
      name,
      maxDailyDose: { value: 1000, unit: 'mg' },
      minBatchSize: { value: 100, unit: 'kg' },
      actives: [{ activeId, amount: { value: 10, unit: 'mg' } }],
    });
  const alpha = await active('Alpha', 0.001);
  const delta = await active('Delta', 0.002);
  const a = await product('A', alpha);
  const beta = await active('Beta', 0.005);
  const b = await product('B', beta);
  const c = await product('C', await active('Gamma', 0.008));
  const d = await product('D', delta);
  const sqm = { value: 1, unit: 'sqm' };
  const e1 = await create('equipments', { name: 'E1', surfaceArea: sqm });
  const e2 = await create('equipments', { name: 'E2', surfaceArea: sqm });
  const line1 = await create('productions', {
    name: 'Line 1',
    equipmentIds: [e1, e2],
    productIds: [a, b, c],
  });
  const line2 = await create('productions', {
    name: 'Line 2',
    equipmentIds: [e2],
    productIds: [c, d],
  });
  await create('product_groups', { name: 'Group AB', productIds: [a, b] });
  await create('product_groups', { name: 'Group CD', productIds: [c, d] });
  const study = (productId: number, productionId: number, outcome: string, limit: number) =>
    create('historical-study', {
      productId,
      productionId,
      studyType: 'Validation',
      completedDate: '2025-06-01',
      outcome,
      surfaceLimitValidated: { value: limit, unit: 'mg/sqcm' },
      name: `CVR-${productId}-${productionId}`,
    });
  await study(a, line1, 'Validated', 0.005);
  await study(d, line2, 'Validated', 0.02);
  await study(c, line1, 'Failed', 0.04);
  ids = { alpha, beta, delta, a, b, c, d, line1, line2 };
});

describe('historical studies (a declared record)', () => {
  it('are listed, versioned and refuse a product of nowhere', async () => {
    const list = await t.call('GET', `${t.F}/historical-study`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(3);
    const bad = await t.call('POST', `${t.F}/historical-study`, {
      productId: 999_999,
      productionId: ids.line1,
      studyType: 'Validation',
      completedDate: '2025-06-01',
      outcome: 'Validated',
      name: 'CVR-X',
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
});

describe('cleaning assessments', () => {
  let first: TestBody;

  it('starts at once (queued) and the job computes the result by hand', async () => {
    const started = await assess('Annual review');
    expect(started).toMatchObject({
      number: 'FCE-0001',
      reason: 'Annual review',
      result: null,
      completedAt: null,
      status: 'BeingBuilt',
    });
    // Who started it, by name, for the list (the seeded administrator).
    const [starter] = await t.server.db.query<{ name: string }>(
      `select concat_ws(' ', first_name, last_name) as name from users where id = $1`,
      [started.startedBy],
    );
    expect(started.startedByName).toBe(starter?.name);
    expect(started.startedByName).toBeTruthy();
    expect(['queued', 'running', 'done']).toContain(started.progress.state);
    first = await poll(started.id);
    expect(first.progress).toMatchObject({ state: 'done', error: null });
    // It ran as a background job, which ended done after reporting every stage.
    const jobOf = async () =>
      (
        await t.server.db.query<{ name: string; state: string; total: number }>(
          `select j.name, j.state, j.total from job_runs j
             join cleaning_assessments a on a.job_id = j.id where a.id = $1`,
          [started.id],
        )
      )[0];
    // The record is complete a moment before the handler returns and the job is marked done.
    let run = await jobOf();
    for (let i = 0; i < 50 && run?.state !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = await jobOf();
    }
    expect(run).toEqual({ name: 'cleaning-assessment', state: 'done', total: 5 });
    expect(first.completedAt).not.toBeNull();
    expect(cells(first)).toEqual([
      'Line 1 A study',
      'Line 1 B representative (A)',
      'Line 1 C notCovered',
      'Line 2 C representative (D)',
      'Line 2 D study',
    ]);
    expect(
      first.result.worstCases.map((w: TestBody) => [w.train, w.product, w.lowestMaco, w.lowestSal]),
    ).toEqual([
      ['Line 1', 'A', 100, 0.005],
      ['Line 2', 'D', 200, 0.02],
    ]);
    expect(first.result.worstCases[0].reason).toBe(
      'Lowest MACO into any next product on this train: 100 mg (A → B, health-based, PDE of Alpha 0.001 mg); lowest surface limit 0.005 mg/cm²',
    );
    expect(
      (first.result.groups as TestBody[])
        .filter((g) => g.kind === 'product')
        .map((g) => [g.name, g.representative]),
    ).toEqual([
      ['Group AB', 'A'],
      ['Group CD', 'D'],
    ]);
    expect(first.result.counts).toEqual({
      cells: 5,
      study: 2,
      representative: 2,
      tightened: 0,
      notCovered: 1,
      highestRiskScore: null,
    });
    expect(first.result.diff.priorId).toBeNull();
    expect(first.result.inputHash).toMatch(/^[0-9a-f]{64}$/);
    // Its one gap is now an Open qualification task.
    const tasks = await t.call('GET', `${t.F}/qualification-task?evaluationId=${first.id}`);
    expect(tasks.status).toBe(200);
    expect(
      tasks.body.qualificationTasks.map((k: TestBody) => [k.train, k.product, k.gap, k.status]),
    ).toEqual([['Line 1', 'C', 'notCovered', 'Open']]);
  });

  it('is then version 1 Being Built of CleaningAssessment, which can be submitted', async () => {
    const [version] = await t.server.db.query<{ status: string; version_number: number }>(
      `select status, version_number from controlled_versions
        where document_type = 'CleaningAssessment' and document_id = $1`,
      [first.id],
    );
    expect(version).toEqual({ status: 'BeingBuilt', version_number: 1 });
    const submit = await t.call('POST', `${t.F}/signatures`, {
      documentType: 'CleaningAssessment',
      documentId: first.id,
      action: 'Submit',
      password: 'Admin#12345',
    });
    expect(submit.status).toBe(200);
    const read = await t.call('GET', `${t.F}/cleaning-assessments/${first.id}`);
    expect(read.body.cleaningAssessment.status).toBe('BeingApproved');

    // The signed PDF prints the assessment for a reader: its gaps by name, not the result's JSON.
    const text = await signedPdfText(t.server, t.F, t.token, 'CleaningAssessment', first.id);
    expect(text).toContain('Worst case per train');
    expect(text).toContain('C on Line 1: Not covered');
    expect(text).not.toContain('"coverage"');
  });

  it('lists the changes since, shows a tightened limit after a PDE change, and the diff', async () => {
    const none = await t.call('GET', `${t.F}/cleaning-assessments/from-last`);
    expect(none.body).toMatchObject({ priorId: first.id, changes: [], total: 0 });
    // Delta's PDE halves: D's surface limit falls from 0.02 to 0.01, below its study's 0.02.
    const [delta] = await t.server.db.query<{ version: number }>(
      'select version from actives where id = $1',
      [ids.delta],
    );
    const edit = await t.call('POST', `${t.F}/apis/${ids.delta}`, {
      pde: { value: 0.001, unit: 'mg' },
      reason: 'New toxicology report',
      version: delta!.version,
    });
    expect(edit.status).toBe(200);
    const since = await t.call('GET', `${t.F}/cleaning-assessments/from-last`);
    expect(since.body).toMatchObject({
      priorId: first.id,
      since: first.completedAt,
      total: 1,
      changes: [
        {
          domain: 'API',
          action: 'Update',
          entityId: String(ids.delta),
          entityName: 'Delta',
          reason: 'New toxicology report',
          changeAssessment: null,
        },
      ],
    });

    const second = await poll((await assess()).id);
    expect(second.number).toBe('FCE-0002');
    expect(cells(second)).toEqual([
      'Line 1 A study',
      'Line 1 B representative (A)',
      'Line 1 C notCovered',
      'Line 2 C representative (D)',
      'Line 2 D tightened',
    ]);
    const d = (second.result.coverage as TestBody[]).find((c) => c.product === 'D')!;
    expect(d.currentLimit).toBeCloseTo(0.01, 12);
    expect(d.evidence).toEqual([
      expect.objectContaining({
        kind: 'historicalStudy',
        name: `CVR-${ids.d}-${ids.line2}`,
        limitAtStudy: 0.02,
      }),
    ]);
    expect(second.result.diff).toEqual({
      priorId: first.id,
      newGaps: [{ product: 'D', train: 'Line 2' }],
      closedGaps: [],
      worstCaseChanges: [],
      changeAssessments: [],
    });

    // The changes that led to the second assessment, asked by its id, are the same edit.
    const forSecond = await t.call('GET', `${t.F}/cleaning-assessments/from-last?id=${second.id}`);
    expect(forSecond.body.total).toBe(1);
    expect(forSecond.body.changes[0].reason).toBe('New toxicology report');
    const latest = await t.call('GET', `${t.F}/cleaning-assessments/from-last`);
    expect(latest.body).toMatchObject({ priorId: second.id, total: 0 });

    const prior = await t.call('GET', `${t.F}/prior_assessment`);
    expect(prior.status).toBe(200);
    expect(prior.body.priorAssessment).toMatchObject({ id: first.id, number: 'FCE-0001' });
    expect(prior.body.priorAssessment.counts.notCovered).toBe(1);
    const beforeFirst = await t.call('GET', `${t.F}/prior_assessment?id=${first.id}`);
    expect(beforeFirst.body).toEqual({ priorAssessment: null });

    const tasks = await t.call('GET', `${t.F}/qualification-task?evaluationId=${second.id}`);
    expect(
      tasks.body.qualificationTasks
        .map((k: TestBody) => `${k.train} ${k.product} ${k.proposedStudyType}`)
        .sort(),
    ).toEqual(['Line 1 C New Product Introduction', 'Line 2 D Verification']);

    // The risk goal is shown against the latest completed assessment.
    const goal = await t.call('GET', `${t.F}/risk-goal`);
    expect(goal.body.riskGoal.current).toMatchObject({ assessmentId: second.id });

    const list = await t.call('GET', `${t.F}/cleaning-assessments?pageLimit=1`);
    expect(list.body.total).toBe(2);
    expect(list.body.cleaningAssessments.map((a: TestBody) => a.number)).toEqual(['FCE-0002']);
    expect(list.body.cleaningAssessments[0].counts.tightened).toBe(1);
    expect(list.body.cleaningAssessments[0]).not.toHaveProperty('result');
  });

  it('ends its job in the transaction that stores the result, never done and running', async () => {
    // now() is the transaction's start: equal times mean one transaction wrote both.
    const rows = await t.server.db.query<{ together: boolean; state: string }>(
      `select a.completed_at = j.finished_at as together, j.state
         from cleaning_assessments a join job_runs j on j.id = a.job_id
        where a.facility_id = $1 order by a.id`,
      [t.facilityId],
    );
    expect(rows).toEqual([
      { together: true, state: 'done' },
      { together: true, state: 'done' },
    ]);
  });

  it('audits the start and the completion', async () => {
    const rows = await t.server.db.query<{ action: string; entity_id: string }>(
      `select action, entity_id from audit_log where domain = 'CleaningAssessment' order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['Generate', 'Complete', 'Generate', 'Complete']);
  });

  it('runs as a plain function reporting each stage, and does nothing once done', async () => {
    const started = await assess();
    await poll(started.id);
    const stages: string[] = [];
    const record = async (p: { stage: string }) => {
      stages.push(p.stage);
    };
    await runCleaningAssessment(t.server.db, started.id, {
      progress: record,
      complete: (_tx, p) => record(p),
    });
    expect(stages).toEqual([]);
    const [row] = await t.server.db.query<{ id: number }>(
      `insert into cleaning_assessments (facility_id, seq, number, started_by)
       values ($1, 99, 'FCE-0099', (select id from users order by id limit 1)) returning id`,
      [t.facilityId],
    );
    const stage = async (p: { stage: string; done: number; total: number }) => {
      stages.push(`${p.done}/${p.total} ${p.stage}`);
    };
    // Done is reported in the transaction that stores the result.
    await runCleaningAssessment(t.server.db, row!.id, {
      progress: stage,
      complete: (_tx, p) => stage(p),
    });
    expect(stages).toEqual([
      '0/5 Reading master data',
      '1/5 Computing limits',
      '2/5 Checking coverage',
      '3/5 Comparing with the prior assessment',
      '4/5 Creating qualification tasks',
      '5/5 Done',
    ]);
  });
});

describe('a change made through an approved change assessment', () => {
  it('shows in from-last with its change assessment, and in the next diff', async () => {
    // Set up through the module's services and real signatures: the reads below are under test.
    const admin = await adminSigner(t.server.db);
    const ca = await buildChangeAssessment(
      t.server,
      { planId: t.planId, facilityId: t.facilityId },
      {
        actor: actorFor(admin),
        fields: { title: 'Beta PDE update', changeType: 'HBEL/dose/batch change' },
        changes: [
          {
            op: 'update',
            entity: 'actives',
            recordId: ids.beta,
            values: { pde: { value: 0.004, unit: 'mg' } },
          },
        ],
        decideAll: true,
        signers: { submitter: admin },
      },
    );
    expect(ca.changeStatus).toBe('Approved');

    const changes = await t.call('GET', `${t.F}/cleaning-assessments/from-last`);
    const beta = (changes.body.changes as TestBody[]).find((c) => c.entityName === 'Beta');
    expect(beta).toMatchObject({
      domain: 'API',
      reason: expect.stringMatching(/^CA-\d{4}: /),
      changeAssessment: { id: ca.id, number: ca.number, title: 'Beta PDE update' },
    });
    const next = await poll((await assess()).id);
    expect(next.result.diff.changeAssessments).toEqual([
      { id: ca.id, number: ca.number, title: 'Beta PDE update' },
    ]);
  });
});

describe('a job that cannot finish', () => {
  it('leaves the assessment failed with the error, audited, and no version to sign', async () => {
    const [site] = await t.server.db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       select plan_id, facility_group_id, 'Broken Site', 'product', 'full' from facilities
        order by id limit 1 returning id`,
    );
    // A policy the engine cannot use (stored before a rule existed) stops the whole assessment.
    // Such a policy predates the lock on approved versions: only the owner can still write it.
    await pastTheVersionLock(
      await t.server.db.owner(),
      `update controlled_versions set content = content || '{"safetyFactor": -1}'
        where facility_id = $1 and document_type = 'CleaningLimitPolicy' and status = 'Approved'`,
      [site!.id],
    );
    const [row] = await t.server.db.query<{ id: number }>(
      `insert into cleaning_assessments (facility_id, seq, number, started_by)
       values ($1, 1, 'FCE-0001', (select id from users order by id limit 1)) returning id`,
      [site!.id],
    );
    await expect(runCleaningAssessment(t.server.db, row!.id)).rejects.toThrow(/cannot be computed/);
    const [after] = await t.server.db.query<{ progress: TestBody; completed_at: Date | null }>(
      'select progress, completed_at from cleaning_assessments where id = $1',
      [row!.id],
    );
    expect(after!.completed_at).toBeNull();
    expect(after!.progress).toMatchObject({ state: 'failed', stage: 'Failed' });
    expect(after!.progress.error).toMatch(/cannot be computed/);
    const versions = await t.server.db.query(
      `select 1 from controlled_versions where document_type = 'CleaningAssessment' and document_id = $1`,
      [row!.id],
    );
    expect(versions).toEqual([]);
    const [audit] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'CleaningAssessment' and facility_id = $1`,
      [site!.id],
    );
    expect(audit?.action).toBe('Failed');
  });
});

describe('permissions and scoping', () => {
  const tokenWith = async (permissions: Record<string, string[]>) => {
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith(permissions),
    });
    return t.server.login(user.username, user.password);
  };

  it('needs Generate to start and Get to read', async () => {
    const reader = await tokenWith({ FacilityCleaningEvaluation: ['Get'] });
    const none = await tokenWith({ Product: ['Get'] });
    expect((await t.call('POST', `${t.F}/cleaning-assessments`, {}, reader)).status).toBe(403);
    expect((await t.call('GET', `${t.F}/cleaning-assessments`, undefined, reader)).status).toBe(
      200,
    );
    for (const path of [
      'cleaning-assessments',
      'cleaning-assessments/from-last',
      'prior_assessment',
    ])
      expect((await t.call('GET', `${t.F}/${path}`, undefined, none)).status).toBe(403);
  });

  it("answers 404 for another facility's assessment and for an unknown one", async () => {
    const [own] = await t.server.db.query<{ id: number }>(
      'select id from cleaning_assessments where facility_id = $1 order by id limit 1',
      [t.facilityId],
    );
    const [other] = await t.server.db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       select plan_id, facility_group_id, 'Other Site', 'product', 'full' from facilities
        order by id limit 1 returning id`,
    );
    // The administrator holds the same roles there: the refusal is the scoping, not a permission.
    await t.server.db.query(
      `insert into user_facility_roles (user_id, facility_id, role_id)
       select user_id, $2, role_id from user_facility_roles where facility_id = $1`,
      [t.facilityId, other!.id],
    );
    const F2 = t.F.replace(/facilities\/\d+$/, `facilities/${other!.id}`);
    const res = await t.call('GET', `${F2}/cleaning-assessments/${own!.id}`);
    expect(res.status).toBe(404);
    expect((await t.call('GET', `${F2}/prior_assessment?id=${own!.id}`)).status).toBe(404);
    const from = await t.call('GET', `${F2}/cleaning-assessments/from-last?id=${own!.id}`);
    expect(from.status).toBe(404);
    // Nothing of the first facility shows in the other's list.
    expect((await t.call('GET', `${F2}/cleaning-assessments`)).body).toEqual({
      cleaningAssessments: [],
      total: 0,
    });
    expect((await t.call('GET', `${t.F}/cleaning-assessments/999999`)).status).toBe(404);
    expect((await t.call('GET', `${t.F}/cleaning-assessments/abc`)).status).toBe(422);
  });
});

describe('an assessment read as its job ends', () => {
  it('shows the record and its job as of one moment: never done and incomplete', async () => {
    const db = t.server.db;
    const jobId = randomUUID();
    await db.query(
      `insert into job_runs (id, facility_id, name, state, stage, done, total)
       values ($1, $2, 'cleaning-assessment', 'running', 'Creating qualification tasks', 4, 5)`,
      [jobId, t.facilityId],
    );
    const [row] = await db.query<{ id: number }>(
      `insert into cleaning_assessments (facility_id, seq, number, job_id, started_by)
       select $1, 900, 'FCE-0900', $2, min(id) from users returning id`,
      [t.facilityId, jobId],
    );
    // The job commits its end (record and job in one transaction) right after the first read.
    const racing = commitBetweenReads(db, async (tx) => {
      await tx.query(
        `update cleaning_assessments set completed_at = now(),
                progress = '{"state":"done","stage":"Done","done":5,"total":5,"error":null}'
          where id = $1`,
        [row!.id],
      );
      await tx.query(`update job_runs set state = 'done', done = 5 where id = $1`, [jobId]);
    });
    const read = await getAssessment(racing, t.facilityId, row!.id);
    expect(read).toMatchObject({
      completedAt: null,
      progress: { state: 'running', stage: 'Creating qualification tasks', done: 4, total: 5 },
    });
    const after = await getAssessment(db, t.facilityId, row!.id);
    expect(after.completedAt).not.toBeNull();
    expect(after.progress).toMatchObject({ state: 'done', done: 5 });
  });
});
