import { z } from 'zod';
import { ZFacilityParams } from './auth.schemas.ts';
import { ZJobProgress } from './cleaning-assessments.schemas.ts';

/** Background jobs (server/jobs/README.md): what the client polls while one runs. */

export const ZJobParams = ZFacilityParams.extend({ id: z.guid() });

export const ZJob = ZJobProgress.extend({
  id: z.string(),
  /** The kind of job, e.g. 'cleaningAssessment'. */
  name: z.string(),
});
export type TJob = z.infer<typeof ZJob>;

export const ZJobResponse = z.object({ job: ZJob });
