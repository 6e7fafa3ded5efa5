import type { QueryClient } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import type { DayRange } from '../../lib/dates';

/**
 * What the page asks for first: the small grouped answer its first chart is drawn from (the days with
 * every user follow once it is in).
 */
export function prefetchUsagePage(client: QueryClient, r: DayRange): Promise<unknown> {
  return client.prefetchQuery(analyticsQuery('tokens', r, 'model'));
}
