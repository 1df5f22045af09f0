import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TOperator, ZOperator } from '#core/schemas/operators.schemas.ts';
import type { TPage } from '#core/schemas/common.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { useSession } from '#client/session/use-session.ts';

export interface OperatorListParams {
  search: string;
  pageNumber: number;
  pageLimit: number;
  archived: boolean;
}

export const operatorKeys = {
  all: ['operators'] as const,
  list: (facilityId: number | null, params: OperatorListParams) =>
    ['operators', facilityId, params] as const,
};

function useBase(): string {
  const { planId, currentFacilityId } = useSession();
  return `/plans/${planId}/facilities/${currentFacilityId}/operator`;
}

export function useOperators(params: OperatorListParams) {
  const { currentFacilityId } = useSession();
  const base = useBase();
  return useQuery({
    queryKey: operatorKeys.list(currentFacilityId, params),
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZOperator>>(base, {
        query: { ...params, search: params.search || undefined },
        action: 'Loading operators',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export interface OperatorFormValues {
  firstName: string;
  lastName: string;
  operatorId: string;
  departmentId?: number | null;
}

function useOperatorMutation<TVars>(fn: (base: string, vars: TVars) => Promise<TOperator>) {
  const queryClient = useQueryClient();
  const base = useBase();
  return useMutation({
    mutationFn: (vars: TVars) => fn(base, vars),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}

export function useCreateOperator() {
  return useOperatorMutation((base, body: OperatorFormValues) =>
    apiRequest<TOperator>(base, { method: 'POST', body, action: 'Creating an operator' }),
  );
}

export function useUpdateOperator() {
  return useOperatorMutation(
    (
      base,
      {
        id,
        ...body
      }: Partial<OperatorFormValues> & { id: number; reason: string; version: number },
    ) =>
      apiRequest<TOperator>(`${base}/${id}`, {
        method: 'POST',
        body,
        action: 'Editing an operator',
      }),
  );
}

export function useArchiveOperator() {
  return useOperatorMutation(
    (base, { id, archive, reason }: { id: number; archive: boolean; reason: string }) =>
      apiRequest<TOperator>(`${base}/${id}`, {
        method: 'PUT',
        body: archive ? { archive: true, reason } : { unArchive: true, reason },
        action: archive ? 'Archiving an operator' : 'Restoring an operator',
      }),
  );
}
