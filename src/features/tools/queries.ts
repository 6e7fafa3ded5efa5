import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { toolsByNameResponseSchema, toolsResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import { previousPeriod, type DayRange } from '../../lib/dates';

export const toolsQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tools', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) => api.get(PATHS.tools, toolsResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });

export const toolsByNameQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tools', { startDate: r.start, endDate: r.end, groupBy: 'tool_name' }],
    queryFn: ({ signal }) =>
      api.get(
        PATHS.tools,
        toolsByNameResponseSchema,
        { startDate: r.start, endDate: r.end, group_by: 'tool_name' },
        signal,
      ),
  });

/** What the page asks for first: prefetched on hover of its link, or at start when it is the landing page. */
export function prefetchToolsPage(client: QueryClient, r: DayRange): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(toolsQuery(r)),
    client.prefetchQuery(toolsByNameQuery(r)),
    ...(prev ? [client.prefetchQuery(toolsQuery(prev))] : []),
  ]);
}
