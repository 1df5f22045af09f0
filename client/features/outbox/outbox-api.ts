import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZMailOutboxMessage, ZMailOutboxPage } from '#core/schemas/audit.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';

export type OutboxPage = z.infer<typeof ZMailOutboxPage>;
export type OutboxMail = OutboxPage['data'][number];
export type OutboxMessage = z.infer<typeof ZMailOutboxMessage>;

export const outboxKeys = {
  list: (search: string, pageNumber: number, pageLimit: number) =>
    ['mail-outbox', 'list', search, pageNumber, pageLimit] as const,
  message: (id: number) => ['mail-outbox', id] as const,
};

export function useOutbox(search: string, pageNumber: number, pageLimit: number) {
  return useQuery({
    queryKey: outboxKeys.list(search, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<OutboxPage>('/mail-outbox', {
        query: { search: search || undefined, pageNumber, pageLimit },
        action: 'Loading the mail outbox',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One mail with its text; the server records who read it. */
export function useOutboxMessage(id: number | null) {
  return useQuery({
    queryKey: outboxKeys.message(id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest<OutboxMessage>(`/mail-outbox/${id}`, { action: 'Opening the mail', signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}
