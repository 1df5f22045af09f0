import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TUpdateActiveDirectorySettingsRequest,
  ZActiveDirectoryPingResponse,
} from '#core/schemas/active-directory.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import type { ZActiveDirectorySettingsResponse } from '#core/schemas/active-directory.schemas.ts';

const activeDirectoryKey = ['activeDirectory', 'settings'] as const;

type SettingsResponse = z.output<typeof ZActiveDirectorySettingsResponse>;

export function useActiveDirectorySettings() {
  return useQuery({
    queryKey: activeDirectoryKey,
    queryFn: ({ signal }) =>
      apiRequest<SettingsResponse>('/activeDirectory/settings', {
        action: 'Loading the Active Directory settings',
        signal,
      }),
    select: (body) => body.activeDirectorySettings,
  });
}

export function useUpdateActiveDirectorySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateActiveDirectorySettingsRequest) =>
      apiRequest<SettingsResponse>('/activeDirectory/settings', {
        method: 'PUT',
        body,
        action: 'Changing the Active Directory settings',
      }),
    onSuccess: (saved) => queryClient.setQueryData(activeDirectoryKey, saved),
  });
}

export function usePingActiveDirectory() {
  return useMutation({
    mutationFn: () =>
      apiRequest<z.infer<typeof ZActiveDirectoryPingResponse>>('/activeDirectory/settings/ping', {
        method: 'POST',
        action: 'Testing the directory connection',
      }),
  });
}
