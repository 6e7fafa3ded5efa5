import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { tokensByModelResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import type { DayRange } from '../../lib/dates';

export { tokensQuery } from '../../components/shared-queries';

export const tokensByModelQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tokens', { startDate: r.start, endDate: r.end, groupBy: 'model' }],
    queryFn: ({ signal }) =>
      api.get(
        PATHS.tokens,
        tokensByModelResponseSchema,
        { startDate: r.start, endDate: r.end, group_by: 'model' },
        signal,
      ),
  });

/**
 * What the page asks for first: the small grouped answer its first chart is drawn from (the days with
 * every user follow once it is in).
 */
export function prefetchUsagePage(client: QueryClient, r: DayRange): Promise<unknown> {
  return Promise.all([client.prefetchQuery(tokensByModelQuery(r))]);
}
