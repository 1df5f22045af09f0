import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_RULES_VERSION } from '#core/verification/release.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { reconcileAtStart, reconcileRunJudgements } from './run-reconcile.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Runs stored under older release rules are judged again at start (issue 26), and their sample
 * results' stored judgements with them: a swab result judged before method fitness, by a method
 * whose LOQ (a concentration, with no extraction volume on the swab's sampling type) cannot be
 * expressed per swab, was stored as a pass with methodNotFit false and its run releasable. After
 * the start every screen reads the judgement the release reads; each change is audited, and a
 * second pass has nothing left to do.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { ok, newRun, event, visualPass, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const REASON = `Judgement judged again under release rules version ${RUN_RULES_VERSION}`;

describe('judging runs and their results again at start', () => {
  it('leaves a current judgement as it is, audit trail untouched', async () => {
    const run = await newRun(await kit.study());
    const started = await visualPass(await event(run, { startedAt: '2026-01-06T08:00:00Z' }));
    const saved = await results(started, [row(started, f.steel, 0.2)]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await t.server.db.query('update study_runs set rules_version = 1 where id = $1', [run.id]);
    const [{ count: auditsBefore }] = (await t.server.db.query<{ count: number }>(
      'select count(*)::int as count from audit_log',
    )) as [{ count: number }];
    expect(await reconcileRunJudgements(t.server.db)).toEqual([]);
    const [{ count: auditsAfter }] = (await t.server.db.query<{ count: number }>(
      'select count(*)::int as count from audit_log',
    )) as [{ count: number }];
    expect(auditsAfter).toBe(auditsBefore);
    const [{ version }] = (await t.server.db.query<{ version: number }>(
      'select version from sample_results where run_id = $1',
      [run.id],
    )) as [{ version: number }];
    expect(version).toBe(1);
  });
  it('re-judges an old-style stored judgement, the run with it, audits both, and is then done', async () => {
    const run = await newRun(await kit.study());
    const started = await visualPass(
      await event(run, { startedAt: '2026-01-05T08:00:00Z', endedAt: '2026-01-05T09:00:00Z' }),
    );
    // The method's LOQ becomes a concentration: no extraction volume converts it per swab.
    const method = await ok('GET', `/analytical-method/${f.method}`);
    await ok('POST', `/analytical-method/${f.method}`, {
      loq: { value: 0.5, unit: 'ppm' },
      version: method.version,
      reason: 'LOQ restated by the laboratory',
    });
    const saved = await results(started, [row(started, f.steel, 0.2), row(started, f.ptfe, 0.2)]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');

    // As a build before method fitness stored them: passed, the method taken as fit.
    await t.server.db.query(
      `update sample_results
          set judgement = judgement || '{"passed": true, "methodNotFit": false}'::jsonb,
              passed = true
        where run_id = $1`,
      [run.id],
    );
    await t.server.db.query(
      `update study_runs set verdict = 'Pass', release_flag = 'CAN_BE_RELEASED', rules_version = 1
        where id = $1`,
      [run.id],
    );
    const before = (await ok('GET', `/runs/${run.id}`)).run as Body;
    expect(before.releaseFlag).toBe('CAN_BE_RELEASED');
    expect(before.results.map((r: Body) => r.judgement.methodNotFit)).toEqual([false, false]);

    // The start of the app.
    const warned: string[] = [];
    const changed = await reconcileAtStart(t.server.db, (_, message) => warned.push(message));
    const ids = before.results.map((r: Body) => r.id as number);
    expect(changed).toEqual([
      {
        runId: run.id,
        stored: { verdict: 'Pass', releaseFlag: 'CAN_BE_RELEASED' },
        recomputed: { verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' },
        resultIds: ids,
      },
    ]);
    expect(warned).toEqual([
      '1 run(s) judged again under the current release rules changed verdict, release flag or result judgements (audited)',
    ]);

    const read = (await ok('GET', `/runs/${run.id}`)).run as Body;
    expect(read).toMatchObject({ verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' });
    for (const result of read.results as Body[]) {
      expect(result.judgement).toMatchObject({ passed: false, methodNotFit: true });
      expect(result.judgement.derivation.join(' ')).toMatch(/cannot be expressed per swab/);
    }
    const stored = await t.server.db.query<{ passed: boolean | null; version: number }>(
      'select passed, version from sample_results where run_id = $1 order by id',
      [run.id],
    );
    expect(stored).toEqual([
      { passed: false, version: 2 },
      { passed: false, version: 2 },
    ]);

    const audits = await t.server.db.query<{
      domain: string;
      entity_id: string;
      reason: string;
      user_name: string | null;
      old_values: Body;
      new_values: Body;
    }>(
      `select domain, entity_id, reason, user_name, old_values, new_values from audit_log
        where reason in ($1, $2) order by seq`,
      [
        REASON,
        `Verdict and release flag judged again under release rules version ${RUN_RULES_VERSION}`,
      ],
    );
    expect(audits.map((a) => [a.domain, a.entity_id, a.user_name])).toEqual([
      ['SampleResult', String(ids[0]), 'system (release rules updated)'],
      ['SampleResult', String(ids[1]), 'system (release rules updated)'],
      ['Run', String(run.id), 'system (release rules updated)'],
    ]);
    expect(audits[0]!.old_values.judgement.methodNotFit).toBe(false);
    expect(audits[0]!.new_values.judgement.methodNotFit).toBe(true);

    const versions = await t.server.db.query<{ rules_version: number }>(
      'select distinct rules_version from study_runs',
    );
    expect(versions).toEqual([{ rules_version: RUN_RULES_VERSION }]);
    expect(await reconcileRunJudgements(t.server.db)).toEqual([]);
  });
});
