import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Runs, sample results and their judgement over HTTP: run N, the cleaning event, results
 * entered many at once with every problem reported at once, batch numbers unique across
 * results and samples, recovery dividing the result, censored results.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

describe('runs', () => {
  it('are refused without QualificationTask permissions', async () => {
    const studyId = await kit.study();
    const user = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ QualificationTask: ['Get'] }),
    });
    const as = await t.server.login(user.username, user.password);
    expect((await call('POST', `/studies/${studyId}/runs`, {}, as)).status).toBe(403);
    expect((await call('GET', `/studies/${studyId}/runs`, undefined, as)).status).toBe(200);
    const run = await newRun(studyId);
    expect((await call('GET', `/runs/${run.id}`, undefined, as)).status).toBe(200);
    const entry = await call(
      'POST',
      `/runs/${run.id}/results`,
      { results: [row(run, f.steel, 0.1)] },
      as,
    );
    expect(entry.status).toBe(403);
    const raise = await call(
      'POST',
      `/runs/${run.id}/deviations`,
      { kind: 'process', title: 'x' },
      as,
    );
    expect(raise.status).toBe(403);
  });

  it('are numbered in their study, NotStarted until started, and refused on a closed study', async () => {
    const studyId = await kit.study();
    const first = await newRun(studyId);
    const second = await newRun(studyId);
    expect(first).toMatchObject({ sequence: 1, status: 'NotStarted', verdict: 'Pending' });
    expect(second.sequence).toBe(2);
    expect(first.plan).toHaveLength(2);
    expect(first.plan[0].limit).toBeGreaterThan(0);
    expect(first.plan[0].limitUnit).toBe('mg/swab');
    const list = await ok('GET', `/studies/${studyId}/runs`);
    expect(list.runs.map((r: Body) => r.sequence)).toEqual([1, 2]);
    const started = await event(first, {
      startedAt: '2026-11-01T08:00:00Z',
      operatorIds: [f.operator],
      agentLot: 'LOT-7',
    });
    expect(started.status).toBe('InProgress');
    expect(started.event).toMatchObject({ operatorIds: [f.operator], agentLot: 'LOT-7' });
    const stale = await call('POST', `/runs/${first.id}`, {
      reason: 'again',
      version: first.version,
      agentLot: 'LOT-8',
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const stranger = await call('POST', `/runs/${first.id}`, {
      reason: 'Operators',
      version: started.version,
      operatorIds: [999999],
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors[0].property).toBe('operatorIds');
    const procedure = await call('POST', `/runs/${first.id}`, {
      reason: 'Procedure',
      version: started.version,
      cleaningProcedureId: 999999,
    });
    expect(procedure.body.errors[0].property).toBe('cleaningProcedureId');
    const own = await ok('POST', '/cleaning-procedure', { name: 'CIP wash' });
    const withProcedure = await event(started, { cleaningProcedureId: own.result.id });
    expect(withProcedure.event.cleaningProcedureId).toBe(own.result.id);
    await kit.closeStudy(studyId);
    const closed = await call('POST', `/studies/${studyId}/runs`, {});
    expect(closed.status).toBe(409);
    expect(closed.body.errName).toBe('TransactionLocked');
    const audit = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Run' and entity_id = $1 order by seq`,
      [String(first.id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Update']);
  });

  it('keep the product batch of the cleaning event, audited, beside the sample numbers', async () => {
    const run = await newRun(await kit.study());
    const started = await event(run, {
      startedAt: '2026-11-01T08:00:00Z',
      productBatch: ' PB-0042 ',
    });
    expect(started.event.productBatch).toBe('PB-0042');
    const tooLong = await call('POST', `/runs/${run.id}`, {
      reason: 'Batch',
      version: started.version,
      productBatch: 'x'.repeat(101),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors[0].property).toBe('productBatch');
    const changed = await event(started, { productBatch: 'PB-0043' });
    expect(changed.event.productBatch).toBe('PB-0043');
    const [audit] = await t.server.db.query<{ old_values: Body; new_values: Body }>(
      `select old_values, new_values from audit_log where domain = 'Run' and entity_id = $1
        order by seq desc limit 1`,
      [String(run.id)],
    );
    expect(audit).toMatchObject({
      old_values: { productBatch: 'PB-0042' },
      new_values: { productBatch: 'PB-0043' },
    });
    // A sample's own number is another thing: the product batch takes no part in its uniqueness.
    const entered = await results(changed, [
      row(changed, f.steel, 0.1, { batchNumber: 'PB-0043' }),
    ]);
    expect(entered.status).toBe(200);
  });
});

describe('sample results', () => {
  it('report every problem at once by key and save nothing', async () => {
    const studyId = await kit.study();
    const run = await newRun(studyId);
    const other = await newRun(studyId);
    const saved = await results(other, [row(other, f.steel, 0.1)]);
    const otherResult = saved.body.run.results[0].id;
    const res = await results(run, [
      row(run, f.steel, 0.1, { key: 'good' }),
      { ...row(run, f.steel, 0.1), key: 'where', samplingLocationId: 999999 },
      row(run, f.steel, 0.1, { key: 'how', analyticalMethodId: 999999 }),
      row(run, f.ptfe, 0.1, { key: 'unit', unit: 'mg/ml' }),
      row(run, f.steel, 0.1, {
        key: 'again',
        repeats: { resultId: otherResult, kind: 'reswab', reason: 'Swab dropped' },
      }),
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('SampleChangesError');
    expect(res.body.errors.map((e: Body) => e.property).sort()).toEqual([
      'again.repeats',
      'how.analyticalMethodId',
      'unit.unit',
      'where.samplingLocationId',
    ]);
    expect((await ok('GET', `/runs/${run.id}`)).run.results).toHaveLength(0);
    // The judgement is the server's: the schema refuses one sent by the client.
    const judged = await results(run, [{ ...row(run, f.steel, 0.1), passed: true }]);
    expect(judged.status).toBe(422);
  });

  it('are divided by the recovery, judged against the snapshot limit, with the method version', async () => {
    const run = await newRun(await kit.study());
    const res = await results(run, [row(run, f.steel, 0.4), row(run, f.ptfe, 0.4)]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [steel, ptfe] = res.body.run.results as Body[];
    const limit = run.plan[0].limit as number;
    // The plan tells the screen the recovery each result will be judged with.
    expect(run.plan.map((p: Body) => p.recovery)).toEqual([0.8, 1]);
    expect(steel!.judgement.recovery).toBe(0.8);
    expect(steel!.judgement.correctedValue).toBeCloseTo((limit * 0.4) / 0.8, 10);
    expect(steel!.judgement.limit).toBeCloseTo(limit, 10);
    expect(steel!.judgement.percentOfLimit).toBeCloseTo(50, 6);
    expect(steel!.judgement.passed).toBe(true);
    // PTFE has no recovery of the method; the Swab type none; the policy's global one is off.
    expect(ptfe!.judgement.recovery).toBe(1);
    expect(ptfe!.judgement.percentOfLimit).toBeCloseTo(40, 6);
    expect(steel!.analyticalMethodVersion).toBe(1);
    // A correction is judged again, with a reason and the version.
    const fixed = await ok('POST', `/results/${steel!.id}`, {
      rawValue: limit * 2,
      reason: 'Transcription error',
      version: steel!.version,
    });
    const again = (fixed.run.results as Body[]).find((r) => r.id === steel!.id)!;
    expect(again.judgement.passed).toBe(false);
    expect(fixed.run.verdict).toBe('Fail');
    const stale = await call('POST', `/results/${steel!.id}`, {
      rawValue: limit,
      reason: 'Again',
      version: steel!.version,
    });
    expect(stale.body.errName).toBe('VersionConflictError');
    const audit = await t.server.db.query<{ action: string; reason: string | null }>(
      `select action, reason from audit_log where domain = 'SampleResult' and entity_id = $1 order by seq`,
      [String(steel!.id)],
    );
    expect(audit).toEqual([
      { action: 'Create', reason: null },
      { action: 'Update', reason: 'Transcription error' },
    ]);
  });

  it('below the LOQ pass when the bound is within the limit, else fail as methodNotFit', async () => {
    const run = await newRun(await kit.study());
    const res = await results(run, [
      row(run, f.ptfe, 0.5, { censoring: '< LOQ' }),
      row(run, f.steel, 3, { censoring: '< LOQ' }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [low, high] = res.body.run.results as Body[];
    expect(low!.judgement).toMatchObject({
      passed: true,
      censoredBelow: true,
      methodNotFit: false,
    });
    expect(high!.judgement).toMatchObject({
      passed: false,
      censoredBelow: true,
      methodNotFit: true,
    });
  });

  it('refuse a batch number of another result or of a sample; a retest keeps its own', async () => {
    const run = await newRun(await kit.study());
    const first = await results(run, [row(run, f.steel, 0.1, { batchNumber: 'BN-1' })]);
    expect(first.status).toBe(200);
    const original = first.body.run.results[0] as Body;
    const dup = await results(run, [row(run, f.ptfe, 0.1, { batchNumber: 'bn-1' })]);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateBatchNumber',
      message: 'Batch number must be unique across samples',
    });
    const reswab = await results(run, [
      row(run, f.steel, 0.1, {
        batchNumber: 'BN-1',
        repeats: { resultId: original.id, kind: 'reswab', reason: 'New swab' },
      }),
    ]);
    expect(reswab.body.errName).toBe('DuplicateBatchNumber');
    const retest = await results(run, [
      row(run, f.steel, 0.1, {
        batchNumber: 'BN-1',
        repeats: { resultId: original.id, kind: 'retest', reason: 'Dilution' },
      }),
    ]);
    expect(retest.status, JSON.stringify(retest.body)).toBe(200);
    const after = retest.body.run.results as Body[];
    expect(after[0]!.supersededBy).toBe(after[1]!.id);
    expect(after[1]).toMatchObject({ batchNumber: 'BN-1', repeats: { kind: 'retest' } });
    const [location] = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.steel],
    );
    await ok(
      'POST',
      `/equipments/${location!.equipment_id}/sampling-locations/${f.steel}/samples`,
      {
        name: 'S-1',
        sampleType: 'swab',
        batchNumber: 'SAMPLE-9',
      },
    );
    const sample = await results(run, [row(run, f.ptfe, 0.1, { batchNumber: 'sample-9' })]);
    expect(sample.status).toBe(409);
    expect(sample.body.errName).toBe('DuplicateBatchNumber');
    // And the other way: a sample may not take a result's batch number.
    const taken = await call(
      'POST',
      `/equipments/${location!.equipment_id}/sampling-locations/${f.steel}/samples`,
      { name: 'S-2', sampleType: 'swab', batchNumber: 'bn-1' },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.errName).toBe('DuplicateBatchNumber');
  });
});
