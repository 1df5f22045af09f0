import { z } from 'zod';
import { ZFacilityParams } from './auth.schemas.ts';

/** Background jobs (server/jobs/README.md): what the client polls while one runs. */

/** The state of a background job: an assessment's, a report's. */
export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const ZJobState = z.enum(JOB_STATES);
export type TJobState = z.infer<typeof ZJobState>;

export const ZJobProgress = z.object({
  state: ZJobState,
  /** What the job is doing now, e.g. 'Computing limits'. */
  stage: z.string(),
  done: z.number().int(),
  total: z.number().int(),
  error: z.string().nullable(),
  /**
   * Whether a server is there to do the job: for a running job, the one running it still
   * answers; for any other, some server's worker is alive. Absent from progress kept with a
   * finished record.
   */
  workerAlive: z.boolean().optional(),
});
export type TJobProgress = z.infer<typeof ZJobProgress>;

export const ZJobParams = ZFacilityParams.extend({ id: z.guid() });

export const ZJob = ZJobProgress.extend({
  id: z.string(),
  /** The kind of job, e.g. 'cleaningAssessment'. */
  name: z.string(),
});
export type TJob = z.infer<typeof ZJob>;

export const ZJobResponse = z.object({ job: ZJob });
