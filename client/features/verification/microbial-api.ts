import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TRun,
  TRunResponse,
  ZMicrobialResultEdit,
  ZMicrobialResultsBody,
} from '#core/schemas/verification.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { runPath, useRunWrite } from './verification-api.ts';
import { verificationKeys } from '#client/shared/query-keys.ts';
import type { ZRunMicrobialResponse } from '#core/schemas/verification.schemas.ts';

/** The microbial calls of a run (core/verification/README.md, "Microbial results"). */

export type MicrobialResultsBody = z.input<typeof ZMicrobialResultsBody>;
export type MicrobialResultEditBody = z.input<typeof ZMicrobialResultEdit>;

export function useRunMicrobial(runId: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: verificationKeys.microbial(scope.facilityId, runId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<z.output<typeof ZRunMicrobialResponse>>(
          `${runPath(scope, runId)}/microbial`,
          {
            signal,
            action: 'Loading the microbial results',
          },
        )
      ).microbial,
  });
}

const enter = (scope: FacilityScope, runId: number, body: MicrobialResultsBody) =>
  apiRequest<TRunResponse>(`${runPath(scope, runId)}/microbial-results`, {
    method: 'POST',
    body,
    action: 'Saving the microbial results',
  }).then((answer) => answer.run);

const correct = (scope: FacilityScope, resultId: number, body: MicrobialResultEditBody) =>
  apiRequest<TRunResponse>(`${facilityPath(scope)}/microbial-results/${resultId}`, {
    method: 'POST',
    body,
    action: 'Correcting the microbial result',
  }).then((answer) => answer.run);

/** A microbial write: the run's answer replaces the cached run, its microbial side refetches. */
function useMicrobialWrite<V>(call: (scope: FacilityScope, variables: V) => Promise<TRun>) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  const write = useRunWrite(call);
  return useMutation({
    mutationFn: (variables: V) => write.mutateAsync(variables),
    onSuccess: (run) =>
      client.invalidateQueries({ queryKey: verificationKeys.microbial(scope.facilityId, run.id) }),
  });
}

export const useEnterMicrobial = (runId: number) =>
  useMicrobialWrite((scope, body: MicrobialResultsBody) => enter(scope, runId, body));

export const useCorrectMicrobial = () =>
  useMicrobialWrite((scope, v: { id: number; body: MicrobialResultEditBody }) =>
    correct(scope, v.id, v.body),
  );
