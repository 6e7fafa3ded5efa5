import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { TEAMS_PATHS, topUsersSchema } from '../../api/teams';
import { getWithLists } from '../../data/client';
import { analyticsQuery } from '../../data/analytics';
import type { DayRange } from '../../lib/dates';

/**
 * What the page asks for first: the small grouped answer its first chart is drawn from (the days with
 * every user follow once it is in); for the teams of the URL, when it names some.
 */
export function prefetchUsagePage(client: QueryClient, r: DayRange, teams: readonly string[] = []): Promise<unknown> {
  return client.prefetchQuery(analyticsQuery('tokens', r, 'model', teams));
}

/**
 * A team's top users by credits, computed on the server (a team's `/tokens` days leave out the
 * per-user split, which grows with the team).
 */
export function teamTopUsersQuery(range: DayRange, teams: readonly string[], limit: number) {
  return queryOptions({
    queryKey: ['teams', 'top-users', { start: range.start, end: range.end, teams, limit }] as const,
    queryFn: ({ signal }) =>
      getWithLists(
        TEAMS_PATHS.topUsers,
        topUsersSchema,
        { start: range.start, end: range.end, limit: String(limit), team: teams },
        signal,
      ),
  });
}
