import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { refreshStudy } from '../study-refresh.ts';

/*
 * What a run's results, event and deviations make of it over HTTP: the release flag with its
 * reasons, what its Submit needs, deviations and their close, and the study's outcome from its
 * completed runs (a failed run resets the count, an invalidated one does not).
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event, visualPass, row, results, sign } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const started = { startedAt: '2026-11-01T08:00:00Z' };
const read = async (run: Body) => (await ok('GET', `/runs/${run.id}`)).run as Body;
const deviation = async (run: Body, body: Record<string, unknown>) =>
  call('POST', `/runs/${run.id}/deviations`, { title: 'Swab dropped', ...body });

/**
 * A run whose results fail at both locations (2 × the limit), decided by a process deviation
 * on each location whose closure QA approved, then submitted and approved (Completed).
 */
async function failedCompletedRun(studyId: number): Promise<Body> {
  let run = await newRun(studyId);
  run = await visualPass(await event(run, started));
  await results(run, [row(run, f.steel, 2), row(run, f.ptfe, 2)]);
  for (const location of [f.steel, f.ptfe]) {
    const raised = await deviation(run, {
      kind: 'process',
      title: 'Residue above limit',
      samplingLocationId: location,
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const dev = (raised.body.run.deviations as Body[]).find(
      (d) => d.samplingLocationId === location,
    )!;
    await kit.closeDeviation(dev);
  }
  expect((await sign(run, 'Submit')).status).toBe(200);
  expect((await sign(run, 'Approve')).status).toBe(200);
  return read(run);
}

describe('the release flag', () => {
  it('can be released when the visual passed and every location passed', async () => {
    let run = await newRun(await kit.study());
    run = await visualPass(await event(run, started));
    const res = await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    expect(res.body.run).toMatchObject({ releaseFlag: 'CAN_BE_RELEASED', verdict: 'Pass' });
  });

  it('may be released at risk with results pending, where the protocol allows it', async () => {
    let run = await newRun(await kit.study());
    run = await visualPass(await event(run, started));
    const res = await results(run, [row(run, f.steel, 0.2)]);
    expect(res.body.run).toMatchObject({ releaseFlag: 'MAY_BE_RELEASED', verdict: 'Pending' });
    let strict = await newRun(await kit.study({ allowReleaseAtRisk: false }));
    strict = await visualPass(await event(strict, started));
    const held = await results(strict, [row(strict, f.steel, 0.2)]);
    expect(held.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(held.body.run.releaseReasons).toContain('The protocol does not allow release at risk');
  });

  it('cannot be released with a failed result, a failed visual, a hold-time breach or an open deviation', async () => {
    let failed = await newRun(await kit.study());
    failed = await visualPass(await event(failed, started));
    const res = await results(failed, [row(failed, f.steel, 2), row(failed, f.ptfe, 0.2)]);
    expect(res.body.run).toMatchObject({ releaseFlag: 'CAN_NOT_BE_RELEASED', verdict: 'Fail' });

    let visual = await newRun(await kit.study());
    visual = await event(visual, started);
    visual = (
      await kit.inspect(visual, { result: 'Fail', notes: 'Film of residue on the valve seat' })
    ).body.run as Body;
    expect(visual).toMatchObject({ releaseFlag: 'CAN_NOT_BE_RELEASED', verdict: 'Fail' });

    let hold = await newRun(await kit.study());
    hold = await visualPass(await event(hold, { ...started, dirtyHoldHours: 30 }));
    const holdRes = await results(hold, [row(hold, f.steel, 0.2), row(hold, f.ptfe, 0.2)]);
    expect(holdRes.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(holdRes.body.run.releaseReasons.join(' ')).toMatch(/Dirty hold time 30 h exceeds/);

    let open = await newRun(await kit.study());
    open = await visualPass(await event(open, started));
    await results(open, [row(open, f.steel, 0.2), row(open, f.ptfe, 0.2)]);
    const raised = await deviation(open, { kind: 'process' });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect(raised.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(raised.body.run.deviations[0].number).toMatch(/^DEV-\d{4}$/);
    // The stored flag follows the read.
    const [stored] = await t.server.db.query<{ release_flag: string }>(
      'select release_flag from study_runs where id = $1',
      [open.id],
    );
    expect(stored!.release_flag).toBe('CAN_NOT_BE_RELEASED');
  });
});

describe('deviations and completion', () => {
  it('an open deviation blocks completion; it closes only with QA approval; a submitted run is locked', async () => {
    let run = await newRun(await kit.study());
    run = await visualPass(await event(run, started));
    await results(run, [row(run, f.steel, 0.2)]);
    // The Gasket has no result and no deviation explains it.
    const gap = await sign(run, 'Submit');
    expect(gap.status).toBe(409);
    expect(gap.body.message).toMatch(/No result for Gasket/);
    const process = await deviation(run, { kind: 'process', invalidatesRun: true });
    expect(process.status).toBe(422);
    expect(process.body.errors[0].property).toBe('invalidatesRun');
    const raised = await deviation(run, {
      kind: 'process',
      title: 'Gasket not sampled',
      samplingLocationId: f.ptfe,
    });
    const dev = raised.body.run.deviations[0] as Body;
    const blocked = await sign(run, 'Submit');
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toBe('A run with an open deviation cannot complete');
    // Closing by an edit is refused: only QA's approval closes a deviation.
    const byHand = await call('POST', `/deviations/${dev.id}`, {
      status: 'Closed',
      rootCause: 'Gasket removed for maintenance',
      reason: 'Done',
      version: dev.version,
    });
    expect(byHand.status).toBe(422);
    expect(byHand.body.errors[0].property).toBe('status');
    const closed = await kit.closeDeviation(dev, {
      rootCause: 'Gasket removed for maintenance',
      conclusion: 'Not sampled; no effect on the other results',
    });
    expect(closed.deviations[0]).toMatchObject({
      status: 'Closed',
      controlled: { status: 'Approved' },
      closedByName: expect.stringMatching(/^Approver/),
    });
    expect(closed.deviations[0].closedAt).not.toBeNull();
    expect((await sign(run, 'Submit')).status).toBe(200);
    const locked = await call('POST', `/runs/${run.id}`, {
      reason: 'late',
      version: (await read(run)).version,
      agentLot: 'X',
    });
    expect(locked.status).toBe(409);
    expect(locked.body.errName).toBe('TransactionLocked');
    const late = await results(run, [row(run, f.ptfe, 0.2)]);
    expect(late.body.errName).toBe('TransactionLocked');
    expect((await sign(run, 'Approve')).status).toBe(200);
    expect((await read(run)).status).toBe('Completed');
    const audit = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Deviation' and entity_id = $1 order by seq`,
      [String(dev.id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'ProposeClosure', 'Close']);
  });

  it('needs the visual inspection to submit', async () => {
    let run = await newRun(await kit.study());
    run = await event(run, started);
    await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    const res = await sign(run, 'Submit');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The visual inspection is not recorded');
  });
});

describe('the study outcome', () => {
  it('is Validated after three consecutive passing runs; where the protocol says so a failed run resets the count', async () => {
    const studyId = await kit.study({ failedRunPolicy: 'resetCount' });
    await kit.completedRun(studyId);
    await kit.completedRun(studyId);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'On Going', consecutive_passes: 2 });
    const failed = await failedCompletedRun(studyId);
    expect(failed).toMatchObject({ verdict: 'Fail', status: 'Completed' });
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'On Going', consecutive_passes: 0 });
    await kit.completedRun(studyId);
    await kit.completedRun(studyId);
    await kit.completedRun(studyId);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'Validated', consecutive_passes: 3 });
  });

  it('does not reset on a run invalidated by a non-process deviation', async () => {
    const studyId = await kit.study({
      requiredPasses: 2,
      passesJustification: 'Bracketed by a validated worst case',
    });
    await kit.completedRun(studyId);
    let run = await newRun(studyId);
    run = await visualPass(await event(run, started));
    await results(run, [row(run, f.steel, 2), row(run, f.ptfe, 0.2)]);
    const lab = await deviation(run, {
      kind: 'nonProcess',
      title: 'Wrong standard used',
      rootCause: 'Expired reference standard',
      invalidatesRun: true,
    });
    const dev = lab.body.run.deviations[0] as Body;
    // The failure stands until QA approves the deviation's closure (issue 26).
    expect(lab.body.run.verdict).toBe('Fail');
    expect((await kit.closeDeviation(dev)).verdict).toBe('Invalidated');
    expect((await sign(run, 'Submit')).status).toBe(200);
    expect((await sign(run, 'Approve')).status).toBe(200);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'On Going', consecutive_passes: 1 });
    await kit.completedRun(studyId);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'Validated', consecutive_passes: 2 });
  });

  it('is left as its recompute gives it by results entered in a run not completed', async () => {
    const studyId = await kit.study();
    await kit.completedRun(studyId);
    let run = await newRun(studyId);
    run = await visualPass(await event(run, started));
    // The entry does not recompute the outcome (issue 34): only completed runs count, and a run
    // being built before and after an entry is none.
    const res = await results(run, [row(run, f.steel, 0.2), row(run, f.ptfe, 0.2)]);
    expect(res.body.run).toMatchObject({ verdict: 'Pass', status: 'InProgress' });
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'On Going', consecutive_passes: 1 });
    const version = async () =>
      (
        await t.server.db.query<{ version: number }>(`select version from studies where id = $1`, [
          studyId,
        ])
      )[0]!.version;
    const before = await version();
    // A recompute finds nothing to change (it would move the study's version).
    await t.server.db.transaction((tx) => refreshStudy(tx, t.facilityId, studyId));
    expect(await version()).toBe(before);
    // Completed, the run counts: its approval recomputes the outcome.
    expect((await sign(run, 'Submit')).status).toBe(200);
    expect((await sign(run, 'Approve')).status).toBe(200);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'On Going', consecutive_passes: 2 });
  });

  it('is Failed for a closed study that had not validated, whose runs are then frozen', async () => {
    const studyId = await kit.study();
    await kit.completedRun(studyId);
    const open = await newRun(studyId);
    await visualPass(await event(open, started));
    expect((await read(open)).studyClosed).toBe(false);
    await kit.closeStudy(studyId);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'Failed', consecutive_passes: 1 });
    const before = await read(open);
    // The run says so, for its screen to show it read-only.
    expect(before.studyClosed).toBe(true);
    const edit = await call('POST', `/runs/${open.id}`, {
      ...started,
      version: before.version,
      reason: 'Late entry',
    });
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ errName: 'TransactionLocked' });
    expect(edit.body.message).toMatch(/^ST-\d{4} is closed: run 2 can no longer change\.$/);
    const late = await deviation(open, { kind: 'process' });
    expect(late.status).toBe(409);
    expect((await kit.inspect(before, { reason: 'Re-inspected' })).status).toBe(409);
    expect((await sign(open, 'Submit')).status).toBe(409);
    expect(await read(open)).toEqual(before);
    expect(await kit.studyRow(studyId)).toEqual({ outcome: 'Failed', consecutive_passes: 1 });
  });
});
