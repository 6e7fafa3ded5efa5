/** The server's client configuration: inlined in the page, refetched as the UTC day moves on. */
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { clientConfigSchema, type ClientConfig } from '../api/schemas';
import { api } from './client';

/** The configuration the server inlined in the page, if it did (it does in production). */
export function configFromPage(): ClientConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const raw = document.querySelector('meta[name="dashboard-config"]')?.getAttribute('content');
  if (!raw) return undefined;
  try {
    const parsed = clientConfigSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

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
