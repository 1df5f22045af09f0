import {
  studyOutcome,
  type CompletedRunVerdict,
  type FailedRunPolicy,
} from '#core/verification/study-outcome.ts';
import type { Queryable } from '#server/db/db.ts';
import { writeCaused } from '#server/records/write-record.ts';
import { studyType } from './studies/studies.service.ts';

/*
 * A study's outcome and count of consecutive passes, derived from its completed runs
 * (core/verification/study-outcome.ts) and stored on the study in the transaction of every
 * change to one of its runs. Completed = the run's latest controlled version is Approved.
 */

const COUNTED: readonly string[] = ['Pass', 'Fail', 'Invalidated'];

/**
 * Recomputes and stores the study's outcome. `completing` names a run being approved in this
 * transaction (its onApproved runs before its status becomes Approved): it counts as completed.
 * `userId` is whoever's change of a run moved it (null: the system's). The run's change is
 * audited; the outcome it leads to is written as its consequence, with no audit row of its own.
 */
export async function refreshStudy(
  tx: Queryable,
  facilityId: number,
  studyId: number,
  completing?: number,
  userId: number | null = null,
): Promise<void> {
  const [study] = await tx.query<{
    required: number | null;
    closed: boolean;
    outcome: string;
    consecutive_passes: number;
    failed_run_policy: FailedRunPolicy;
  }>(
    `select (protocol_content->>'requiredPasses')::int as required, closed_at is not null as closed,
            outcome, consecutive_passes, failed_run_policy
       from studies where facility_id = $1 and id = $2 for update`,
    [facilityId, studyId],
  );
  if (!study) return;
  const runs = await tx.query<{ verdict: string }>(
    `select r.verdict from study_runs r
      where r.study_id = $1
        and (r.id = $2::int or exists (
          select 1 from controlled_versions v
           where v.facility_id = r.facility_id and v.document_type = 'Run' and v.document_id = r.id
             and v.status = 'Approved'))
      order by r.sequence`,
    [studyId, completing ?? null],
  );
  // A completed run still Pending (a location explained by a deviation) neither counts nor resets.
  const verdicts = runs
    .filter((r) => COUNTED.includes(r.verdict))
    .map((r) => ({ verdict: r.verdict as CompletedRunVerdict }));
  const { outcome, consecutivePasses } = studyOutcome(
    verdicts,
    study.required ?? 3,
    study.closed,
    study.failed_run_policy,
  );
  if (outcome === study.outcome && consecutivePasses === study.consecutive_passes) return;
  await writeCaused(tx, studyType, {
    userId,
    facilityId,
    id: studyId,
    set: { outcome, consecutive_passes: consecutivePasses },
  });
}
