import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/** What the page asks for first: prefetched on hover of its link, or at start when it is the landing page. */
export function prefetchToolsPage(client: QueryClient, r: DayRange): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('tools', r)),
    client.prefetchQuery(analyticsQuery('tools', r, 'tool_name')),
    ...(prev ? [client.prefetchQuery(analyticsQuery('tools', prev))] : []),
  ]);
}
