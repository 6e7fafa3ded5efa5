import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/**
 * What the page asks for first: prefetched on hover of its link, or at start when it is the landing
 * page; for the teams of the URL, when it names some (calls per tool name are then not asked for:
 * they are given for the whole organization only).
 */
export function prefetchToolsPage(client: QueryClient, r: DayRange, teams: readonly string[] = []): Promise<unknown> {
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('tools', r, '', teams)),
    ...(teams.length ? [] : [client.prefetchQuery(analyticsQuery('tools', r, 'tool_name'))]),
    ...(prev ? [client.prefetchQuery(analyticsQuery('tools', prev, '', teams))] : []),
    // Tool calls per user turn divides by the user messages of `/activity`.
    client.prefetchQuery(analyticsQuery('activity', r, '', teams)),
    ...(prev ? [client.prefetchQuery(analyticsQuery('activity', prev, '', teams))] : []),
  ]);
}
