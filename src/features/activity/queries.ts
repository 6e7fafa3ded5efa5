import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/**
 * What the page asks for first: prefetched on hover of its link, or at start when it is the landing
 * page; for the teams of the URL, when it names some (active users per client are then not asked
 * for: they are given for the whole organization only).
 */
export function prefetchActivityPage(
  client: QueryClient,
  r: DayRange,
  teams: readonly string[] = [],
): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('activity', r, '', teams)),
    ...(teams.length ? [] : [client.prefetchQuery(analyticsQuery('activity', r, 'client'))]),
    ...(prev ? [client.prefetchQuery(analyticsQuery('activity', prev, '', teams))] : []),
  ]);
}
