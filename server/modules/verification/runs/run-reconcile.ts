import { RUN_RULES_VERSION } from '#core/verification/release.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { refreshStudy } from '../study-refresh.ts';
import { rejudgeRunResults } from './result-rejudge.ts';
import { announceReleaseFlag } from './run-events.ts';
import { judgeRun, studyOf, type RunRow } from './runs.read.ts';
import { auditRun } from './runs.service.ts';

/*
 * A run's verdict and release flag are stored at each write and every screen reads the stored
 * pair (runs.read.ts judgeRun). When the release rules change (RUN_RULES_VERSION), runs stored
 * under the older rules are judged again once, at start: a flag the current rules would not give
 * must not stay on a screen that releases equipment. Their sample results' stored judgements are
 * judged again first (result-rejudge.ts), so that the run screen, the reports and the statistics
 * read what the release reads. Each change is audited (21 CFR 11.10(e)) and refreshes the
 * study's outcome.
 */

/** The system changes the stored pair, not a person: the audit row says so. */
const SYSTEM: Actor = {
  userId: null,
  userName: 'system (release rules updated)',
  ip: null,
  userAgent: null,
  requestId: null,
};

export interface RunDisagreement {
  runId: number;
  stored: { verdict: string; releaseFlag: string };
  recomputed: { verdict: string; releaseFlag: string };
}

/** Every run whose stored verdict or release flag differs from the rules applied to it now. */
export async function runsDisagreeing(q: Queryable): Promise<RunDisagreement[]> {
  const runs = await q.query<RunRow>('select * from study_runs order by id');
  const disagreeing: RunDisagreement[] = [];
  for (const run of runs) {
    const { verdict, release } = await judgeRun(q, run.facility_id, run);
    if (verdict !== run.verdict || release.flag !== run.release_flag)
      disagreeing.push({
        runId: run.id,
        stored: { verdict: run.verdict, releaseFlag: run.release_flag },
        recomputed: { verdict, releaseFlag: release.flag },
      });
  }
  return disagreeing;
}

/** A run judged again at start: its verdict and flag, and the results whose judgement changed. */
export interface RunJudgedAgain extends RunDisagreement {
  resultIds: number[];
}

/**
 * Judges again every run stored under older release rules, and its sample results, one
 * transaction per run; answers the runs whose verdict, flag or result judgements changed. Costs
 * one query once every run is current.
 */
export async function reconcileRunJudgements(db: Db): Promise<RunJudgedAgain[]> {
  const stale = await db.query<{ id: number }>(
    'select id from study_runs where rules_version < $1 order by id',
    [RUN_RULES_VERSION],
  );
  const changed: RunJudgedAgain[] = [];
  for (const { id } of stale) {
    const change = await db.transaction(async (tx) => {
      const [run] = await tx.query<RunRow & { plan_id: number }>(
        `select r.*, f.plan_id from study_runs r join facilities f on f.id = r.facility_id
          where r.id = $1 and r.rules_version < $2 for update of r`,
        [id, RUN_RULES_VERSION],
      );
      if (!run) return null;
      const scope = { planId: run.plan_id, facilityId: run.facility_id };
      const resultIds = await rejudgeRunResults(
        tx,
        SYSTEM,
        scope,
        id,
        await studyOf(tx, run.facility_id, run.study_id),
        `Judgement judged again under release rules version ${RUN_RULES_VERSION}`,
      );
      const { verdict, release, study } = await judgeRun(tx, run.facility_id, run);
      await tx.query(
        `update study_runs set verdict = $2, release_flag = $3, rules_version = $4 where id = $1`,
        [id, verdict, release.flag, RUN_RULES_VERSION],
      );
      await announceReleaseFlag(tx, run.facility_id, run, study.seq, {
        verdict,
        flag: release.flag,
        reasons: release.reasons,
      });
      const same = verdict === run.verdict && release.flag === run.release_flag;
      if (same && resultIds.length === 0) return null;
      if (!same)
        await auditRun(tx, SYSTEM, scope, {
          domain: 'Run',
          action: 'Update',
          entityId: id,
          reason: `Verdict and release flag judged again under release rules version ${RUN_RULES_VERSION}`,
          oldValues: { verdict: run.verdict, releaseFlag: run.release_flag },
          newValues: { verdict, releaseFlag: release.flag, releaseReasons: release.reasons },
        });
      await refreshStudy(tx, run.facility_id, run.study_id);
      return {
        runId: id,
        stored: { verdict: run.verdict, releaseFlag: run.release_flag },
        recomputed: { verdict, releaseFlag: release.flag },
        resultIds,
      };
    });
    if (change) changed.push(change);
  }
  return changed;
}

/**
 * What the app does at start, before it serves: runs and their results stored under older
 * release rules are judged again; the changes are named in the log (each one is audited).
 */
export async function reconcileAtStart(
  db: Db,
  warn: (details: object, message: string) => void,
): Promise<RunJudgedAgain[]> {
  const rejudged = await reconcileRunJudgements(db);
  if (rejudged.length > 0)
    warn(
      { runs: rejudged },
      `${rejudged.length} run(s) judged again under the current release rules changed verdict, release flag or result judgements (audited)`,
    );
  return rejudged;
}
