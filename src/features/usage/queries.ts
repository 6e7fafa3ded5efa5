import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { TEAMS_PATHS, topUsersSchema } from '../../api/teams';
import { getWithLists } from '../../data/client';
import { analyticsQuery } from '../../data/analytics';
import { previousPeriod, type DayRange } from '../../lib/dates';

/**
 * What the page asks for first: the small grouped answer its first chart is drawn from (the days with
 * every user follow once it is in); for the teams of the URL, when it names some.
 */
export function prefetchUsagePage(client: QueryClient, r: DayRange, teams: readonly string[] = []): Promise<unknown> {
  if (teams.length === 0) return client.prefetchQuery(analyticsQuery('tokens', r, 'model', teams));
  // A team's answers are small: all of them at once (a team switch starts them before the page renders).
  // The KPI cards' days first, then the first chart's: a server that is not busy answers in the order asked.
  const prev = previousPeriod(r);
  return Promise.all([
    client.prefetchQuery(analyticsQuery('tokens', r, '', teams)),
    client.prefetchQuery(analyticsQuery('tokens', r, 'model', teams)),
    ...(prev ? [client.prefetchQuery(analyticsQuery('tokens', prev, '', teams))] : []),
    client.prefetchQuery(teamTopUsersQuery(r, teams, 25)),
  ]);
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
