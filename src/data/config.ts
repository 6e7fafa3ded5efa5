/** The server's client configuration: inlined in the page, refetched as the UTC day moves on. */
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { clientConfigSchema, type ClientConfig } from '../api/schemas';
import { configFromPage } from './base';
import { api } from './client';

export { configFromPage } from './base';

const loadedAt = Date.now();

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => api.get('/api/config', clientConfigSchema, undefined, signal),
  initialData: configFromPage,
  initialDataUpdatedAt: loadedAt,
  // The latest queryable day moves at midnight UTC: a page left open picks up the new day (and with it
  // the default range) within minutes, or when its tab is shown again.
  staleTime: 5 * 60_000,
  refetchInterval: 5 * 60_000,
  refetchOnWindowFocus: true,
});

export function useAppConfig(): ClientConfig {
  return useSuspenseQuery(configQuery).data;
}
