import { RUN_RULES_VERSION } from '#core/verification/release.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { refreshStudy } from '../study-refresh.ts';
import { judgeRun, type RunRow } from './runs.read.ts';
import { auditRun } from './runs.service.ts';

/*
 * A run's verdict and release flag are stored at each write and every screen reads the stored
 * pair (runs.read.ts judgeRun). When the release rules change (RUN_RULES_VERSION), runs stored
 * under the older rules are judged again once, at start: a flag the current rules would not give
 * must not stay on a screen that releases equipment. Each change is audited (21 CFR 11.10(e))
 * and refreshes the study's outcome.
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

/**
 * Judges again every run stored under older release rules, one transaction per run; answers the
 * runs whose verdict or flag changed. Costs one query once every run is current.
 */
export async function reconcileRunJudgements(db: Db): Promise<RunDisagreement[]> {
  const stale = await db.query<{ id: number }>(
    'select id from study_runs where rules_version < $1 order by id',
    [RUN_RULES_VERSION],
  );
  const changed: RunDisagreement[] = [];
  for (const { id } of stale) {
    const change = await db.transaction(async (tx) => {
      const [run] = await tx.query<RunRow & { plan_id: number }>(
        `select r.*, f.plan_id from study_runs r join facilities f on f.id = r.facility_id
          where r.id = $1 and r.rules_version < $2 for update of r`,
        [id, RUN_RULES_VERSION],
      );
      if (!run) return null;
      const { verdict, release } = await judgeRun(tx, run.facility_id, run);
      await tx.query(
        `update study_runs set verdict = $2, release_flag = $3, rules_version = $4 where id = $1`,
        [id, verdict, release.flag, RUN_RULES_VERSION],
      );
      if (verdict === run.verdict && release.flag === run.release_flag) return null;
      const scope = { planId: run.plan_id, facilityId: run.facility_id };
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
      };
    });
    if (change) changed.push(change);
  }
  return changed;
}
