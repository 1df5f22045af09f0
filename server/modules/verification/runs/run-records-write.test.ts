import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminEditor, policyApprover, type Signer } from '#server/test/policy-in-force.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Deviations and investigations go through the one write path of records
 * (server/records/write-record.ts), over HTTP on a real database: an edit from a stale version
 * is refused and changes nothing, and every write keeps a history row and an audit row.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, event, row, results } = kit;
let f: RunFacility;
let qa: Signer;
beforeAll(async () => {
  f = await kit.build();
  qa = await policyApprover(t.server, t.F);
});

/** The kept versions of a record, oldest first (record_versions, written by the trigger). */
const history = (table: string, id: number) =>
  t.server.db.query<{ version: number; row_data: Body }>(
    `select version, row_data from record_versions where table_name = $1 and record_id = $2
      order by id`,
    [table, id],
  );
const audits = async (domain: string, id: number) =>
  (
    await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = $1 and entity_id = $2 order by seq`,
      [domain, String(id)],
    )
  ).map((a) => a.action);

/** A started run with one result at the gasket of `times` × its limit. */
async function runWith(times: number): Promise<Body> {
  const run = await event(await newRun(await kit.study()), { startedAt: '2026-11-01T08:00:00Z' });
  const res = await results(run, [row(run, f.ptfe, times)]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.run as Body;
}

describe('a deviation', () => {
  it('refuses an edit from a stale version, and keeps a version per write, the closure included', async () => {
    const run = await runWith(0.2);
    const raised = await ok('POST', `/runs/${run.id}/deviations`, {
      kind: 'process',
      title: 'Hose leak',
    });
    const dev = (raised.run.deviations as Body[]).at(-1)!;
    expect(dev.version).toBe(1);
    const edit = (version: number, change: Body) =>
      call('POST', `/deviations/${dev.id}`, { reason: 'Investigated', version, ...change });
    expect((await edit(1, { rootCause: 'Worn clamp', conclusion: 'Clamp replaced' })).status).toBe(
      200,
    );
    const stale = await edit(1, { title: 'Written from what was read before' });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const sign = (action: string, as: Signer) =>
      call(
        'POST',
        '/signatures',
        { documentType: 'Deviation', documentId: dev.id, action, password: as.password },
        as.token,
      );
    expect((await sign('Submit', adminEditor(t.token))).status).toBe(200);
    expect((await sign('Approve', qa)).status).toBe(200);
    const kept = await history('deviations', dev.id as number);
    expect(kept.map((k) => [k.version, k.row_data.status, k.row_data.title])).toEqual([
      [1, 'Open', 'Hose leak'],
      [2, 'Open', 'Hose leak'],
      [3, 'Closed', 'Hose leak'],
    ]);
    expect(await audits('Deviation', dev.id as number)).toEqual([
      'Create',
      'Update',
      'ProposeClosure',
      'Close',
    ]);
  });
});

describe('an investigation', () => {
  it('refuses an edit from a stale version, and keeps a version per write', async () => {
    const run = await runWith(2);
    const result = (run.results as Body[])[0]!;
    const opened = await ok('POST', `/results/${result.id}/investigations`, {});
    const id = opened.investigation.id as number;
    const edit = (version: number, change: Body) =>
      call('POST', `/investigations/${id}`, { reason: 'Phase I findings', version, ...change });
    expect((await edit(1, { findings: 'Dilution checked' })).status).toBe(200);
    const stale = await edit(1, { findings: 'Written from what was read before' });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const kept = await history('investigations', id);
    expect(kept.map((k) => [k.version, k.row_data.findings])).toEqual([
      [1, ''],
      [2, 'Dilution checked'],
    ]);
    expect(await audits('Investigation', id)).toEqual(['Create', 'Update']);
    // The working version its signers will see is the record as last written.
    const { investigation } = await ok('GET', `/investigations/${id}`);
    expect(investigation).toMatchObject({ version: 2, findings: 'Dilution checked' });
  });
});

describe('a run', () => {
  it('refuses an event edit from a stale version, and moves its version with its results', async () => {
    const created = await newRun(await kit.study());
    expect(created.version).toBe(1);
    const started = await event(created, { startedAt: '2026-11-01T08:00:00Z' });
    expect(started.version).toBe(2);
    const stale = await call('POST', `/runs/${created.id}`, {
      reason: 'Written from what was read before',
      version: created.version,
      agentLot: 'LOT-2',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const entered = await results(started, [row(started, f.ptfe, 0.2)]);
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    expect(entered.body.run.version).toBe(3);
    const kept = await history('study_runs', created.id as number);
    expect([...new Set(kept.map((k) => k.version))]).toEqual([1, 2, 3]);
    expect(kept.at(-1)!.row_data).toMatchObject({ version: 3, verdict: entered.body.run.verdict });
    expect(kept.some((k) => k.row_data.agent_lot === 'LOT-2')).toBe(false);
    // The results are audited as themselves: the run's own rows are its create and its event.
    expect(await audits('Run', created.id as number)).toEqual(['Create', 'Update']);
  });
});

describe('a sample result', () => {
  it('keeps a version per write: its correction, and its supersession, audited as the repeat', async () => {
    const run = await runWith(0.2);
    const original = (run.results as Body[])[0]!;
    const fixed = await call('POST', `/results/${original.id}`, {
      rawValue: Number(original.rawValue) * 1.5,
      reason: 'Transcription error',
      version: original.version,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    const repeated = await results(run, [
      row(run, f.ptfe, 0.1, {
        repeats: { resultId: original.id, kind: 'reswab', reason: 'New swab' },
      }),
    ]);
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(200);
    const repeat = (repeated.body.run.results as Body[]).find((r) => r.id !== original.id)!;
    const kept = await history('sample_results', original.id as number);
    expect(kept.map((k) => [k.version, k.row_data.superseded_by])).toEqual([
      [1, null],
      [2, null],
      [3, repeat.id],
    ]);
    expect(await audits('SampleResult', original.id as number)).toEqual(['Create', 'Update']);
    expect(await audits('SampleResult', repeat.id as number)).toEqual(['Create']);
  });
});
