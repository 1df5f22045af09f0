import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TInvestigation,
  TInvestigationResponse,
  ZInvestigationCreate,
  ZInvestigationEdit,
} from '#core/schemas/investigation.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { verificationKeys } from '#client/shared/query-keys.ts';

/** Laboratory investigations of out-of-specification results (core/verification/README.md). */

export type InvestigationCreateBody = z.input<typeof ZInvestigationCreate>;
export type InvestigationEditBody = z.input<typeof ZInvestigationEdit>;

async function post(path: string, action: string, body: unknown): Promise<TInvestigation> {
  return (await apiRequest<TInvestigationResponse>(path, { action, method: 'POST', body }))
    .investigation;
}

/** A result an investigation is opened on: a sample result, or a microbial one. */
export interface InvestigatedResult {
  id: number;
  microbial: boolean;
}

export const investigationCalls = {
  open: (scope: FacilityScope, result: InvestigatedResult, body: InvestigationCreateBody) =>
    post(
      `${facilityPath(scope)}/${result.microbial ? 'microbial-results' : 'results'}/${result.id}/investigations`,
      'Opening the investigation',
      body,
    ),
  edit: (scope: FacilityScope, id: number, body: InvestigationEditBody) =>
    post(`${facilityPath(scope)}/investigations/${id}`, 'Saving the investigation', body),
};

/** A write of an investigation: the run it belongs to is read again (it lists them). */
export function useInvestigationWrite<V>(
  runId: number,
  call: (scope: FacilityScope, variables: V) => Promise<TInvestigation>,
) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => call(scope, variables),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: verificationKeys.run(scope.facilityId, runId) }),
  });
}
