import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TDepartment, ZDepartment } from '#core/schemas/departments.schemas.ts';
import type { TPage } from '#core/schemas/common.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { userKeys } from '#client/shared/query-keys.ts';

export const departmentKeys = {
  all: ['departments'] as const,
  list: (search: string, pageNumber: number, pageLimit: number) =>
    ['departments', search, pageNumber, pageLimit] as const,
};

export function useDepartments(search: string, pageNumber: number, pageLimit: number) {
  return useQuery({
    queryKey: departmentKeys.list(search, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZDepartment>>('/departments', {
        query: { search: search || undefined, pageNumber, pageLimit },
        action: 'Loading departments',
        signal,
      }),
  });
}

function useDepartmentMutation<TVars>(fn: (vars: TVars) => Promise<TDepartment>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // The user form lists departments too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: departmentKeys.all }),
        queryClient.invalidateQueries({ queryKey: userKeys.departments }),
      ]),
  });
}

export function useCreateDepartment() {
  return useDepartmentMutation((body: { name: string }) =>
    apiRequest<TDepartment>('/departments', {
      method: 'POST',
      body,
      action: 'Creating a department',
    }),
  );
}

export function useUpdateDepartment() {
  return useDepartmentMutation(
    ({ id, ...body }: { id: number; name: string; reason: string; version: number }) =>
      apiRequest<TDepartment>(`/departments/${id}`, {
        method: 'POST',
        body,
        action: 'Renaming a department',
      }),
  );
}
