import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, policyApprover, type Signer } from '#server/test/policy-in-force.ts';
import { adminSigner } from '#server/test/factories/admin.ts';
import { buildDeviation } from '#server/test/factories/deviations.ts';
import { actorFor } from '#server/test/factories/signed-record.ts';
import { buildRun } from '#server/test/factories/verification.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * A deviation closes only when QA approves its closure (documentType Deviation, 21 CFR
 * 211.192), and a run with a failure is submitted only with a decision (a deviation) on each,
 * over HTTP on a real database.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, row, sign } = kit;
let f: RunFacility;
let qa: Signer;
/** Raises deviations and may sign: the author who must not approve their own. */
let quinn: Signer;
beforeAll(async () => {
  f = await kit.build();
  qa = await policyApprover(t.server, t.F);
  const user = await buildUser(t.server.db, {
    facilityIds: [t.facilityId],
    firstName: 'Quinn',
    permissions: permissionsWith({
      QualificationTask: ['Get', 'Modify'],
      ApprovalPolicy: ['Get', 'Sign'],
    }),
  });
  quinn = { token: await t.server.login(user.username, user.password), password: user.password };
});

const started = { startedAt: '2026-11-01T08:00:00Z' };
const admin = () => adminEditor(t.token);
const read = async (id: number) => (await ok('GET', `/runs/${id}`)).run as Body;

const scope = () => ({ planId: t.planId, facilityId: t.facilityId });

/**
 * A started run with a visual inspection (Pass unless told) and results at both locations
 * (× their limits), written by the administrator through the run's own services.
 */
async function runWith(valve: number, gasket: number, visual = 'Pass'): Promise<Body> {
  const admin = await adminSigner(t.server.db);
  return buildRun(t.server, scope(), await kit.study(), {
    actor: actorFor(admin),
    event: started,
    inspection: visual === 'Pass' ? {} : { result: 'Fail', notes: 'Film on the valve seat' },
    results: (run) => [row(run, f.steel, valve), row(run, f.ptfe, gasket)],
  });
}

async function raise(run: Body, body: Record<string, unknown>, as?: Signer): Promise<Body> {
  const res = await call(
    'POST',
    `/runs/${run.id}/deviations`,
    { kind: 'process', title: 'Residue above limit', ...body },
    as?.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.run.deviations as Body[]).at(-1)!;
}

const signDeviation = (dev: Body, action: string, as: Signer, extra: object = {}) =>
  call(
    'POST',
    '/signatures',
    { documentType: 'Deviation', documentId: dev.id, action, password: as.password, ...extra },
    as.token,
  );

const edit = (dev: Body, change: Record<string, unknown>, as?: Signer) =>
  call(
    'POST',
    `/deviations/${dev.id}`,
    { reason: 'Investigated', version: dev.version, ...change },
    as?.token,
  );

const deviationOf = async (dev: Body) =>
  ((await read(dev.runId as number)).deviations as Body[]).find((d) => d.id === dev.id)!;

describe('closing a deviation', () => {
  it('is proposed with a root cause and a conclusion, and closes when QA signs "Approve closure"', async () => {
    const run = await runWith(0.2, 0.2);
    let dev = await raise(run, { title: 'Hose leak' });
    expect(dev).toMatchObject({
      status: 'Open',
      controlled: { status: 'BeingBuilt', versionNumber: 1 },
    });
    // Proposing without what was found and what it means is refused, field by field.
    const bare = await signDeviation(dev, 'Submit', admin());
    expect(bare.status).toBe(422);
    expect(bare.body.errName).toBe('DataValidationError');
    expect(bare.body.errors.map((e: Body) => e.property)).toEqual(['rootCause', 'conclusion']);
    await edit(dev, { rootCause: 'Worn clamp', conclusion: 'Process failure; clamp replaced' });
    dev = await deviationOf(dev);
    const proposed = await signDeviation(dev, 'Submit', admin());
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body.signature.meaning).toBe('Closure proposed');
    // Until QA signs, it stays Open: the run is neither released nor submitted.
    dev = await deviationOf(dev);
    expect(dev).toMatchObject({ status: 'Open', controlled: { status: 'BeingApproved' } });
    const waiting = await read(run.id as number);
    expect(waiting.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect((await sign(run, 'Submit')).body.message).toBe(
      'A run with an open deviation cannot complete',
    );
    // What QA is asked to approve cannot change under them.
    const locked = await edit(dev, { conclusion: 'Something else' });
    expect(locked.status).toBe(409);
    expect(locked.body.errName).toBe('TransactionLocked');
    // The author who proposed it may not approve it.
    const self = await signDeviation(dev, 'Approve', admin());
    expect(self.status).toBe(403);
    expect(self.body.errName).toBe('NotAllowed');
    const approved = await signDeviation(dev, 'Approve', qa);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.signature).toMatchObject({
      meaning: 'Approve closure',
      signerRole: 'Approver',
    });
    dev = await deviationOf(dev);
    expect(dev).toMatchObject({
      status: 'Closed',
      rootCause: 'Worn clamp',
      conclusion: 'Process failure; clamp replaced',
      controlled: { status: 'Approved', signatureState: 'Signed' },
      closedByName: expect.stringMatching(/^Approver /),
    });
    expect((await read(run.id as number)).releaseFlag).toBe('CAN_BE_RELEASED');
    const audit = await t.server.db.query<{ domain: string; action: string }>(
      `select domain, action from audit_log
        where (domain = 'Deviation' and entity_id = $1)
           or (domain = 'ElectronicSignature' and new_values ->> 'documentType' = 'Deviation'
               and (new_values ->> 'documentId')::int = $2)
        order by seq`,
      [String(dev.id), dev.id],
    );
    expect(audit.map((a) => `${a.domain} ${a.action}`)).toEqual([
      'Deviation Create',
      'Deviation Update',
      'Deviation ProposeClosure',
      'ElectronicSignature Submit',
      // the edit while awaiting approval, then the author's approval
      'ElectronicSignature SignatureRefused',
      'ElectronicSignature SignatureRefused',
      'Deviation Close',
      'ElectronicSignature Approve',
    ]);
  });

  it('is found from its id: GET deviations/{id} answers its run; another id is 404', async () => {
    const run = await runWith(0.2, 0.2);
    const dev = await raise(run, { title: 'Linked from My approvals' });
    const found = await ok('GET', `/deviations/${dev.id}`);
    expect(found.run.id).toBe(run.id);
    expect((found.run.deviations as Body[]).map((d) => d.id)).toContain(dev.id);
    const missing = await call('GET', '/deviations/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.errName).toBe('NotFoundError');
  });

  it('refuses its author even when someone else proposed the closure', async () => {
    const run = await runWith(0.2, 0.2);
    const dev = await raise(
      run,
      { title: 'Wrong hose', rootCause: 'Mix-up', conclusion: 'No effect on cleaning' },
      quinn,
    );
    expect((await signDeviation(dev, 'Submit', admin())).status).toBe(200);
    const author = await signDeviation(dev, 'Approve', quinn);
    expect(author.status).toBe(403);
    expect(author.body.message).toBe(
      'You may not sign this version: you raised this record, and the approval policy does not allow self-approval',
    );
    expect((await signDeviation(dev, 'Approve', qa)).status).toBe(200);
  });

  it('stays Open when QA rejects the closure; a change to a closed one reopens it', async () => {
    const run = await runWith(0.2, 0.2);
    let dev = await raise(run, { rootCause: 'Unknown', conclusion: 'None' });
    await signDeviation(dev, 'Submit', admin());
    const rejected = await signDeviation(dev, 'Reject', qa, { reason: 'Root cause not shown' });
    expect(rejected.status).toBe(200);
    dev = await deviationOf(dev);
    expect(dev).toMatchObject({
      status: 'Open',
      controlled: { status: 'BeingBuilt', signatureState: 'ChangesRequested' },
    });
    const closedRun = await kit.closeDeviation(dev);
    dev = (closedRun.deviations as Body[])[0]!;
    expect(dev.status).toBe('Closed');
    const changed = await edit(dev, { capaReference: 'CAPA-7' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    dev = await deviationOf(dev);
    expect(dev).toMatchObject({
      status: 'Open',
      closedAt: null,
      controlled: { status: 'BeingBuilt', versionNumber: 2 },
    });
    const [reopen] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Deviation' and entity_id = $1
        order by seq desc limit 1`,
      [String(dev.id)],
    );
    expect(reopen!.action).toBe('Reopen');
  });
});

describe('submitting a run with a failure', () => {
  const VALVE_FAILS = 'No decision on the failed result at Valve: record a deviation for it';
  const GASKET_FAILS = 'No decision on the failed result at Gasket: record a deviation for it';
  it.each<
    [string, [number, number, string], (run: Body) => Record<string, unknown>[], string | null]
  >([
    ['a failed result without a deviation', [0.2, 3, 'Pass'], () => [], GASKET_FAILS],
    [
      'two failed results without a deviation',
      [2, 3, 'Pass'],
      () => [],
      'No decision on the failed results at Valve, Gasket: record a deviation for each',
    ],
    [
      'a deviation about the other location',
      [0.2, 3, 'Pass'],
      () => [{ samplingLocationId: f.steel }],
      GASKET_FAILS,
    ],
    ['a deviation of the run as a whole', [2, 0.2, 'Pass'], () => [{}], VALVE_FAILS],
    [
      'a process failure confirmed at the location',
      [0.2, 3, 'Pass'],
      () => [{ samplingLocationId: f.ptfe }],
      null,
    ],
    [
      'a deviation naming the failed result',
      [0.2, 3, 'Pass'],
      (run) => [
        {
          resultId: (run.results as Body[]).find((r) => r.samplingLocationId === f.ptfe)!.id,
        },
      ],
      null,
    ],
    [
      'a laboratory error invalidating the run',
      [2, 3, 'Pass'],
      () => [{ kind: 'nonProcess', invalidatesRun: true }],
      null,
    ],
    [
      'a failed visual with a deviation of a location only',
      [0.2, 0.2, 'Fail'],
      () => [{ samplingLocationId: f.steel }],
      'No decision on the failed visual inspection: record a deviation of the run for it',
    ],
    ['a failed visual with a deviation of the run', [0.2, 0.2, 'Fail'], () => [{}], null],
  ])('%s', async (_name, [valve, gasket, visual], deviations, refusal) => {
    const run = await runWith(valve, gasket, visual);
    // The deviations are set up by the run module's writes; the submission is the call under test.
    const admin = actorFor(await adminSigner(t.server.db));
    for (const body of deviations(run))
      await kit.closeDeviation(await buildDeviation(t.server, scope(), run.id, body, admin));
    const res = await sign(run, 'Submit');
    if (refusal === null) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } else {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ errName: 'TransactionLocked', message: refusal });
    }
  });
});

describe('an approval policy that allows self-approval', () => {
  it('lets the author approve the closure', async () => {
    const current = await ok('GET', '/approval_policies?documentType=Deviation');
    await ok('POST', '/approval_policies', {
      documentType: 'Deviation',
      steps: current.approvalPolicy.steps,
      allowSelfApproval: true,
      reason: 'Small site: one QA person',
      version: current.approvalPolicy.version,
    });
    const run = await runWith(0.2, 0.2);
    const dev = await raise(run, { rootCause: 'Spill', conclusion: 'Cleaned again' }, quinn);
    expect((await signDeviation(dev, 'Submit', quinn)).status).toBe(200);
    expect((await signDeviation(dev, 'Approve', quinn)).status).toBe(200);
    expect((await deviationOf(dev)).status).toBe('Closed');
  });
});
