import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/api-error.ts';

/**
 * Retrying an answered request repeats its warning and gets the same answer; only calls that
 * got no answer at all (network trouble) are worth a second try.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !isApiError(error) && failureCount < 2,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
