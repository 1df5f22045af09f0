import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { countStatements } from '#server/test/statement-count.ts';
import { ZResultsBody } from '#core/schemas/verification.schemas.ts';
import { getRun } from './runs.read.ts';
import { enterResultsAndRead } from './results.ts';
import { createRunAndRead } from './runs.service.ts';

/*
 * Entering results costs the same number of statements whether a POST carries 1 result or 20
 * (issue 34): the rows, their audit rows and their repeats' supersessions are written many to
 * a statement, not one statement each. A run is created in a fixed number too, its answer
 * included.
 */

/** The statements of one POST of results, whatever its count. */
const STATEMENTS_PER_POST = 9;

/** The statements of POST studies/{id}/runs, the run answered included. */
const STATEMENTS_PER_RUN = 9;

const t = useFacilityTestServer();
const kit = runKit(t);
const { newRun, row, ok } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

/** The statements of what POST runs/{id}/results does: the entry and the run read back in it. */
async function statementsOf(runId: number, rows: Body[]): Promise<number> {
  const actor = await adminActor(t.server.db);
  const { db, count } = countStatements(t.server.db);
  const { results } = ZResultsBody.parse({ results: rows });
  const scope = { planId: t.planId, facilityId: t.facilityId };
  const answered = await enterResultsAndRead(db, actor, scope, runId, results);
  // The answer is the run as a read after the commit gives it.
  expect(answered).toEqual(await getRun(t.server.db, t.facilityId, runId));
  return count();
}

const rowsAt = (run: Body, n: number, extra: (i: number) => Body = () => ({}), timesLimit = 0.1) =>
  Array.from({ length: n }, (_, i) => row(run, i % 2 ? f.ptfe : f.steel, timesLimit, extra(i)));

describe('statements of one POST of results', () => {
  it('are as many for 20 results as for 1, and for 20 re-swabs as for 1', async () => {
    const studyId = await kit.study();
    const one = await newRun(studyId);
    const twenty = await newRun(studyId);
    const single = await statementsOf(one.id, rowsAt(one, 1));
    const many = await statementsOf(twenty.id, rowsAt(twenty, 20));
    expect(many).toBe(single);
    // Issue 34: was 47 (the run locked twice, the study read twice, the run read back after
    // the commit in 15 more), then 28 (the study's names and carbon fraction read from the kept
    // versions every time, its closed state read apart, the plan's locations and methods read
    // again by the recompute and the microbial plan, an empty lock of originals, the run's controlled
    // state read again after its working version was saved, the microbial policy in force read
    // by a recompute that takes no limit from it), then 17 (the run's working version read
    // locked before its save, and the study's outcome read and recomputed though a run being
    // built before and after the entry cannot move it), then 15 (the study's outcome no longer
    // recomputed; the working version still read locked and saved through the one versioned
    // UPDATE of every record, records/controlled.ts, not by a statement of its own), then 14
    // (the run's latest version read locked once, by its guard, for the save of its working
    // version too, run-reads.ts), then 12 (the entry's locations, methods and batch numbers
    // taken read in one statement), then 9 (the run's results, deviations, microbial results and
    // investigations read back in one statement, not four).
    expect(single).toBe(STATEMENTS_PER_POST);

    const entered = async (run: Body) => (await ok('GET', `/runs/${run.id}`)).run.results as Body[];
    const [first] = await entered(one);
    const originals = await entered(twenty);
    const reswab = (id: number) => ({ resultId: id, kind: 'reswab', reason: 'Swab dropped' });
    const singleRepeat = await statementsOf(
      one.id,
      rowsAt(one, 1, () => ({
        samplingLocationId: first!.samplingLocationId,
        repeats: reswab(first!.id),
      })),
    );
    const manyRepeats = await statementsOf(
      twenty.id,
      rowsAt(twenty, 20, (i) => ({
        samplingLocationId: originals[i]!.samplingLocationId,
        repeats: reswab(originals[i]!.id),
      })),
    );
    expect(manyRepeats).toBe(singleRepeat);

    // Every result has its one Create audit row and its first kept version; each original
    // its supersession.
    const after = await entered(twenty);
    expect(after).toHaveLength(40);
    expect(after.filter((r) => r.supersededBy !== null)).toHaveLength(20);
    const [audited] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where domain = 'SampleResult' and action = 'Create'
          and entity_id = any($1::text[])`,
      [after.map((r) => String(r.id))],
    );
    expect(audited!.n).toBe(40);
    const [kept] = await t.server.db.query<{ n: number }>(
      `select count(distinct record_id)::int as n from record_versions
        where table_name = 'sample_results' and record_id = any($1::int[])`,
      [after.map((r) => r.id as number)],
    );
    expect(kept!.n).toBe(40);
  });
});

describe('statements of one POST of failing results', () => {
  it('are as many for 20 failing results as for 1: other systems are told of them together', async () => {
    const studyId = await kit.study();
    const one = await newRun(studyId);
    const twenty = await newRun(studyId);
    const single = await statementsOf(one.id, rowsAt(one, 1, undefined, 3));
    const many = await statementsOf(twenty.id, rowsAt(twenty, 20, undefined, 3));
    expect(many).toBe(single);
    const failed = ((await ok('GET', `/runs/${twenty.id}`)).run.results as Body[]).filter(
      (r) => r.judgement.passed === false,
    );
    expect(failed).toHaveLength(20);
  });
});

describe('statements of one POST of a run', () => {
  it('are a fixed few, the run answered as a read after the commit gives it', async () => {
    const studyId = await kit.study();
    await newRun(studyId);
    const actor = await adminActor(t.server.db);
    const { db, count } = countStatements(t.server.db);
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const answered = await createRunAndRead(db, actor, scope, studyId, undefined);
    expect(answered.sequence).toBe(2);
    expect(answered).toEqual(await getRun(t.server.db, t.facilityId, answered.id));
    // Issue 34: was 26 (16 to create the run, 10 to read it back after the commit), then 21
    // (the run's children read in one statement), then 9: the run answered from what its
    // recompute read, the study not read again after its locked read, the plan's locations
    // read once, no read of the latest version of a run just made (it has none), and no
    // recompute of the study's outcome, which a run being built cannot move.
    expect(count()).toBe(STATEMENTS_PER_RUN);
  });
});
