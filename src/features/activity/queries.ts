import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { activityByClientResponseSchema, activityResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import { previousPeriod, type DayRange } from '../../lib/dates';

export const activityQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['activity', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.activity, activityResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });

export const activityByClientQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['activity', { startDate: r.start, endDate: r.end, groupBy: 'client' }],
    queryFn: ({ signal }) =>
      api.get(
        PATHS.activity,
        activityByClientResponseSchema,
        { startDate: r.start, endDate: r.end, group_by: 'client' },
        signal,
      ),
  });

/** What the page asks for first: prefetched on hover of its link, or at start when it is the landing page. */
export function prefetchActivityPage(client: QueryClient, r: DayRange): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(activityQuery(r)),
    client.prefetchQuery(activityByClientQuery(r)),
    ...(prev ? [client.prefetchQuery(activityQuery(prev))] : []),
  ]);
}
