import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TApiToken,
  TIssuedToken,
  TServiceAccount,
} from '#core/schemas/service-accounts.schemas.ts';
import type { TFacilityRoles } from '#core/schemas/users.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { userKeys } from '#client/shared/query-keys.ts';

export function useServiceAccounts(archived: boolean) {
  return useQuery({
    queryKey: userKeys.serviceAccounts(archived),
    queryFn: ({ signal }) =>
      apiRequest<TServiceAccount[]>('/service-accounts', {
        query: { archived },
        action: 'Loading service accounts',
        signal,
      }),
  });
}

export function useAccountTokens(accountId: number) {
  return useQuery({
    queryKey: userKeys.tokens(accountId),
    queryFn: ({ signal }) =>
      apiRequest<TApiToken[]>(`/service-accounts/${accountId}/tokens`, {
        action: 'Loading API tokens',
        signal,
      }),
  });
}

/** A change to an account or its tokens refreshes every users list (the keys share a root). */
function useAccountMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export interface ServiceAccountFormValues {
  name: string;
  description: string | null;
  ownerId: number;
  facilityRoles: TFacilityRoles[];
}

export function useCreateServiceAccount() {
  return useAccountMutation((body: ServiceAccountFormValues) =>
    apiRequest<TServiceAccount>('/service-accounts', {
      method: 'POST',
      body,
      action: 'Creating a service account',
    }),
  );
}

export function useUpdateServiceAccount() {
  return useAccountMutation(
    ({ id, ...body }: ServiceAccountFormValues & { id: number; reason: string; version: number }) =>
      apiRequest<TServiceAccount>(`/service-accounts/${id}`, {
        method: 'POST',
        body,
        action: 'Editing a service account',
      }),
  );
}

export function useArchiveServiceAccount() {
  return useAccountMutation(({ id, reason }: { id: number; reason: string }) =>
    apiRequest<TServiceAccount>(`/service-accounts/${id}/archive`, {
      method: 'PUT',
      body: { reason },
      action: 'Archiving a service account',
    }),
  );
}

export function useIssueToken() {
  return useAccountMutation(
    ({ accountId, ...body }: { accountId: number; name: string; expiresInDays: number }) =>
      apiRequest<TIssuedToken>(`/service-accounts/${accountId}/tokens`, {
        method: 'POST',
        body,
        action: 'Issuing an API token',
      }),
  );
}

export function useRevokeToken() {
  return useAccountMutation(
    ({ accountId, tokenId, reason }: { accountId: number; tokenId: number; reason: string }) =>
      apiRequest<TApiToken>(`/service-accounts/${accountId}/tokens/${tokenId}/revoke`, {
        method: 'PUT',
        body: { reason },
        action: 'Revoking an API token',
      }),
  );
}
