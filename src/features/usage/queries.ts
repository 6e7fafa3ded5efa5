import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import type { DayRange } from '../../lib/dates';

/**
 * What the page asks for first: the small grouped answer its first chart is drawn from (the days with
 * every user follow once it is in); for the teams of the URL, when it names some.
 */
export function prefetchUsagePage(client: QueryClient, r: DayRange, teams: readonly string[] = []): Promise<unknown> {
  return client.prefetchQuery(analyticsQuery('tokens', r, 'model', teams));
}
