import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/** What the page asks for first: prefetched on hover of its link, or at start when it is the landing page. */
export function prefetchProductivityPage(client: QueryClient, r: DayRange): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('productivity', r)),
    ...(prev ? [client.prefetchQuery(analyticsQuery('productivity', prev))] : []),
  ]);
}
