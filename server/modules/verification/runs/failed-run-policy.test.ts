import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminSigner } from '#server/test/factories/admin.ts';
import { buildDeviation, closeDeviation } from '#server/test/factories/deviations.ts';
import { actorFor, signIntoForce } from '#server/test/factories/signed-record.ts';
import { buildRun } from '#server/test/factories/verification.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * What a completed failed run does to its study, as the protocol chooses (failedRunPolicy;
 * unset: a Validation study fails, another type starts its count again), and the failures the
 * dashboard shows; over HTTP on a real database.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, row } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const started = { startedAt: '2026-11-01T08:00:00Z' };

const scope = () => ({ planId: t.planId, facilityId: t.facilityId });

/**
 * A started run with a passing visual inspection and results of `valve` and `gasket` × their
 * limits, written by the administrator through the run's own services.
 */
async function runWith(studyId: number, valve: number, gasket: number) {
  const admin = await adminSigner(t.server.db);
  return buildRun(t.server, scope(), studyId, {
    actor: actorFor(admin),
    event: started,
    inspection: {},
    results: (run) => [row(run, f.steel, valve), row(run, f.ptfe, gasket)],
  });
}

/**
 * A run failing at the Gasket (3 × its limit), decided by a deviation QA approved (a process
 * failure at the Gasket, or a laboratory error invalidating the run), submitted and approved:
 * set up through the run's own writes and real signatures.
 */
async function failedRun(studyId: number, cause: 'process' | 'laboratory'): Promise<Body> {
  const admin = await adminSigner(t.server.db);
  const run = await runWith(studyId, 0.2, 3);
  const body =
    cause === 'process'
      ? ({ kind: 'process', title: 'Residue at the gasket', samplingLocationId: f.ptfe } as const)
      : ({ kind: 'nonProcess', title: 'Wrong standard', invalidatesRun: true } as const);
  const deviation = await buildDeviation(t.server, scope(), run.id, body, actorFor(admin));
  const decided = { actor: actorFor(admin), signers: { submitter: admin } };
  await closeDeviation(t.server, scope(), deviation, decided);
  const ref = { documentType: 'Run', documentId: run.id } as const;
  await signIntoForce(t.server, scope(), ref, { submitter: admin });
  return (await ok('GET', `/runs/${run.id}`)).run as Body;
}

const P = 'pass';
const F = 'process failure';
const L = 'laboratory error';

describe('a completed failed run', () => {
  it.each<[string, string | undefined, string, string[], string, string, number]>([
    // study type, protocol's choice, runs in order → policy, outcome, consecutive passes
    ['Validation', undefined, 'unset', [P, F], 'failStudy', 'Failed', 0],
    ['Validation', undefined, 'unset', [F, P, P, P], 'failStudy', 'Failed', 3],
    ['Validation', undefined, 'a laboratory error', [P, L, P], 'failStudy', 'On Going', 2],
    ['Validation', 'resetCount', 'resetCount', [P, F, P], 'resetCount', 'On Going', 1],
    ['Verification', undefined, 'unset', [P, F], 'resetCount', 'On Going', 0],
    ['Verification', 'failStudy', 'failStudy', [F], 'failStudy', 'Failed', 0],
  ])(
    'of a %s study, protocol %s (%s): %j → %s, %s',
    async (studyType, choice, _label, runs, policy, outcome, passes) => {
      const studyId = await kit.study(choice ? { failedRunPolicy: choice } : {}, studyType);
      expect((await ok('GET', `/studies/${studyId}`)).failedRunPolicy).toBe(policy);
      for (const r of runs) {
        if (r === P) await kit.completedRun(studyId);
        else await failedRun(studyId, r === F ? 'process' : 'laboratory');
      }
      expect(await kit.studyRow(studyId)).toEqual({
        outcome,
        consecutive_passes: passes,
      });
    },
  );

  it('refuses an unknown choice on the protocol with a field error', async () => {
    const res = await call('POST', '/protocols', {
      protocolNumber: 'PR-X',
      name: 'Bad choice',
      failedRunPolicy: 'ignore',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].property).toBe('failedRunPolicy');
  });
});

describe('the dashboard', () => {
  it('counts and lists every failed run and failed study', async () => {
    const studyId = await kit.study();
    const failed = await failedRun(studyId, 'process');
    // A failed run still open counts too: its failure is there before anyone signs.
    const open = await runWith(await kit.study(), 2, 0.2);
    const res = await ok('GET', '/dashboard');
    const { failedRuns, failedStudies } = res.dashboard.failures as Body;
    const failedCount = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from study_runs where facility_id = $1 and verdict = 'Fail'`,
      [t.facilityId],
    );
    const studyCount = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from studies where facility_id = $1 and outcome = 'Failed'`,
      [t.facilityId],
    );
    expect(failedRuns.count).toBe(failedCount[0]!.n);
    expect(failedStudies.count).toBe(studyCount[0]!.n);
    expect(failedRuns.runs.slice(0, 2)).toEqual([
      {
        id: open.id,
        studyId: open.studyId,
        studyNumber: open.studyNumber,
        sequence: 1,
        completed: false,
      },
      {
        id: failed.id,
        studyId,
        studyNumber: failed.studyNumber,
        sequence: 1,
        completed: true,
      },
    ]);
    expect(failedStudies.studies[0]).toEqual({
      id: studyId,
      number: failed.studyNumber,
      title: expect.any(String),
    });
  });
});
