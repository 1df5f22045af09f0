import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TChangeAssessment,
  ZCancelBody,
  ZChangeAssessmentCreate,
  ZChangeAssessmentEdit,
  ZChangeAssessmentList,
  ZChangeAssessmentListQuery,
  ZChangeEditBody,
  ZDecisionsBody,
  ZImpactPairsQuery,
  ZImpactPairsResponse,
  ZImpactQuery,
  ZImpactResponse,
  ZStagedChangeBody,
} from '#core/schemas/change-assessments.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { invalidateMasterData } from '../query-keys.ts';
import { download } from '../limits/mac-export-api.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';

/** The calls of core/assessments/README.md ("Change assessments", routes table). */

export type ChangeAssessmentListQuery = z.infer<typeof ZChangeAssessmentListQuery>;
export type ChangeAssessmentList = z.infer<typeof ZChangeAssessmentList>;
export type ChangeAssessmentCreate = z.input<typeof ZChangeAssessmentCreate>;
export type ChangeAssessmentEdit = z.input<typeof ZChangeAssessmentEdit>;
export type StagedChangeBody = z.input<typeof ZStagedChangeBody>;
export type ChangeEditBody = z.input<typeof ZChangeEditBody>;
export type ImpactQuery = z.infer<typeof ZImpactQuery>;
export type ImpactResponse = z.infer<typeof ZImpactResponse>;
export type ImpactPairsQuery = z.infer<typeof ZImpactPairsQuery>;
export type ImpactPairsResponse = z.infer<typeof ZImpactPairsResponse>;
export type DecisionsBody = z.input<typeof ZDecisionsBody>;
export type CancelBody = z.input<typeof ZCancelBody>;

type Answer = { changeAssessment: TChangeAssessment };

export const changeKeys = {
  all: (facilityId: number) => ['facility', facilityId, 'change-assessments'] as const,
  list: (facilityId: number, query: ChangeAssessmentListQuery) =>
    [...changeKeys.all(facilityId), 'list', query] as const,
  detail: (facilityId: number, id: number) =>
    [...changeKeys.all(facilityId), 'detail', id] as const,
  impact: (facilityId: number, id: number, query?: ImpactQuery) =>
    [...changeKeys.detail(facilityId, id), 'impact', ...(query ? [query] : [])] as const,
  pairs: (facilityId: number, id: number, query: ImpactPairsQuery) =>
    [...changeKeys.detail(facilityId, id), 'pairs', query] as const,
};

export const changePath = (scope: FacilityScope, id?: number) =>
  `${facilityPath(scope)}/change-assessments${id === undefined ? '' : `/${id}`}`;

export function listChangeAssessments(
  scope: FacilityScope,
  query: ChangeAssessmentListQuery,
  signal?: AbortSignal,
): Promise<ChangeAssessmentList> {
  return apiRequest(changePath(scope), {
    query: { ...query },
    signal,
    action: 'Loading the change assessments',
  });
}

export async function getChangeAssessment(
  scope: FacilityScope,
  id: number,
  signal?: AbortSignal,
): Promise<TChangeAssessment> {
  const answer = await apiRequest<Answer>(changePath(scope, id), {
    signal,
    action: 'Loading the change assessment',
  });
  return answer.changeAssessment;
}

/** Every write of an assessment answers the assessment as it now is. */
async function write(
  scope: FacilityScope,
  path: string,
  action: string,
  body: unknown,
  method: 'POST' | 'DELETE' = 'POST',
  query?: Record<string, string | number>,
): Promise<TChangeAssessment> {
  const answer = await apiRequest<Answer>(`${changePath(scope)}${path}`, {
    method,
    body,
    query,
    action,
  });
  return answer.changeAssessment;
}

export const changeCalls = {
  create: (scope: FacilityScope, body: ChangeAssessmentCreate) =>
    write(scope, '', 'Creating the change assessment', body),
  edit: (scope: FacilityScope, id: number, body: ChangeAssessmentEdit) =>
    write(scope, `/${id}`, 'Editing the change assessment', body),
  stage: (scope: FacilityScope, id: number, body: StagedChangeBody) =>
    write(scope, `/${id}/changes`, 'Staging the change', body),
  editChange: (scope: FacilityScope, id: number, changeId: number, body: ChangeEditBody) =>
    write(scope, `/${id}/changes/${changeId}`, 'Editing the staged change', body),
  unstage: (
    scope: FacilityScope,
    id: number,
    changeId: number,
    query: { reason: string; version: number },
  ) =>
    write(scope, `/${id}/changes/${changeId}`, 'Removing the staged change', undefined, 'DELETE', {
      ...query,
    }),
  // Synchronous on the server: a large facility takes a couple of seconds.
  evaluate: (scope: FacilityScope, id: number, version: number) =>
    write(scope, `/${id}/evaluate`, 'Evaluating the change', { version }),
  decide: (scope: FacilityScope, id: number, body: DecisionsBody) =>
    write(scope, `/${id}/decisions`, 'Recording the decisions', body),
  cancel: (scope: FacilityScope, id: number, body: CancelBody) =>
    write(scope, `/${id}/cancel`, 'Cancelling the change assessment', body),
};

export function getImpact(
  scope: FacilityScope,
  id: number,
  query: ImpactQuery,
  signal?: AbortSignal,
): Promise<ImpactResponse> {
  return apiRequest(`${changePath(scope, id)}/impact`, {
    query: { ...query },
    signal,
    action: 'Loading the impact of the change',
  });
}

export function getImpactPairs(
  scope: FacilityScope,
  id: number,
  query: ImpactPairsQuery,
  signal?: AbortSignal,
): Promise<ImpactPairsResponse> {
  return apiRequest(`${changePath(scope, id)}/impact/pairs`, {
    query: { ...query },
    signal,
    action: 'Loading the pairs of the impact item',
  });
}

export function useChangeAssessments(query: ChangeAssessmentListQuery) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: changeKeys.list(scope.facilityId, query),
    queryFn: ({ signal }) => listChangeAssessments(scope, query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useChangeAssessment(id: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: changeKeys.detail(scope.facilityId, id),
    queryFn: ({ signal }) => getChangeAssessment(scope, id, signal),
  });
}

export function useImpact(id: number, query: ImpactQuery, enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: changeKeys.impact(scope.facilityId, id, query),
    queryFn: ({ signal }) => getImpact(scope, id, query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useImpactPairs(id: number, query: ImpactPairsQuery) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: changeKeys.pairs(scope.facilityId, id, query),
    queryFn: ({ signal }) => getImpactPairs(scope, id, query, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * A write of an assessment: the answer replaces the cached read, the lists and the impact
 * refetch; an approval changed master data, so the limits refetch too.
 */
export function useChangeWrite<V>(
  call: (scope: FacilityScope, variables: V) => Promise<TChangeAssessment>,
) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => call(scope, variables),
    onSuccess: (assessment) => {
      client.setQueryData(changeKeys.detail(scope.facilityId, assessment.id), assessment);
      void client.invalidateQueries({ queryKey: changeKeys.all(scope.facilityId) });
    },
  });
}

/** After a signature (an approval applies the change set): the assessment and the limits. */
export function invalidateAfterSigning(
  client: ReturnType<typeof useQueryClient>,
  facilityId: number,
): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: changeKeys.all(facilityId) }),
    invalidateMasterData(client, facilityId),
  ]);
}

/** The impact as a workbook or a PDF (GET …/impact/xlsx, …/impact/pdf). */
export function downloadImpact(
  scope: FacilityScope,
  assessment: Pick<TChangeAssessment, 'id' | 'number'>,
  format: 'xlsx' | 'pdf',
): Promise<string> {
  return download(
    `${changePath(scope, assessment.id)}/impact/${format}`,
    {},
    `Exporting the impact as ${format === 'pdf' ? 'PDF' : 'Excel'}`,
    `${assessment.number} impact.${format}`,
    () => undefined,
  );
}
