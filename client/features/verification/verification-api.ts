import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { z } from 'zod';
import type {
  TRun,
  TRunResponse,
  TStatisticsResponse,
  TVerificationSettings,
  ZDeviationCreate,
  ZDeviationEdit,
  ZResultEdit,
  ZResultsBody,
  ZRunEdit,
  ZStatisticsQuery,
} from '#core/schemas/verification.schemas.ts';
import { statisticsFromWire } from '#core/verification/statistics-columns.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { invalidateVerification, verificationKeys } from '#client/shared/query-keys.ts';
import type { ZVerificationSettingsResponse } from '#core/schemas/verification.schemas.ts';

/** The calls of core/verification/README.md: runs, results, deviations and statistics. */

export type RunEditBody = z.input<typeof ZRunEdit>;
export type ResultsBody = z.input<typeof ZResultsBody>;
export type ResultEditBody = z.input<typeof ZResultEdit>;
export type DeviationCreateBody = z.input<typeof ZDeviationCreate>;
export type DeviationEditBody = z.input<typeof ZDeviationEdit>;
export type StatisticsQuery = z.input<typeof ZStatisticsQuery>;

export const runPath = (scope: FacilityScope, id: number) => `${facilityPath(scope)}/runs/${id}`;

async function runAnswer(path: string, action: string, body?: unknown): Promise<TRun> {
  const answer = await apiRequest<TRunResponse>(path, {
    action,
    ...(body === undefined ? {} : { method: 'POST', body }),
  });
  return answer.run;
}

/** Every write of a run answers the run as it now is. */
export const runCalls = {
  get: (scope: FacilityScope, id: number) => runAnswer(runPath(scope, id), 'Loading the run'),
  editEvent: (scope: FacilityScope, id: number, body: RunEditBody) =>
    runAnswer(runPath(scope, id), 'Saving the cleaning event', body),
  enterResults: (scope: FacilityScope, id: number, body: ResultsBody) =>
    runAnswer(`${runPath(scope, id)}/results`, 'Saving the sample results', body),
  editResult: (scope: FacilityScope, resultId: number, body: ResultEditBody) =>
    runAnswer(`${facilityPath(scope)}/results/${resultId}`, 'Correcting the result', body),
  addDeviation: (scope: FacilityScope, id: number, body: DeviationCreateBody) =>
    runAnswer(`${runPath(scope, id)}/deviations`, 'Raising the deviation', body),
  editDeviation: (scope: FacilityScope, deviationId: number, body: DeviationEditBody) =>
    runAnswer(`${facilityPath(scope)}/deviations/${deviationId}`, 'Saving the deviation', body),
};

export function useRun(id: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: verificationKeys.run(scope.facilityId, id),
    queryFn: () => runCalls.get(scope, id),
  });
}

/** A write of a run: its answer replaces the cached run; studies refetch (their outcome moves). */
export function useRunWrite<V>(call: (scope: FacilityScope, variables: V) => Promise<TRun>) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => call(scope, variables),
    onSuccess: (run) => {
      client.setQueryData(verificationKeys.run(scope.facilityId, run.id), run);
      void invalidateVerification(client, scope.facilityId);
    },
  });
}

/** After a signature the run's status, flag and its study's outcome changed on the server. */
export function invalidateRun(client: ReturnType<typeof useQueryClient>, facilityId: number) {
  return invalidateVerification(client, facilityId);
}

export function useStatistics(query: StatisticsQuery | null) {
  const scope = useFacilityScope();
  const { formatDate } = useDateFormat();
  // The alerts are worded here, naming each result's day as the facility writes dates.
  const decode = useCallback(
    (answer: TStatisticsResponse) => statisticsFromWire(answer.statistics, formatDate),
    [formatDate],
  );
  return useQuery({
    queryKey: verificationKeys.statistics(scope.facilityId, query ?? { key: '' }),
    queryFn: ({ signal }) =>
      apiRequest<TStatisticsResponse>(`${facilityPath(scope)}/verification/statistics`, {
        query: { ...query },
        signal,
        action: 'Loading the ongoing verification statistics',
      }),
    select: decode,
    enabled: query !== null && query.key !== '',
  });
}

/** The thresholds the alert and action lines are drawn at (GET {F}/verification/settings). */
export type VerificationThresholds = Pick<TVerificationSettings, 'alertPercent' | 'actionPercent'>;

/** The facility's thresholds; until they answer, the design's defaults (50 %, 80 %). */
export function useVerificationThresholds(): VerificationThresholds {
  const scope = useFacilityScope();
  const query = useQuery({
    queryKey: verificationKeys.settings(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<z.output<typeof ZVerificationSettingsResponse>>(
        `${facilityPath(scope)}/verification/settings`,
        { signal, action: 'Loading the verification settings' },
      ),
  });
  return query.data?.settings ?? { alertPercent: 50, actionPercent: 80 };
}
