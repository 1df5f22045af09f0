import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TRunList,
  TRunResponse,
  TRunSummary,
  TStudy,
  ZStudyClose,
  ZStudyCreate,
  ZStudyEdit,
  ZStudy,
  ZStudyListQuery,
} from '#core/schemas/verification.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { cleaningAssessmentKeys } from '../cleaning-assessments/cleaning-assessments-api.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { studyKeys } from '#client/shared/query-keys.ts';
import type { TPage } from '#core/schemas/common.schemas.ts';

/** The calls of core/verification/README.md for studies and the runs of a study. */

export type StudyListQuery = z.infer<typeof ZStudyListQuery>;
export type StudyCreate = z.input<typeof ZStudyCreate>;
export type StudyClose = z.input<typeof ZStudyClose>;
export type StudyEdit = z.input<typeof ZStudyEdit>;
export type StudyList = TPage<typeof ZStudy>;
/** A run as the study's run list answers it (the run screen reads the whole run). */
export type RunSummary = TRunSummary;

export const studyPath = (scope: FacilityScope, id?: number) =>
  `${facilityPath(scope)}/studies${id === undefined ? '' : `/${id}`}`;

export function listStudies(
  scope: FacilityScope,
  query: StudyListQuery,
  signal?: AbortSignal,
): Promise<StudyList> {
  return apiRequest(studyPath(scope), {
    query: { ...query },
    signal,
    action: 'Loading the studies',
  });
}

export function getStudy(scope: FacilityScope, id: number, signal?: AbortSignal): Promise<TStudy> {
  return apiRequest<TStudy>(studyPath(scope, id), { signal, action: 'Loading the study' });
}

export async function listStudyRuns(
  scope: FacilityScope,
  id: number,
  signal?: AbortSignal,
): Promise<RunSummary[]> {
  const answer = await apiRequest<TRunList>(`${studyPath(scope, id)}/runs`, {
    signal,
    action: 'Loading the runs of the study',
  });
  return answer.runs;
}

export const studyCalls = {
  create: (scope: FacilityScope, body: StudyCreate) =>
    apiRequest<TStudy>(studyPath(scope), { method: 'POST', body, action: 'Creating the study' }),
  edit: (scope: FacilityScope, id: number, body: StudyEdit) =>
    apiRequest<TStudy>(studyPath(scope, id), {
      method: 'POST',
      body,
      action: 'Saving the study',
    }),
  close: (scope: FacilityScope, id: number, body: StudyClose) =>
    apiRequest<TStudy>(`${studyPath(scope, id)}/close`, {
      method: 'POST',
      body,
      action: 'Closing the study',
    }),
  addRun: async (scope: FacilityScope, id: number) =>
    (
      await apiRequest<TRunResponse>(`${studyPath(scope, id)}/runs`, {
        method: 'POST',
        body: {},
        action: 'Adding a run',
      })
    ).run,
};

export function useStudies(query: StudyListQuery) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: studyKeys.list(scope.facilityId, query),
    queryFn: ({ signal }) => listStudies(scope, query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useStudy(id: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: studyKeys.detail(scope.facilityId, id),
    queryFn: ({ signal }) => getStudy(scope, id, signal),
  });
}

export function useStudyRuns(id: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: studyKeys.runs(scope.facilityId, id),
    queryFn: ({ signal }) => listStudyRuns(scope, id, signal),
  });
}

/**
 * A write of a study or its runs: the studies refetch, and the qualification tasks too (a task
 * a study starts from shows its study).
 */
export function useStudyWrite<V, R>(call: (scope: FacilityScope, variables: V) => Promise<R>) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => call(scope, variables),
    onSuccess: () => invalidateStudies(client, scope.facilityId),
  });
}

/** After a write or a signature: the studies and the tasks they answer. */
export function invalidateStudies(
  client: ReturnType<typeof useQueryClient>,
  facilityId: number,
): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: studyKeys.all(facilityId) }),
    client.invalidateQueries({ queryKey: cleaningAssessmentKeys.tasks(facilityId) }),
  ]);
}
