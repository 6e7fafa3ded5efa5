import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { productivityResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import { previousPeriod, type DayRange } from '../../lib/dates';

export const productivityQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['productivity', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.productivity, productivityResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });

/** What the page asks for first: prefetched on hover of its link, or at start when it is the landing page. */
export function prefetchProductivityPage(client: QueryClient, r: DayRange): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(productivityQuery(r)),
    ...(prev ? [client.prefetchQuery(productivityQuery(prev))] : []),
  ]);
}
