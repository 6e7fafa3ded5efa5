import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/**
 * Client errors will not change on retry; rate limits were already retried by
 * the server as the service asked, so the widget says when to try again.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(onUnauthorized: () => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        // Every day the service answers for has ended: its numbers never change.
        staleTime: Infinity,
        gcTime: 30 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
    },
  });
}
