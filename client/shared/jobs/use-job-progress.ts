import { useQuery } from '@tanstack/react-query';
import type { TJob } from '#core/schemas/jobs.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { isJobFinished } from './job-progress.ts';

export const jobKeys = {
  one: (facilityId: number, jobId: string) => ['facility', facilityId, 'jobs', jobId] as const,
};

/**
 * GET {F}/jobs/{id} every second until the job is done or failed (no polling without an id).
 * A screen that shows the job's result refetches it when `data.state` turns 'done'.
 */
export function useJobProgress(jobId: string | null | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: jobKeys.one(scope.facilityId, jobId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<{ job: TJob }>(`${facilityPath(scope)}/jobs/${jobId}`, {
        signal,
        action: 'Following the job',
      }),
    select: (answer) => answer.job,
    enabled: Boolean(jobId),
    refetchInterval: (query) => {
      const job = query.state.data?.job;
      return job && isJobFinished(job.state) ? false : 1000;
    },
  });
}
