import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { ADMIN, facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { assessmentData } from '#server/modules/cleaning-assessments/assessment-data.ts';
import { studyKit, type StudyKit } from '#server/test/study-test-kit.ts';

/* A study's origin (task, change assessment), the task read, coverage and signing it off. */

const t = useFacilityTestServer();
let kit: StudyKit;
let protocolId: number;

beforeAll(async () => {
  await setFacilityKind(t.server, 1, { tier: 'full' });
  kit = await studyKit(t);
  protocolId = (await kit.approvedProtocol()).id;
});

/** A qualification task of the facility in a status (as an assessment and a decision leave it). */
async function task(status: 'Open' | 'Accepted', facilityId = t.facilityId): Promise<number> {
  const [row] = await t.server.db.query<{ id: number }>(
    `insert into qualification_tasks (facility_id, evaluation_id, first_evaluation_id, train_id,
       train_name, product_id, product_name, gap, proposed_study_type, scope, due_date, status,
       decided_at)
     values ($1, 1, 1, $2, 'Line 1', $3, 'A', 'notCovered', 'New Product Introduction',
             'A on train Line 1: no study covers it', current_date, $4,
             case when $4 = 'Open' then null else now() end)
     returning id`,
    [facilityId, kit.line, kit.product, status],
  );
  return row!.id;
}

const start = (origin: Record<string, unknown>) =>
  t.call('POST', `${t.F}/studies`, {
    title: 'From a gap',
    studyType: 'New Product Introduction',
    protocolId,
    origin,
  });

const problem = (res: { body: Body }) => res.body.errors?.[0];

describe('origin', () => {
  it('starts from an accepted task of the facility, which then shows the study', async () => {
    const open = await start({ kind: 'qualificationTask', id: await task('Open') });
    expect(open.status).toBe(422);
    expect(problem(open).property).toBe('origin.id');
    expect(problem(open).constraints.reference).toMatch(/is open; a study starts from an accepted/);
    const missing = await start({ kind: 'qualificationTask', id: 999_999 });
    expect(missing.status).toBe(422);
    expect(problem(missing)).toEqual({
      property: 'origin.id',
      constraints: { reference: 'No such qualification task in this facility' },
    });
    const accepted = await task('Accepted');
    const res = await start({ kind: 'qualificationTask', id: accepted });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.origin).toEqual({
      kind: 'qualificationTask',
      id: accepted,
      label: 'A on Line 1',
    });
    const tasks = await t.call('GET', `${t.F}/qualification-task?status=Accepted`);
    const read = (tasks.body.qualificationTasks as Body[]).find((x) => x.id === accepted);
    expect(read!.studies).toEqual([
      { id: res.body.id, number: res.body.number, outcome: 'On Going' },
    ]);
  });

  it("refuses another facility's task or change assessment", async () => {
    const otherF = await facilityPath(t.server, 1);
    const otherId = Number(/facilities\/(\d+)/.exec(otherF)![1]);
    const theirs = await start({ kind: 'qualificationTask', id: await task('Accepted', otherId) });
    expect(theirs.status).toBe(422);
    expect(problem(theirs).property).toBe('origin.id');
    const ca = await t.call('POST', `${otherF}/change-assessments`, {
      title: 'Elsewhere',
      changeType: 'New product',
    });
    expect(ca.status, JSON.stringify(ca.body)).toBe(200);
    const res = await start({ kind: 'changeAssessment', id: ca.body.changeAssessment.id });
    expect(res.status).toBe(422);
    expect(problem(res).constraints.reference).toBe('No such change assessment in this facility');
  });

  it('starts from a change assessment of the facility, labelled by its number', async () => {
    const ca = await t.call('POST', `${t.F}/change-assessments`, {
      title: 'New product B',
      changeType: 'New product',
    });
    const res = await start({ kind: 'changeAssessment', id: ca.body.changeAssessment.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.origin).toEqual({
      kind: 'changeAssessment',
      id: ca.body.changeAssessment.id,
      label: ca.body.changeAssessment.number,
    });
  });
});

describe('signing a study off', () => {
  const sign = (id: number, action: string) =>
    t.call('POST', `${t.F}/signatures`, {
      documentType: 'Study',
      documentId: id,
      action,
      password: ADMIN.password,
    });

  it('is refused while a run is not completed, and taken once every run is', async () => {
    const study = await kit.study(protocolId);
    const [run] = await t.server.db.query<{ id: number }>(
      `insert into study_runs (facility_id, study_id, sequence) values ($1, $2, 1) returning id`,
      [t.facilityId, study.id],
    );
    const refused = await sign(study.id, 'Submit');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Every run must be completed before the study is submitted; not completed: run 1',
    );
    const [audit] = await t.server.db.query<Body>(
      `select new_values from audit_log where domain = 'ElectronicSignature'
          and action = 'SignatureRefused' and entity_id = $1 order by id desc limit 1`,
      [study.id],
    );
    expect(audit!.new_values).toMatchObject({ documentType: 'Study', attempted: 'Submit' });
    // The run's record approved (as the runs' signatures leave it): the run is Completed. Only
    // the schema's owner may write an Approved version straight away; the app role starts one
    // Being Built (the version lock).
    await (
      await t.server.db.owner()
    ).query(
      `insert into controlled_versions (facility_id, document_type, document_id, version_number,
         status, signature_state, content, title, approved_at)
       values ($1, 'Run', $2, 1, 'Approved', 'Signed', '{}', 'Run 1', now())`,
      [t.facilityId, run!.id],
    );
    const submitted = await sign(study.id, 'Submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.document.status).not.toBe('BeingBuilt');
    const read = await t.call('GET', `${t.F}/studies/${study.id}`);
    expect(read.body).toMatchObject({
      runCount: 1,
      controlled: { signatureState: 'PendingApproval' },
    });
  });
});

describe('coverage', () => {
  it("counts a Validated study for each product of its protocol on the protocol's line", async () => {
    const study = await kit.study(protocolId);
    const evidenceOf = async () =>
      (await assessmentData(t.server.db, t.facilityId, 1_000_000)).args.evidence.filter(
        (e) => e.kind === 'study' && e.id === study.id,
      );
    expect(await evidenceOf()).toEqual([]);
    await t.server.db.query(`update studies set outcome = 'Validated' where id = $1`, [study.id]);
    expect(await evidenceOf()).toEqual([
      {
        kind: 'study',
        id: study.id,
        name: study.number,
        productId: kit.product,
        trainId: kit.line,
        outcome: 'Validated',
        limitAtStudy: null,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ]);
  });
});
