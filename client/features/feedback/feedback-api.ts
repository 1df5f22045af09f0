import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TFeedback, ZFeedbackBody, ZFeedbackPage } from '#core/schemas/dashboard.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

/** `{F}/feedback` (spec §7): sent from any screen, listed for administrators. */

export type FeedbackPage = z.infer<typeof ZFeedbackPage>;
export type FeedbackBody = z.input<typeof ZFeedbackBody>;

export const feedbackKeys = {
  all: (facilityId: number) => ['facility', facilityId, 'feedback'] as const,
  list: (facilityId: number, search: string, pageNumber: number, pageLimit: number) =>
    ['facility', facilityId, 'feedback', search, pageNumber, pageLimit] as const,
};

export function useFeedbackList(search: string, pageNumber: number, pageLimit: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: feedbackKeys.list(scope.facilityId, search, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<FeedbackPage>(`${facilityPath(scope)}/feedback`, {
        query: { search: search || undefined, pageNumber, pageLimit },
        action: 'Loading the feedback',
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useSendFeedback() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FeedbackBody) =>
      apiRequest<{ feedback: TFeedback }>(`${facilityPath(scope)}/feedback`, {
        method: 'POST',
        body,
        action: 'Sending the feedback',
      }).then((answer) => answer.feedback),
    onSuccess: () => client.invalidateQueries({ queryKey: feedbackKeys.all(scope.facilityId) }),
  });
}
