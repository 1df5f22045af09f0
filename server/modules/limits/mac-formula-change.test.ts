import { beforeAll, describe, expect, it } from 'vitest';
import {
  facilityCalls,
  useFacilityTestServer,
  type TestBody,
} from '#server/test/facility-test-file.ts';
import { adminEditor, policyApprover, putInForce } from '#server/test/policy-in-force.ts';
import { buildMacFacility, uncheckedFormula } from '#server/test/mac-test-data.ts';

/*
 * Issue 32: approving a MAC formula moves limits, so in a facility with change control (the full
 * tier, as the test facility) it goes through a change assessment. A → B of the test facility:
 * the general limit, 1,000 mg, governs; `TDD * MBS / (100000 * MDD)` = 10 × 1e8 / (1e5 × 400) =
 * 25 mg tightens it.
 */

const t = useFacilityTestServer();
const CA = '/change-assessments';
const { call, ok } = facilityCalls(t);
const explainAB = async () =>
  (await ok('GET', '/mac-matrix/explain?previous=A&next=B')).explanation as TestBody;
const newAssessment = async (title: string) =>
  (await ok('POST', CA, { title, changeType: 'Other' })).changeAssessment as TestBody;
const stage = (ca: TestBody, values: Record<string, unknown>, recordId?: number) =>
  call('POST', `${CA}/${ca.id}/changes`, {
    op: recordId === undefined ? 'create' : 'update',
    entity: 'macFormulas',
    ...(recordId === undefined ? {} : { recordId }),
    values,
    reason: 'Site criterion for highly potent actives',
    version: ca.version,
  });

/** Every impact item of the evaluated assessment decided. */
async function decideAll(ca: TestBody) {
  const impact = await ok('GET', `${CA}/${ca.id}/impact?pageLimit=1000`);
  if (impact.items.length > 0)
    await ok('POST', `${CA}/${ca.id}/decisions`, {
      version: ca.version,
      decisions: (impact.items as TestBody[]).map((i) => ({
        key: i.key,
        decision: 'verification',
        justification: 'Verify on the next batch',
      })),
    });
}

/** Every impact item decided, then the assessment submitted and approved: its set applied. */
async function approve(ca: TestBody) {
  await decideAll(ca);
  await putInForce(t.server, t.F, adminEditor(t.token), 'ChangeAssessment', ca.id);
}

const signAs = (
  as: { token: string; password: string },
  documentType: string,
  documentId: number,
  action: string,
  reason?: string,
) =>
  t.call(
    'POST',
    `${t.F}/signatures`,
    { documentType, documentId, action, password: as.password, ...(reason ? { reason } : {}) },
    as.token,
  );

/** The versions of a formula as stored: what a refused approval must leave as it was. */
const versionsOf = (id: number) =>
  t.server.db.query<{ status: string; approved_at: Date | null }>(
    `select status, approved_at from controlled_versions
      where document_type = 'MacFormula' and document_id = $1 order by version_number`,
    [id],
  );

const evaluate = async (ca: TestBody) =>
  (await ok('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }))
    .changeAssessment as TestBody;

beforeAll(async () => {
  await buildMacFacility(t.server, t.facilityId);
});

describe('a MAC formula under change control', () => {
  it('refuses its direct approval, naming the change assessment, and changes nothing', async () => {
    const created = await ok('POST', '/mac-formulas', {
      name: 'Direct',
      expression: 'TDD * MBS / (100000 * MDD)',
    });
    const id = created.result.id as number;
    const submit = await call('POST', '/signatures', {
      documentType: 'MacFormula',
      documentId: id,
      action: 'Submit',
      password: adminEditor(t.token).password,
    });
    expect(submit.status).toBe(409);
    expect(submit.body.message).toContain('approving a change assessment that stages it');
    // Words a user follows on the screen, not a route (issue 30).
    expect(submit.body.message).toContain('Change control');
    expect(submit.body.message).not.toMatch(/\/|\{id\}/);
    const read = await ok('GET', `/mac-formulas/${id}`);
    expect(read.status).toBe('BeingBuilt');
    expect((await explainAB()).governing).toBe('arl');
  });

  it('refuses a staged formula whose units do not give a mass, on the field', async () => {
    const ca = await newAssessment('Formula with wrong units');
    const res = await stage(ca, { name: 'Wrong units', expression: 'HBEL + MBS' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain(
      "Units do not match: 'HBEL + MBS' adds mg/day and mg",
    );
    expect(((await ok('GET', `${CA}/${ca.id}`)).changeAssessment as TestBody).changes).toEqual([]);
  });

  it('shows its effect on each pair before approval, and is in force once approved', async () => {
    let ca = await newAssessment('Site dose criterion');
    const staged = await stage(ca, { name: 'Site dose', expression: 'TDD * MBS / (100000 * MDD)' });
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    ca = staged.body.changeAssessment as TestBody;
    expect(ca.changes[0].label).toBe(
      "MAC formula 'Site dose': create, put in force: MACO = TDD * MBS / (100000 * MDD)",
    );
    ca = (await ok('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version }))
      .changeAssessment as TestBody;
    const pairs = (await ok('GET', `${CA}/${ca.id}/impact/pairs?pageLimit=1000`))
      .pairs as TestBody[];
    const ab = pairs.find((p) => p.previous === 'A' && p.next === 'B')!;
    expect(ab.before.maco).toBe(1000);
    expect(ab.after.maco).toBe(25);
    expect(ab.criteria.before.formula).toBeNull();
    expect(ab.criteria.after.formula).toBe(25);
    // Evaluated, not applied: the formula is no record yet and the limit has not moved.
    expect((await explainAB()).governing).toBe('arl');
    expect(
      ((await ok('GET', '/mac-formulas')).data as TestBody[]).some((f) => f.name === 'Site dose'),
    ).toBe(false);

    await approve(ca);

    const formula = ((await ok('GET', '/mac-formulas')).data as TestBody[]).find(
      (f) => f.name === 'Site dose',
    )!;
    expect(formula.status).toBe('Approved');
    const [approval] = await t.server.db.query<{ reason: string }>(
      `select reason from audit_log where domain = 'ElectronicSignature'
          and action = 'ApprovedByRecord' and entity_id = $1::text`,
      [formula.id],
    );
    expect(approval?.reason).toMatch(/^Approved with CA-\d+/);
    const approved = await explainAB();
    expect(approved.governing).toBe('formula');
    expect(approved.maco.result).toEqual({ value: 25, unit: 'mg' });
  });

  it('puts a new version of an approved formula in force the same way', async () => {
    const formula = ((await ok('GET', '/mac-formulas')).data as TestBody[]).find(
      (f) => f.name === 'Site dose',
    )!;
    let ca = await newAssessment('Site dose criterion relaxed');
    const staged = await stage(ca, { expression: 'TDD * MBS / (50000 * MDD)' }, formula.id);
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    expect(staged.body.changeAssessment.changes[0].label).toBe(
      "MAC formula 'Site dose': edit Expression, put in force: MACO = TDD * MBS / (50000 * MDD)",
    );
    ca = await evaluate(staged.body.changeAssessment as TestBody);
    const pairs = (await ok('GET', `${CA}/${ca.id}/impact/pairs?previous=A`)).pairs as TestBody[];
    // 10 × 1e8 / (5e4 × 400) = 50 mg, from 25 mg.
    expect(pairs.find((p) => p.next === 'B')).toMatchObject({
      before: { maco: 25 },
      after: { maco: 50 },
    });
    expect((await explainAB()).maco.result).toEqual({ value: 25, unit: 'mg' });
    await approve(ca);
    const approved = await explainAB();
    expect(approved.maco.result).toEqual({ value: 50, unit: 'mg' });
    expect(approved.criteria.formula.formula).toBe(
      'Site dose (version 2): MACO = TDD * MBS / (50000 * MDD)',
    );
  });

  it('puts a formula saved on the screen in force by staging it without an edit', async () => {
    const { result: draft } = await ok('POST', '/mac-formulas', {
      name: 'Saved first',
      expression: 'TDD * MBS / (40000 * MDD)',
    });
    let ca = await newAssessment('Saved formula in force');
    const staged = await stage(ca, {}, draft.id);
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    expect(staged.body.changeAssessment.changes[0].label).toBe(
      "MAC formula 'Saved first': version being built, put in force: MACO = TDD * MBS / (40000 * MDD)",
    );
    ca = await evaluate(staged.body.changeAssessment as TestBody);
    // 10 × 1e8 / (4e4 × 400) = 62.5 mg: Site dose, 50 mg, still governs; no limit moves.
    expect(ca.evaluation.summary.pairsMoved).toBe(0);
    await approve(ca);
    const read = await ok('GET', `/mac-formulas/${draft.id}`);
    expect(read).toMatchObject({ status: 'Approved', expression: 'TDD * MBS / (40000 * MDD)' });
    // In force, nothing is left being built to stage without an edit.
    const again = await stage(await newAssessment('Nothing to put in force'), {}, draft.id);
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body.errors)).toContain('has no version being built');
  });

  it('refuses the direct approval of a version submitted before, which a rejection returns to staging', async () => {
    // Submitted before the facility had change control (or before the rule): its own Approve
    // would put it in force without an assessment of its effect.
    const id = await uncheckedFormula(t.server, t.facilityId, {
      name: 'Submitted before',
      expression: 'TDD * MBS / (30000 * MDD)',
      submitted: true,
    });
    const approver = await policyApprover(t.server, t.F);
    const direct = await signAs(approver, 'MacFormula', id, 'Approve');
    expect(direct.status).toBe(409);
    expect(direct.body.errName).toBe('TransactionLocked');
    expect(direct.body.message).toContain('approving a change assessment that stages it');
    expect(await versionsOf(id)).toEqual([{ status: 'BeingApproved', approved_at: null }]);
    const signed = await t.server.db.query(
      `select 1 from signatures where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    expect(signed).toEqual([]);

    const rejected = await signAs(
      approver,
      'MacFormula',
      id,
      'Reject',
      'Goes through change control',
    );
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    let ca = await newAssessment('Formula submitted before');
    const staged = await stage(ca, {}, id);
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    ca = await evaluate(staged.body.changeAssessment as TestBody);
    await approve(ca);
    expect(await versionsOf(id)).toEqual([{ status: 'Approved', approved_at: expect.any(Date) }]);
  });

  it('refuses to evaluate an assessment that would put in force a version never checked', async () => {
    const id = await uncheckedFormula(t.server, t.facilityId, {
      name: 'Staged unchecked',
      expression: 'HBEL + MBS',
      submitted: false,
    });
    const ca = await newAssessment('Formula never checked');
    const staged = await stage(ca, {}, id);
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    // The evaluation applies the change set as its approval would, and is refused as it would be:
    // so the assessment is never submitted with it (approveByRecord refuses it again).
    const refused = await call('POST', `${CA}/${ca.id}/evaluate`, {
      version: staged.body.changeAssessment.version,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errName).toBe('DataValidationError');
    expect(refused.body.message).toMatch(
      /^MAC formula 'Staged unchecked' version 1 cannot be put in force: Units do not match: 'HBEL \+ MBS' adds mg\/day and mg\. CA-\d+ cannot put it in force as it is: correct its expression\.$/,
    );
    expect(refused.body.errors).toEqual([
      {
        property: 'expression',
        constraints: { units: "Units do not match: 'HBEL + MBS' adds mg/day and mg" },
      },
    ]);
    // Nothing was applied: the formula is being built, the assessment not evaluated.
    expect(await versionsOf(id)).toEqual([{ status: 'BeingBuilt', approved_at: null }]);
    const byRecord = await t.server.db.query(
      `select 1 from audit_log where domain = 'ElectronicSignature' and action = 'ApprovedByRecord'
          and entity_id = $1::text`,
      [id],
    );
    expect(byRecord).toEqual([]);
    const read = (await ok('GET', `${CA}/${ca.id}`)).changeAssessment as TestBody;
    expect(read.evaluation).toBeNull();
    expect((await signAs(adminEditor(t.token), 'ChangeAssessment', ca.id, 'Submit')).status).toBe(
      409,
    );
  });

  it("refuses the assessment's approval when the version it puts in force changed behind the app", async () => {
    const { result: draft } = await ok('POST', '/mac-formulas', {
      name: 'Changed after evaluation',
      expression: 'TDD * MBS / (20000 * MDD)',
    });
    const id = draft.id as number;
    let ca = await newAssessment('Formula changed after evaluation');
    const staged = await stage(ca, {}, id);
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    ca = await evaluate(staged.body.changeAssessment as TestBody);
    await decideAll(ca);
    const submitted = await signAs(adminEditor(t.token), 'ChangeAssessment', ca.id, 'Submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    // The version being built, rewritten by other means than a save once the assessment was
    // submitted: no check saw it.
    const owner = await t.server.db.owner();
    await owner.query(
      `update controlled_versions set content = jsonb_set(content, '{expression}', '"HBEL + MBS"')
        where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    const approver = await policyApprover(t.server, t.F);
    const refused = await signAs(approver, 'ChangeAssessment', ca.id, 'Approve');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(
      /^MAC formula 'Changed after evaluation' version 1 cannot be put in force: Units do not match: 'HBEL \+ MBS' adds mg\/day and mg\. CA-\d+ cannot put it in force as it is: correct its expression\.$/,
    );
    expect(await versionsOf(id)).toEqual([{ status: 'BeingBuilt', approved_at: null }]);
    const read = (await ok('GET', `${CA}/${ca.id}`)).changeAssessment as TestBody;
    expect(read.status).toBe('BeingApproved');
    const approvals = await t.server.db.query(
      `select 1 from signatures where document_type = 'ChangeAssessment' and document_id = $1
          and action = 'Approve'`,
      [ca.id],
    );
    expect(approvals).toEqual([]);
  });
});
