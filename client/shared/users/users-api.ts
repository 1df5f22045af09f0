import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TPage } from '#core/schemas/common.schemas.ts';
import type { ZDepartment } from '#core/schemas/departments.schemas.ts';
import type { TRole } from '#core/schemas/roles.schemas.ts';
import type { ZActiveDirectorySearchResponse } from '#core/schemas/active-directory.schemas.ts';
import type {
  TUser,
  TUserWithKey,
  ZCreateUserRequest,
  ZUser,
} from '#core/schemas/users.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { userKeys } from '#client/shared/query-keys.ts';
import type { AuditLogPage } from '#client/shared/audit-log/audit-log-api.ts';

export interface UserListParams {
  pageNumber: number;
  pageLimit: number;
  search: string;
  archived: boolean;
}

/** A user account's audit rows, newest first (GET /users/{id}/history). */
export function useUserHistory(id: number, page: { pageNumber: number; pageLimit: number }) {
  return useQuery({
    queryKey: userKeys.history(id, page),
    queryFn: ({ signal }) =>
      apiRequest<AuditLogPage>(`/users/${id}/history`, {
        query: page,
        action: 'Loading the history of the user',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZUser>>('/users', {
        query: {
          pageNumber: params.pageNumber,
          pageLimit: params.pageLimit,
          search: params.search || undefined,
          archived: params.archived,
        },
        action: 'Loading users',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The roles a user can be given in one facility (for the user form). */
export function useFacilityRoleOptions(planId: number | null, facilityId: number) {
  return useQuery({
    queryKey: userKeys.facilityRoles(planId, facilityId),
    queryFn: ({ signal }) =>
      apiRequest<TRole[]>(`/plans/${planId}/facilities/${facilityId}/user_roles`, {
        action: 'Loading roles',
        signal,
      }),
    enabled: planId !== null,
  });
}

export function useDepartmentOptions() {
  return useQuery({
    queryKey: userKeys.departments,
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZDepartment>>('/departments', {
        query: { pageLimit: 1000 },
        action: 'Loading departments',
        signal,
      }),
    select: (page) => page.data,
  });
}

type CreateUserBody = z.input<typeof ZCreateUserRequest>;
/** What the user form sends: the body the server checks a new user with, every grant named. */
export type UserFormValues = Omit<CreateUserBody, 'password' | 'facilityRoles'> &
  Required<Pick<CreateUserBody, 'facilityRoles'>>;

function useUserMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useCreateUser() {
  return useUserMutation((body: UserFormValues) =>
    apiRequest<TUserWithKey>('/users', { method: 'POST', body, action: 'Creating a user' }),
  );
}

/** Directory accounts matching a query, for "Add from directory". */
export function useSearchDirectory() {
  return useMutation({
    mutationFn: (query: string) =>
      apiRequest<z.output<typeof ZActiveDirectorySearchResponse>>('/activeDirectory/search', {
        method: 'POST',
        body: { query },
        action: 'Searching the directory',
      }),
  });
}

export function useAddDirectoryUser() {
  return useUserMutation((dn: string) =>
    apiRequest<TUserWithKey>('/activeDirectory/users', {
      method: 'POST',
      body: { dn },
      action: 'Adding a user from the directory',
    }),
  );
}

export function useUpdateUser() {
  return useUserMutation(
    ({
      id,
      ...body
    }: Partial<UserFormValues> & {
      id: number;
      reason: string;
      version?: number;
      unArchive?: boolean;
    }) => apiRequest<TUser>(`/users/${id}`, { method: 'POST', body, action: 'Editing a user' }),
  );
}

export function useArchiveUser() {
  return useUserMutation(
    ({ id, reason, forceDelete }: { id: number; reason: string; forceDelete: boolean }) =>
      apiRequest<TUser>(`/users/${id}/archive`, {
        method: 'PUT',
        body: { reason, force_delete: forceDelete },
        action: 'Archiving a user',
      }),
  );
}

export type AccountAction = 'lock' | 'unlock' | 'block' | 'unblock' | 'enable';

export function useAccountAction() {
  return useUserMutation(
    ({ id, action, reason }: { id: number; action: AccountAction; reason: string }) =>
      apiRequest<TUser>(`/users/${id}/${action}`, {
        method: 'PUT',
        body: { reason },
        action: `${action[0]!.toUpperCase()}${action.slice(1)} user`,
      }),
  );
}

export function useResendInvitation() {
  return useUserMutation(
    ({ id, reason, generateKey }: { id: number; reason: string; generateKey: boolean }) =>
      apiRequest<TUserWithKey>(`/users/${id}/resend-invitation`, {
        method: 'POST',
        body: { id, reason, generateKey },
        action: 'Resending the invitation',
      }),
  );
}

export function useCancelSecretKey() {
  return useUserMutation(({ id, reason }: { id: number; reason: string }) =>
    apiRequest<TUser>(`/users/${id}/secret-key`, {
      method: 'DELETE',
      body: { reason },
      action: 'Cancelling the secret key',
    }),
  );
}

export function useEndSessions() {
  return useUserMutation(({ id }: { id: number }) =>
    apiRequest(`/users/${id}/tokens`, { method: 'DELETE', action: 'Ending sessions' }),
  );
}
