import type { Queryable } from '#server/db/db.ts';
import { enqueueJob, registerJobHandler } from '#server/jobs/jobs.ts';
import { JOB_NAME, runCleaningAssessment } from './cleaning-assessment.job.ts';

/**
 * The background job behind an assessment (server/jobs): the handler runs the assessment and
 * reports its stages as the job's progress, and the job ends in the transaction that stores the
 * result; `enqueue` starts it in the insert's transaction.
 */
export function registerCleaningAssessmentJob(): void {
  registerJobHandler<{ assessmentId: number }>(JOB_NAME, (data, ctx) =>
    runCleaningAssessment(ctx.db, data.assessmentId, ctx),
  );
}

export function enqueueCleaningAssessment(
  tx: Queryable,
  facilityId: number,
  assessmentId: number,
): Promise<string> {
  return enqueueJob(tx, facilityId, JOB_NAME, { assessmentId });
}
