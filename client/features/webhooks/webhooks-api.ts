import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TWebhook,
  TWebhookDelivery,
  TWebhookEvent,
  ZWebhookWithSecret,
} from '#core/schemas/webhooks.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';

type WithSecret = z.infer<typeof ZWebhookWithSecret>;
interface Paging {
  pageNumber: number;
  pageLimit: number;
}
interface Page<T> {
  data: T[];
  total: number;
}

export const webhookKeys = {
  all: (facilityId: number) => ['webhooks', facilityId] as const,
  list: (facilityId: number, archived: boolean) =>
    ['webhooks', facilityId, 'list', archived] as const,
  deliveries: (facilityId: number, id: number, paging: Paging) =>
    ['webhooks', facilityId, 'deliveries', id, paging.pageNumber, paging.pageLimit] as const,
};

export function useWebhooks(scope: FacilityScope, archived: boolean) {
  return useQuery({
    queryKey: webhookKeys.list(scope.facilityId, archived),
    queryFn: ({ signal }) =>
      apiRequest<Page<TWebhook>>(`${facilityPath(scope)}/webhooks`, {
        query: { archived: String(archived), pageLimit: 1000 },
        action: 'Loading the webhooks',
        signal,
      }),
  });
}

/** The delivery log of one hook, refreshed while it is open: tries happen in the background. */
export function useDeliveries(scope: FacilityScope, id: number, paging: Paging) {
  return useQuery({
    queryKey: webhookKeys.deliveries(scope.facilityId, id, paging),
    queryFn: ({ signal }) =>
      apiRequest<Page<TWebhookDelivery>>(`${facilityPath(scope)}/webhooks/${id}/deliveries`, {
        query: { ...paging },
        action: 'Loading the delivery log',
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

export interface WebhookInput {
  url: string;
  events: TWebhookEvent[];
  secret?: string;
}

export function useSaveWebhook(scope: FacilityScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      input:
        | { kind: 'create'; body: WebhookInput }
        | {
            kind: 'edit';
            id: number;
            body: Partial<WebhookInput> & {
              rotateSecret?: true;
              reason: string;
              version: number;
            };
          },
    ) =>
      input.kind === 'create'
        ? apiRequest<WithSecret>(`${facilityPath(scope)}/webhooks`, {
            method: 'POST',
            body: input.body,
            action: 'Adding the webhook',
          })
        : apiRequest<WithSecret>(`${facilityPath(scope)}/webhooks/${input.id}`, {
            method: 'POST',
            body: input.body,
            action: 'Saving the webhook',
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(scope.facilityId) }),
  });
}

export function useArchiveWebhook(scope: FacilityScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ hook, reason }: { hook: TWebhook; reason: string }) =>
      apiRequest<TWebhook>(
        `${facilityPath(scope)}/webhooks/${hook.id}/${hook.archivedAt ? 'unarchive' : 'archive'}`,
        {
          method: 'PUT',
          body: { reason, version: hook.version },
          action: hook.archivedAt ? 'Unarchiving the webhook' : 'Archiving the webhook',
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(scope.facilityId) }),
  });
}

/** Sends a delivery that was given up again, with a reason (audited). */
export function useRedeliver(scope: FacilityScope, hookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ delivery, reason }: { delivery: TWebhookDelivery; reason: string }) =>
      apiRequest<TWebhookDelivery>(
        `${facilityPath(scope)}/webhooks/${hookId}/deliveries/${delivery.id}/redeliver`,
        { method: 'POST', body: { reason }, action: 'Sending the delivery again' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(scope.facilityId) }),
  });
}
