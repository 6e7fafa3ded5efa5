import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, NETWORK_ERROR } from '../api/errors';

/**
 * One retry policy: the dashboard's server retries the service's 429, 502, 503
 * and 504 answers (within bounds, honouring Retry-After), so an answer that
 * reaches the browser is final and retrying it would multiply upstream calls.
 * The browser retries only what never got an answer from our server: a
 * network failure or a body cut off in transit.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.status === NETWORK_ERROR && failureCount < 2;
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
        // A query that failed (in a prefetch, say) is not asked again just because a widget mounted:
        // its error is shown with a Retry button.
        retryOnMount: false,
        refetchOnWindowFocus: false,
      },
    },
  });
}
