import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import type {
  TCleaningAssessment,
  TQualificationTask,
  ZCleaningAssessmentList,
  ZFromLastResponse,
  ZRiskGoal,
  ZRiskGoalBody,
  ZStartAssessmentBody,
  ZTaskAction,
  ZTaskList,
  ZTaskListQuery,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { isJobFinished } from '../jobs/job-progress.ts';

/** The calls of core/assessments/README.md, "Cleaning assessments". */

export type CleaningAssessmentList = z.infer<typeof ZCleaningAssessmentList>;
export type CleaningAssessmentSummary = CleaningAssessmentList['cleaningAssessments'][number];
export type FromLast = z.infer<typeof ZFromLastResponse>;
export type DataChange = FromLast['changes'][number];
export type TaskList = z.infer<typeof ZTaskList>;
export type TaskFilter = Pick<z.infer<typeof ZTaskListQuery>, 'evaluationId' | 'status'>;
export type TaskAction = z.input<typeof ZTaskAction>;
export type RiskGoal = z.infer<typeof ZRiskGoal>;
export type RiskGoalBody = z.input<typeof ZRiskGoalBody>;
export type StartAssessmentBody = z.input<typeof ZStartAssessmentBody>;

/** The spec's timeout of the assessment and qualification-task calls (§9). */
const LONG_TIMEOUT_MS = 6_000_000;

interface Page {
  pageNumber: number;
  pageLimit: number;
}

export const cleaningAssessmentKeys = {
  all: (facilityId: number) => ['facility', facilityId, 'cleaning-assessments'] as const,
  lists: (facilityId: number) => ['facility', facilityId, 'cleaning-assessments', 'list'] as const,
  list: (facilityId: number, page: Page) =>
    ['facility', facilityId, 'cleaning-assessments', 'list', page] as const,
  one: (facilityId: number, id: number) =>
    ['facility', facilityId, 'cleaning-assessments', 'one', id] as const,
  fromLast: (facilityId: number, id: number | undefined, page: Page) =>
    ['facility', facilityId, 'cleaning-assessments', 'from-last', id ?? 'latest', page] as const,
  tasks: (facilityId: number) => ['facility', facilityId, 'qualification-tasks'] as const,
  taskList: (facilityId: number, filter: TaskFilter, page: Page) =>
    ['facility', facilityId, 'qualification-tasks', filter, page] as const,
  trainTasks: (facilityId: number, trainId: number, evaluationId: number) =>
    ['facility', facilityId, 'qualification-tasks', 'train', trainId, evaluationId] as const,
  riskGoal: (facilityId: number) => ['facility', facilityId, 'risk-goal'] as const,
};

const base = (scope: FacilityScope) => `${facilityPath(scope)}/cleaning-assessments`;

export function listAssessments(scope: FacilityScope, page: Page, signal?: AbortSignal) {
  return apiRequest<CleaningAssessmentList>(base(scope), {
    query: { ...page },
    signal,
    action: 'Loading the cleaning assessments',
  });
}

export async function getAssessment(
  scope: FacilityScope,
  id: number,
  signal?: AbortSignal,
): Promise<TCleaningAssessment> {
  const answer = await apiRequest<{ cleaningAssessment: TCleaningAssessment }>(
    `${base(scope)}/${id}`,
    { signal, action: 'Loading the cleaning assessment' },
  );
  return answer.cleaningAssessment;
}

export async function startAssessment(
  scope: FacilityScope,
  body: StartAssessmentBody,
): Promise<TCleaningAssessment> {
  const answer = await apiRequest<{ cleaningAssessment: TCleaningAssessment }>(base(scope), {
    method: 'POST',
    body,
    timeoutMs: LONG_TIMEOUT_MS,
    action: 'Starting the cleaning assessment',
  });
  return answer.cleaningAssessment;
}

/** Since the latest completed assessment, or, with `id`, since the one before it. */
export function listChangesSince(
  scope: FacilityScope,
  id: number | undefined,
  page: Page,
  signal?: AbortSignal,
) {
  return apiRequest<FromLast>(`${base(scope)}/from-last`, {
    query: { id, ...page },
    signal,
    action: 'Loading the changes since the prior assessment',
  });
}

export function listTasks(
  scope: FacilityScope,
  filter: TaskFilter,
  page: Page,
  signal?: AbortSignal,
) {
  return apiRequest<TaskList>(`${facilityPath(scope)}/qualification-task`, {
    query: { ...filter, ...page },
    signal,
    action: 'Loading the qualification tasks',
  });
}

/** The tasks of one train (the case study) raised by one assessment. */
export function listTrainTasks(
  scope: FacilityScope,
  trainId: number,
  evaluationId: number,
  signal?: AbortSignal,
) {
  return apiRequest<TaskList>(`${facilityPath(scope)}/qualification-task/entity/${trainId}`, {
    query: { evaluationId, pageLimit: 1000 },
    signal,
    action: 'Loading the qualification tasks of the train',
  });
}

export async function decideTask(
  scope: FacilityScope,
  taskId: number,
  body: TaskAction,
): Promise<TQualificationTask> {
  const answer = await apiRequest<{ qualificationTask: TQualificationTask }>(
    `${facilityPath(scope)}/qualification-task/task/${taskId}`,
    {
      method: 'POST',
      body,
      timeoutMs: LONG_TIMEOUT_MS,
      action: body.action === 'dismiss' ? 'Dismissing the task' : 'Accepting the task',
    },
  );
  return answer.qualificationTask;
}

export async function getRiskGoal(scope: FacilityScope, signal?: AbortSignal): Promise<RiskGoal> {
  const answer = await apiRequest<{ riskGoal: RiskGoal }>(`${facilityPath(scope)}/risk-goal`, {
    signal,
    action: 'Loading the risk goal',
  });
  return answer.riskGoal;
}

export async function saveRiskGoal(scope: FacilityScope, body: RiskGoalBody): Promise<RiskGoal> {
  const answer = await apiRequest<{ riskGoal: RiskGoal }>(`${facilityPath(scope)}/risk-goal`, {
    method: 'POST',
    body,
    action: 'Saving the risk goal',
  });
  return answer.riskGoal;
}

export function useAssessments(page: Page, enabled = true) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: cleaningAssessmentKeys.list(scope.facilityId, page),
    queryFn: ({ signal }) => listAssessments(scope, page, signal),
    enabled,
    placeholderData: keepPreviousData,
    // A running assessment moves on in the list too.
    refetchInterval: (query) =>
      query.state.data?.cleaningAssessments.some((a) => !isJobFinished(a.progress.state))
        ? 2000
        : false,
  });
}

/**
 * One assessment, read every second while its job is queued or running. When the job ends, the
 * lists, the tasks its gaps raised and the risk goal it is measured against are read again.
 */
export function useAssessment(id: number) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: cleaningAssessmentKeys.one(scope.facilityId, id),
    queryFn: ({ signal }) => getAssessment(scope, id, signal),
    refetchInterval: (query) =>
      query.state.data && !isJobFinished(query.state.data.progress.state) ? 1000 : false,
  });
  const state = query.data?.progress.state;
  const { facilityId } = scope;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (state === undefined) return;
    if (!isJobFinished(state)) {
      wasRunning.current = true;
      return;
    }
    if (!wasRunning.current) return;
    wasRunning.current = false;
    for (const queryKey of [
      cleaningAssessmentKeys.lists(facilityId),
      cleaningAssessmentKeys.tasks(facilityId),
      cleaningAssessmentKeys.riskGoal(facilityId),
    ])
      void queryClient.invalidateQueries({ queryKey });
  }, [state, facilityId, queryClient]);
  return query;
}

export function useChangesSince(id: number | undefined, page: Page) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: cleaningAssessmentKeys.fromLast(scope.facilityId, id, page),
    queryFn: ({ signal }) => listChangesSince(scope, id, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTasks(filter: TaskFilter, page: Page) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: cleaningAssessmentKeys.taskList(scope.facilityId, filter, page),
    queryFn: ({ signal }) => listTasks(scope, filter, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTrainTasks(trainId: number, evaluationId: number, enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: cleaningAssessmentKeys.trainTasks(scope.facilityId, trainId, evaluationId),
    queryFn: ({ signal }) => listTrainTasks(scope, trainId, evaluationId, signal),
    enabled,
  });
}

export function useRiskGoal() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: cleaningAssessmentKeys.riskGoal(scope.facilityId),
    queryFn: ({ signal }) => getRiskGoal(scope, signal),
  });
}
