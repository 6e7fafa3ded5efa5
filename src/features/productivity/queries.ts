import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/**
 * What the page asks for first: prefetched on hover of its link, or at start when it is the landing
 * page; for the teams of the URL, when it names some.
 */
export function prefetchProductivityPage(
  client: QueryClient,
  r: DayRange,
  teams: readonly string[] = [],
): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('productivity', r, '', teams)),
    ...(prev ? [client.prefetchQuery(analyticsQuery('productivity', prev, '', teams))] : []),
  ]);
}
