import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TDefaultUnit,
  TPasswordPolicy,
  ZAllowedDomains,
} from '#core/schemas/settings.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import type { TSsoSettings, TUpdateSsoSettingsRequest } from '#core/schemas/auth.schemas.ts';
import { dateTimeSettingsKey } from '../use-date-format.ts';
import { useSession } from '#client/session/use-session.ts';
import type {
  ZDateTimeSettingsResponse,
  ZDefaultUnitsResponse,
  ZUpdateAllowedDomainsRequest,
  ZUpdateDateTimeSettingsRequest,
  ZUpdateDefaultUnitRequest,
} from '#core/schemas/settings.schemas.ts';

export type AllowedDomains = z.infer<typeof ZAllowedDomains>;

export const settingsKeys = {
  passwordPolicy: ['users', 'password-policy'] as const,
  allowedDomains: ['users', 'allowedDomains'] as const,
  defaultUnits: (facilityId: number | null) => ['facilities', facilityId, 'default_units'] as const,
};

function useFacilityPath(): { path: string; facilityId: number | null } {
  const { planId, currentFacilityId } = useSession();
  return {
    path: `/plans/${planId}/facilities/${currentFacilityId}`,
    facilityId: currentFacilityId,
  };
}

export function usePasswordPolicy(enabled = true) {
  return useQuery({
    queryKey: settingsKeys.passwordPolicy,
    queryFn: ({ signal }) =>
      apiRequest<TPasswordPolicy>('/users/password-policy', {
        action: 'Loading the password policy',
        signal,
      }),
    enabled,
  });
}

export type PasswordPolicyChange = Omit<TPasswordPolicy, 'version'> & {
  version: number;
  reason: string;
};

export function useUpdatePasswordPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordPolicyChange) =>
      apiRequest<TPasswordPolicy>('/users/password-policy', {
        method: 'PUT',
        body,
        action: 'Changing the password policy',
      }),
    // The policy and the domains share the plan settings' version: the other one moves on too.
    onSuccess: async (policy) => {
      queryClient.setQueryData(settingsKeys.passwordPolicy, policy);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.allowedDomains });
    },
  });
}

export function useAllowedDomains(enabled = true) {
  return useQuery({
    queryKey: settingsKeys.allowedDomains,
    queryFn: ({ signal }) =>
      apiRequest<AllowedDomains>('/users/allowedDomains', {
        action: 'Loading the allowed domains',
        signal,
      }),
    enabled,
  });
}

export function useUpdateAllowedDomains() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZUpdateAllowedDomainsRequest>) =>
      apiRequest<AllowedDomains>('/users/allowedDomains', {
        method: 'PUT',
        body,
        action: 'Changing the allowed domains',
      }),
    onSuccess: async (domains) => {
      queryClient.setQueryData(settingsKeys.allowedDomains, domains);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.passwordPolicy });
    },
  });
}

export function useUpdateDateTimeSettings() {
  const queryClient = useQueryClient();
  const { path, facilityId } = useFacilityPath();
  return useMutation({
    mutationFn: (body: z.input<typeof ZUpdateDateTimeSettingsRequest>) =>
      apiRequest<z.output<typeof ZDateTimeSettingsResponse>>(`${path}/date-time-settings`, {
        method: 'POST',
        body,
        action: 'Changing the date and time settings',
      }),
    // Every date on every screen follows these settings.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dateTimeSettingsKey(facilityId) }),
  });
}

export function useDefaultUnits(enabled = true) {
  const { path, facilityId } = useFacilityPath();
  return useQuery({
    queryKey: settingsKeys.defaultUnits(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<z.output<typeof ZDefaultUnitsResponse>>(`${path}/default_units`, {
        action: 'Loading default units',
        signal,
      }),
    enabled: enabled && facilityId !== null,
  });
}

export function useUpdateDefaultUnit() {
  const queryClient = useQueryClient();
  const { path, facilityId } = useFacilityPath();
  return useMutation({
    mutationFn: ({ id, ...body }: z.input<typeof ZUpdateDefaultUnitRequest> & { id: number }) =>
      apiRequest<TDefaultUnit>(`${path}/default_units/${id}`, {
        method: 'POST',
        body,
        action: 'Changing a default unit',
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: settingsKeys.defaultUnits(facilityId) }),
  });
}

const ssoSettingsKey = ['users', 'sso-settings'] as const;

export function useSsoSettings() {
  return useQuery({
    queryKey: ssoSettingsKey,
    queryFn: ({ signal }) =>
      apiRequest<TSsoSettings>('/users/sso-settings', {
        action: 'Loading the single sign-on settings',
        signal,
      }),
  });
}

export function useUpdateSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateSsoSettingsRequest) =>
      apiRequest<TSsoSettings>('/users/sso-settings', {
        method: 'PUT',
        body,
        action: 'Changing the single sign-on settings',
      }),
    onSuccess: (saved) => queryClient.setQueryData(ssoSettingsKey, saved),
  });
}
