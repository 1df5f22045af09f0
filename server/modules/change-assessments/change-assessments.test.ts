import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, policyApprover } from '#server/test/policy-in-force.ts';
import { signedPdfText } from '#server/test/signed-pdf.ts';
import { facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * Change assessments over HTTP: a staged change set changes nothing until approved; staging is
 * refused exactly as the direct edit; the evaluation's currency, the decisions and the approval
 * steps; an approved set gives the limits the same edits give made directly on a twin facility.
 */

// The hook of the approval test posts to 127.0.0.1, which a hook reaches only when listed.
const t = useFacilityTestServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
let here: MacFacility;
let twin: MacFacility;
beforeAll(async () => {
  await setFacilityKind(t.server, 1, { tier: 'full' });
  here = await buildMacFacility(t.server, t.facilityId);
  const otherF = await facilityPath(t.server, 1);
  twin = await buildMacFacility(t.server, Number(/facilities\/(\d+)/.exec(otherF)![1]));
});

const CA = '/change-assessments';
const call = (method: string, path: string, body?: unknown, as?: string) =>
  t.call(method, `${here.F}${path}`, body, as);
const idOf = async (F: string, path: string, name: string) => {
  const res = await t.call('GET', `${F}/${path}?search=${name}&pageLimit=100`);
  const found = (res.body.data as Body[]).find((r) => r.name === name);
  return found!.id as number;
};
const matrix = async (F: string) => {
  const res = await fetch(`${t.server.url}${F}/mac-matrix`, { headers: { token: t.token } });
  expect(res.status).toBe(200);
  return res.text();
};
const auditCount = async (facilityId: number, domains: string[]) => {
  const [row] = await t.server.db.query<{ n: number }>(
    `select count(*)::int as n from audit_log where facility_id = $1 and domain = any($2::text[])`,
    [facilityId, domains],
  );
  return row!.n;
};
const MASTER = ['Product', 'Equipment', 'Production', 'API', 'Active', 'CleaningPolicy'];

async function create(title = 'Raise A dose') {
  const res = await call('POST', CA, { title, changeType: 'HBEL/dose/batch change' });
  expect(res.status).toBe(200);
  return res.body.changeAssessment as Body;
}
async function stage(ca: Body, change: Record<string, unknown>) {
  const res = await call('POST', `${CA}/${ca.id}/changes`, {
    reason: 'Planned change',
    version: ca.version,
    ...change,
  });
  return res;
}
async function staged(ca: Body, change: Record<string, unknown>) {
  const res = await stage(ca, change);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.changeAssessment as Body;
}
async function evaluate(ca: Body) {
  const res = await call('POST', `${CA}/${ca.id}/evaluate`, { version: ca.version });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.changeAssessment as Body;
}
const kit = changeAssessmentKit(call);
const decideAll = kit.decideAll;
const signCa = (id: number, action: string, as = adminEditor(t.token)) => kit.sign(id, action, as);
async function approve(id: number) {
  const approver = await policyApprover(t.server, here.F);
  return signCa(id, 'Approve', approver);
}

describe('a change assessment', () => {
  it('is created as CA-n, Not Evaluated, version 1 being built, and listed', async () => {
    const ca = await create('First');
    expect(ca).toMatchObject({
      number: expect.stringMatching(/^CA-\d{4}$/),
      changeStatus: 'Not Evaluated',
      status: 'BeingBuilt',
      versionNumber: 1,
      changes: [],
      evaluation: null,
    });
    const list = await call('GET', `${CA}?pageLimit=100`);
    expect(list.body.changeAssessments.map((c: Body) => c.id)).toContain(ca.id);
    expect((await call('GET', `${CA}/${ca.id}`)).body.changeAssessment.title).toBe('First');
  });

  it('refuses a staged change with the direct edit’s exact error, and changes nothing', async () => {
    const ca = await create();
    const a = await t.call('GET', `${here.F}/products/${await idOf(here.F, 'products', 'A')}`);
    const badEdit = { maxDailyDose: { value: -5, unit: 'mg' } };
    const direct = await t.call('POST', `${here.F}/products/${a.body.id}`, {
      ...badEdit,
      reason: 'Planned change',
      version: a.body.version,
    });
    expect(direct.status).toBe(422);
    const refused = await stage(ca, {
      op: 'update',
      entity: 'products',
      recordId: a.body.id,
      values: badEdit,
    });
    expect(refused.status).toBe(direct.status);
    expect(refused.body).toEqual(direct.body);

    // A refusal of the write itself (a duplicate name) is the same too.
    const dup = {
      name: 'B',
      maxDailyDose: { value: 1, unit: 'mg' },
      minBatchSize: { value: 1, unit: 'kg' },
    };
    const directDup = await t.call('POST', `${here.F}/products`, dup);
    expect(directDup.status).toBeGreaterThanOrEqual(400);
    const stagedDup = await stage(ca, { op: 'create', entity: 'products', values: dup });
    expect(stagedDup.status).toBe(directDup.status);
    expect(stagedDup.body).toEqual(directDup.body);

    const after = await call('GET', `${CA}/${ca.id}`);
    expect(after.body.changeAssessment).toMatchObject({ version: ca.version, changes: [] });
    expect((await t.call('GET', `${here.F}/products/${a.body.id}`)).body.version).toBe(
      a.body.version,
    );
  });

  it('needs the direct edit’s permission to stage (403), besides its own', async () => {
    const ca = await create();
    const user = await buildUser(t.server.db, {
      facilityIds: [here.facilityId],
      permissions: permissionsWith({
        FacilityCleaningEvaluation: ['Get', 'Generate'],
        Product: ['Get'],
      }),
    });
    const token = await t.server.login(user.username, user.password);
    const res = await call(
      'POST',
      `${CA}/${ca.id}/changes`,
      {
        op: 'update',
        entity: 'products',
        recordId: await idOf(here.F, 'products', 'A'),
        values: { maxDailyDose: { value: 300, unit: 'mg' } },
        reason: 'x',
        version: ca.version,
      },
      token,
    );
    expect(res.status).toBe(403);
    expect((await call('GET', `${CA}/${ca.id}`)).body.changeAssessment.changes).toEqual([]);
    // Nor may they change or unstage a change someone else staged: the guard loads it to know.
    const withChange = await staged(ca, {
      op: 'update',
      entity: 'products',
      recordId: await idOf(here.F, 'products', 'A'),
      values: { maxDailyDose: { value: 300, unit: 'mg' } },
    });
    const changeId = withChange.changes[0].id as number;
    const path = `${CA}/${ca.id}/changes/${changeId}`;
    const edit = await call('POST', path, { values: {}, version: withChange.version }, token);
    const unstage = await call(
      'DELETE',
      `${path}?reason=x&version=${withChange.version}`,
      undefined,
      token,
    );
    expect([edit.status, unstage.status]).toEqual([403, 403]);
    expect(edit.body.message).toBe('This needs the right to change products');
    const refused = await t.server.db.query<{ domain: string; attempted: string }>(
      `select domain, new_values ->> 'attempted' as attempted from audit_log
        where user_id = $1 and action = 'AccessRefused' order by id`,
      [user.id],
    );
    expect(refused).toEqual(Array(3).fill({ domain: 'Product', attempted: 'Modify' }));
    expect((await call('GET', `${CA}/${ca.id}`)).body.changeAssessment.changes).toHaveLength(1);
  });

  it('goes Not Evaluated → Pending Approval → Approved; submit needs a current evaluation and every decision', async () => {
    let ca = await create();
    const aId = await idOf(here.F, 'products', 'A');
    ca = await staged(ca, {
      op: 'update',
      entity: 'products',
      recordId: aId,
      values: { maxDailyDose: { value: 300, unit: 'mg' } },
    });
    expect(ca.changes[0]).toMatchObject({
      op: 'update',
      current: true,
      label: "Product 'A': edit Largest daily dose",
    });
    expect(ca.changeStatus).toBe('Not Evaluated');
    const notEvaluated = await signCa(ca.id, 'Submit');
    expect(notEvaluated.status).toBe(409);

    ca = await evaluate(ca);
    expect(ca.changeStatus).toBe('Pending Approval');
    expect(ca.evaluation).toMatchObject({ current: true });
    expect(ca.evaluation.undecided).toBeGreaterThan(0);
    const undecided = await signCa(ca.id, 'Submit');
    expect(undecided.status).toBe(409);
    expect(undecided.body.message).toMatch(/impact items? ha(s|ve) no decision/);
    ca = await decideAll(ca);
    expect(ca.evaluation.undecided).toBe(0);

    // Setting the facility's risk goal changes none of its data: the evaluation stays current.
    const goal = await t.call('POST', `${here.F}/risk-goal`, {
      maxRiskScore: 50,
      minCoveragePercent: null,
      reason: 'Annual target',
    });
    expect(goal.status, JSON.stringify(goal.body)).toBe(200);
    expect((await call('GET', `${CA}/${ca.id}`)).body.changeAssessment.evaluation.current).toBe(
      true,
    );

    // A direct edit of the facility's data after evaluating: the evaluation is no longer current.
    const e3 = await t.call(
      'GET',
      `${here.F}/equipments/${await idOf(here.F, 'equipments', 'E3')}`,
    );
    const edited = await t.call('POST', `${here.F}/equipments/${e3.body.id}`, {
      surfaceArea: { value: 1.5, unit: 'sqm' },
      reason: 'Remeasured',
      version: e3.body.version,
    });
    expect(edited.status).toBe(200);
    const stale = await signCa(ca.id, 'Submit');
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      "The facility's data changed since the evaluation; evaluate the change again",
    );
    ca = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(ca.changeStatus).toBe('Not Evaluated');
    expect(ca.evaluation.current).toBe(false);

    ca = await evaluate(ca);
    ca = await decideAll(ca);
    const submitted = await signCa(ca.id, 'Submit');
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    ca = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(ca).toMatchObject({ status: 'BeingApproved', changeStatus: 'Pending Approval' });

    const locked = await call('POST', `${CA}/${ca.id}`, {
      title: 'Changed',
      changeType: 'Other',
      reason: 'x',
      version: ca.version,
    });
    expect(locked.status).toBe(409);
    expect(locked.body.errName).toBe('TransactionLocked');

    // The plant's systems hear of the approval (issue 33): an event in the outbox, written in
    // the approval's transaction, for the facility's hook that asked for it.
    const hook = await call('POST', '/webhooks', {
      url: 'http://127.0.0.1:9/mes',
      events: ['changeAssessment.approved'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const approved = await approve(ca.id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.signature.limitsSnapshotId).toEqual(expect.any(Number));
    const events = await t.server.db.query<{ payload: Body }>(
      `select e.payload from webhook_events e
         join webhook_deliveries d on d.event_id = e.id and d.webhook_id = $2
        where e.event = 'changeAssessment.approved' and e.record_id = $1`,
      [ca.id, hook.body.result.id],
    );
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        number: ca.number,
        limitsSnapshotId: approved.body.signature.limitsSnapshotId,
      }),
    ]);
    ca = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(ca).toMatchObject({
      status: 'Approved',
      changeStatus: 'Approved',
      limitsSnapshotId: approved.body.signature.limitsSnapshotId,
    });
    const a = await t.call('GET', `${here.F}/products/${aId}`);
    expect(a.body.maxDailyDose).toEqual({ value: 300, unit: 'mg' });
    const [row] = await t.server.db.query<{ reason: string; user_id: number }>(
      `select reason, user_id from audit_log where domain = 'Product' and entity_id = $1
        order by id desc limit 1`,
      [String(aId)],
    );
    expect(row!.reason).toBe(`${ca.number}: Planned change`);

    // The approved version with its signature manifest, as for any controlled record.
    const text = await signedPdfText(t.server, here.F, t.token, 'ChangeAssessment', ca.id);
    // Printed for a reader: the change set in order and the decisions, not raw JSON.
    expect(text).toContain('Staged changes');
    expect(text).toContain('1. ');
    expect(text).toContain('Planned change');
    expect(text).toContain('Decisions');
    expect(text).not.toContain('"recordId"');
  });
});

describe('approval applies the change set', () => {
  it('gives exactly the limits of the same edits made directly on a twin facility', async () => {
    let ca = await create('Twin');
    const edits = async (F: string) => ({
      a: await idOf(F, 'products', 'A'),
      e1: await idOf(F, 'equipments', 'E1'),
      d: await idOf(F, 'products', 'D'),
    });
    const mine = await edits(here.F);
    const theirs = await edits(twin.F);
    // Both facilities start from the same data (the earlier test's edits are made on the twin).
    const sync = async () => {
      const heres = await t.call('GET', `${here.F}/products/${mine.a}`);
      const twins = await t.call('GET', `${twin.F}/products/${theirs.a}`);
      if (JSON.stringify(heres.body.maxDailyDose) !== JSON.stringify(twins.body.maxDailyDose))
        await t.call('POST', `${twin.F}/products/${theirs.a}`, {
          maxDailyDose: heres.body.maxDailyDose,
          reason: 'sync',
          version: twins.body.version,
        });
      const e3h = await t.call(
        'GET',
        `${here.F}/equipments/${await idOf(here.F, 'equipments', 'E3')}`,
      );
      const e3id = await idOf(twin.F, 'equipments', 'E3');
      const e3t = await t.call('GET', `${twin.F}/equipments/${e3id}`);
      if (JSON.stringify(e3h.body.surfaceArea) !== JSON.stringify(e3t.body.surfaceArea))
        await t.call('POST', `${twin.F}/equipments/${e3id}`, {
          surfaceArea: e3h.body.surfaceArea,
          reason: 'sync',
          version: e3t.body.version,
        });
    };
    await sync();
    expect(await matrix(here.F)).toBe(await matrix(twin.F));

    const newProduct = {
      name: 'F',
      maxDailyDose: { value: 50, unit: 'mg' },
      minBatchSize: { value: 5, unit: 'kg' },
    };
    ca = await staged(ca, {
      op: 'update',
      entity: 'products',
      recordId: mine.a,
      values: { maxDailyDose: { value: 800, unit: 'mg' } },
    });
    ca = await staged(ca, {
      op: 'update',
      entity: 'equipment',
      recordId: mine.e1,
      values: { surfaceArea: { value: 20, unit: 'sqm' } },
    });
    ca = await staged(ca, { op: 'archive', entity: 'products', recordId: mine.d });
    ca = await staged(ca, { op: 'create', entity: 'products', values: newProduct });
    expect(ca.changes).toHaveLength(4);
    const before = await matrix(here.F);
    ca = await evaluate(ca);
    expect(ca.evaluation.summary.pairsMoved + ca.evaluation.summary.pairsRemoved).toBeGreaterThan(
      0,
    );
    expect(await matrix(here.F)).toBe(before);
    ca = await decideAll(ca);
    expect((await signCa(ca.id, 'Submit')).status).toBe(200);
    const approved = await approve(ca.id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    // The same edits, made directly on the twin.
    const a = await t.call('GET', `${twin.F}/products/${theirs.a}`);
    await t.call('POST', `${twin.F}/products/${theirs.a}`, {
      maxDailyDose: { value: 800, unit: 'mg' },
      reason: 'r',
      version: a.body.version,
    });
    const e1 = await t.call('GET', `${twin.F}/equipments/${theirs.e1}`);
    await t.call('POST', `${twin.F}/equipments/${theirs.e1}`, {
      surfaceArea: { value: 20, unit: 'sqm' },
      reason: 'r',
      version: e1.body.version,
    });
    expect(
      (
        await t.call('PUT', `${twin.F}/products/${theirs.d}/archive`, {
          reason: 'r',
          confirmImpact: true,
        })
      ).status,
    ).toBe(200);
    expect((await t.call('POST', `${twin.F}/products`, newProduct)).status).toBe(200);

    expect(await matrix(here.F)).not.toBe(before);
    expect(await matrix(here.F)).toBe(await matrix(twin.F));
    const input = async (F: string) => (await t.call('GET', `${F}/limits/input`)).body.input;
    expect(await input(here.F)).toEqual(await input(twin.F));
  });

  it('a cancelled one leaves every limit and the master data’s audit rows unchanged', async () => {
    const before = {
      matrix: await matrix(here.F),
      audit: await auditCount(here.facilityId, MASTER),
    };
    expect(before.audit).toBeGreaterThan(0);
    let ca = await create('To cancel');
    const e2 = await idOf(here.F, 'equipments', 'E2');
    ca = await staged(ca, {
      op: 'update',
      entity: 'equipment',
      recordId: e2,
      values: { surfaceArea: { value: 1, unit: 'sqcm' } },
    });
    ca = await evaluate(ca);
    // Staging and evaluating wrote nothing to the master data either.
    expect(await matrix(here.F)).toBe(before.matrix);
    expect(await auditCount(here.facilityId, MASTER)).toBe(before.audit);
    const cancelled = await call('POST', `${CA}/${ca.id}/cancel`, {
      reason: 'Not going ahead',
      version: ca.version,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.changeAssessment).toMatchObject({
      changeStatus: 'Cancelled',
      cancelReason: 'Not going ahead',
    });
    expect(await matrix(here.F)).toBe(before.matrix);
    expect(await auditCount(here.facilityId, MASTER)).toBe(before.audit);
    const later = cancelled.body.changeAssessment as Body;
    expect((await stage(later, { op: 'archive', entity: 'equipment', recordId: e2 })).status).toBe(
      409,
    );
    expect((await signCa(ca.id, 'Submit')).status).toBe(409);
  });

  it('refuses the approval of a stale staged change and applies nothing', async () => {
    let ca = await create('Stale');
    const b = await idOf(here.F, 'products', 'B');
    const c = await idOf(here.F, 'products', 'C');
    ca = await staged(ca, {
      op: 'update',
      entity: 'products',
      recordId: c,
      values: { minBatchSize: { value: 30, unit: 'kg' } },
    });
    ca = await staged(ca, {
      op: 'update',
      entity: 'products',
      recordId: b,
      values: { maxDailyDose: { value: 450, unit: 'mg' } },
    });
    ca = await evaluate(ca);
    ca = await decideAll(ca);
    expect((await signCa(ca.id, 'Submit')).status).toBe(200);
    // B is edited directly while the assessment is being approved.
    const current = await t.call('GET', `${here.F}/products/${b}`);
    expect(
      (
        await t.call('POST', `${here.F}/products/${b}`, {
          maxDailyDose: { value: 410, unit: 'mg' },
          reason: 'Direct',
          version: current.body.version,
        })
      ).status,
    ).toBe(200);
    const before = {
      matrix: await matrix(here.F),
      audit: await auditCount(here.facilityId, MASTER),
    };
    const refused = await approve(ca.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Change 2 of CA-\d{4} is stale/);
    expect(await matrix(here.F)).toBe(before.matrix);
    expect(await auditCount(here.facilityId, MASTER)).toBe(before.audit);
    const after = (await call('GET', `${CA}/${ca.id}`)).body.changeAssessment;
    expect(after.status).toBe('BeingApproved');
    expect(after.changes.map((x: Body) => x.current)).toEqual([true, false]);
    expect((await t.call('GET', `${here.F}/products/${c}`)).body.minBatchSize).toEqual({
      value: 20,
      unit: 'kg',
    });
  });

  it('a staged policy change, once approved, is the policy in force with the snapshot on the Approve signature', async () => {
    let ca = await create('Policy');
    const chemical = await call('GET', '/cleaning_limit_policies/Chemical');
    const useARL = chemical.body.policy.useARL as boolean;
    const before = await matrix(here.F);
    ca = await staged(ca, {
      op: 'update',
      entity: 'cleaningLimitPolicy',
      recordId: chemical.body.id,
      values: { useARL: !useARL },
    });
    expect(ca.changes[0].label).toBe('Chemical cleaning limit policy: edit useARL');
    ca = await evaluate(ca);
    expect(
      ca.evaluation.summary.criterionChanged + ca.evaluation.summary.pairsMoved,
    ).toBeGreaterThan(0);
    // Nothing is in force yet, and the policy has no version in progress.
    expect(await matrix(here.F)).toBe(before);
    expect((await call('GET', '/cleaning_limit_policies/Chemical')).body).toMatchObject({
      version: chemical.body.version,
      versionNumber: chemical.body.versionNumber,
    });
    ca = await decideAll(ca);
    expect((await signCa(ca.id, 'Submit')).status).toBe(200);
    const approved = await approve(ca.id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const snapshotId = approved.body.signature.limitsSnapshotId as number;
    expect(snapshotId).toEqual(expect.any(Number));

    const policy = await call('GET', '/cleaning_limit_policies/Chemical');
    // Put in force by the assessment's signatures: its approval entry's MAC holds.
    expect(policy.body).toMatchObject({
      status: 'Approved',
      versionNumber: chemical.body.versionNumber + 1,
      integrity: 'intact',
    });
    expect(policy.body.policy.useARL).toBe(!useARL);
    const input = (await call('GET', '/limits/input')).body.input;
    expect(input.policy.useARL).toBe(!useARL);
    const [snapshot] = await t.server.db.query<{ input: Body; document_type: string }>(
      'select input, document_type from limits_snapshots where id = $1',
      [snapshotId],
    );
    expect(snapshot!.document_type).toBe('ChangeAssessment');
    expect(snapshot!.input.policy.useARL).toBe(!useARL);
    const [audit] = await t.server.db.query<{ reason: string }>(
      `select reason from audit_log where domain = 'ElectronicSignature' and action = 'ApprovedByRecord'
        order by id desc limit 1`,
    );
    expect(audit!.reason).toBe(`Approved with ${ca.number}`);

    // Over a version in progress (a direct edit not yet approved) nothing of the policy is staged.
    const draft = await call('POST', '/cleaning_limit_policies', {
      residueType: 'Chemical',
      useLd50: !policy.body.policy.useLd50,
      version: policy.body.version,
      reason: 'Draft',
    });
    expect(draft.body.status).toBe('BeingBuilt');
    const next = await create('Policy over a draft');
    const refused = await stage(next, {
      op: 'update',
      entity: 'cleaningLimitPolicy',
      recordId: chemical.body.id,
      values: { useARL: useARL },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has version \d+ in progress/);
  });
});

describe('the moc register', () => {
  it('lists the change assessments that evaluate a moc record, with their status', async () => {
    const moc = await t.call('POST', `${here.F}/moc`, {
      mocNumber: 'MOC-CA-1',
      name: 'New tablet line',
      changeType: 'New product',
      status: 'Open',
    });
    expect(moc.status, JSON.stringify(moc.body)).toBe(200);
    const res = await call('POST', CA, {
      title: 'Evaluate MOC-CA-1',
      changeType: 'New product',
      mocId: moc.body.result.id,
    });
    expect(res.body.changeAssessment.mocNumber).toBe('MOC-CA-1');
    const read = await t.call('GET', `${here.F}/moc/${moc.body.result.id}`);
    expect(read.body.changeAssessments).toEqual([
      {
        id: res.body.changeAssessment.id,
        number: res.body.changeAssessment.number,
        title: 'Evaluate MOC-CA-1',
        changeStatus: 'Not Evaluated',
      },
    ]);
    const list = await t.call('GET', `${here.F}/moc?pageLimit=100`);
    const other = (list.body.data as Body[]).find((m) => m.id !== moc.body.result.id);
    if (other) expect(other.changeAssessments).toEqual([]);
    const bad = await call('POST', CA, { title: 'x', changeType: 'Other', mocId: 999999 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('mocId');
  });
});
