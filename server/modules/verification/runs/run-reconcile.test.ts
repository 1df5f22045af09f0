import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_RULES_VERSION } from '#core/verification/release.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { reconcileRunJudgements } from './run-reconcile.ts';
import { runKit, type RunFacility } from './run-test-kit.ts';

/*
 * Runs stored under older release rules are judged again at start (issue 26): a run released
 * under the old rules with a result its method could not show is not releasable now, the change
 * is audited, and a second pass has nothing left to do.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { ok, newRun, event, visualPass, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

describe('judging runs again under the current release rules', () => {
  it('corrects a stale stored flag, audits it, and then has nothing left to do', async () => {
    const run = await newRun(await kit.study());
    const started = await event(run, {
      startedAt: '2026-01-05T08:00:00Z',
      endedAt: '2026-01-05T09:00:00Z',
    });
    await visualPass(started);
    const saved = await results(started, [row(started, f.steel, 0.2), row(started, f.ptfe, 0.2)]);
    expect(saved.body.run.releaseFlag).toBe('CAN_BE_RELEASED');
    // As an older build stored it: passed, though the method could not show the limit.
    await t.server.db.query(
      `update sample_results set judgement = jsonb_set(judgement, '{methodNotFit}', 'true')
        where run_id = $1 and sampling_location_id = $2`,
      [run.id, f.ptfe],
    );
    await t.server.db.query('update study_runs set rules_version = 0 where id = $1', [run.id]);

    const changed = await reconcileRunJudgements(t.server.db);
    expect(changed).toEqual([
      {
        runId: run.id,
        stored: { verdict: 'Pass', releaseFlag: 'CAN_BE_RELEASED' },
        recomputed: { verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' },
      },
    ]);
    const read = (await ok('GET', `/runs/${run.id}`)).run as Body;
    expect(read).toMatchObject({ verdict: 'Fail', releaseFlag: 'CAN_NOT_BE_RELEASED' });
    const [audit] = await t.server.db.query<{ reason: string; user_name: string | null }>(
      `select reason, user_name from audit_log where domain = 'Run' and entity_id = $1
        order by seq desc limit 1`,
      [String(run.id)],
    );
    expect(audit).toEqual({
      reason: `Verdict and release flag judged again under release rules version ${RUN_RULES_VERSION}`,
      user_name: 'system (release rules updated)',
    });
    const versions = await t.server.db.query<{ rules_version: number }>(
      'select distinct rules_version from study_runs',
    );
    expect(versions).toEqual([{ rules_version: RUN_RULES_VERSION }]);
    expect(await reconcileRunJudgements(t.server.db)).toEqual([]);
  });
});
