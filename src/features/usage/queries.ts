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

/** What the page needs once its first chart is drawn (the figures' schema, the glossary), loaded then. */
const deferred = () => import('./deferred');

/** The figures the page leads with, as the figures runner gives them (lib/measures.ts' ids). */
export const HEADLINE_MEASURES = ['active', 'members', 'adoption', 'prs', 'creditsPerPr'] as const;
/** With a price list, the money too. */
export const SPEND_HEADLINE_MEASURES = ['spend', 'spendPerPr'] as const;

/**
 * The figures the page leads with (active people, adoption, spend, per pull request), of the organization or the
 * teams chosen, asked of `GET /api/figures`: the figures runner's, as the teams page's rows are. The answer's
 * schema (with every measure's id) is fetched with the answer, not in the first bundle: it is asked after the
 * first chart. Keyed under `teams`: a new mapping asks again.
 */
export function headlineQuery(range: DayRange, teams: readonly string[], spend: boolean) {
  const measure = spend ? [...HEADLINE_MEASURES, ...SPEND_HEADLINE_MEASURES] : [...HEADLINE_MEASURES];
  return queryOptions({
    queryKey: ['teams', 'figures', { start: range.start, end: range.end, teams, measure }] as const,
    queryFn: async ({ signal }) => {
      const { FIGURES_PATH, figuresAnswerSchema } = await deferred();
      return getWithLists(
        FIGURES_PATH,
        figuresAnswerSchema,
        { measure, by: 'total', start: range.start, end: range.end, team: teams },
        signal,
      );
    },
  });
}

/**
 * The glossary (lib/definitions.ts), for the cards' "how this is counted": its sentences are fetched with the
 * pages' shared code once the first chart is drawn, rather than carried in the first bundle.
 */
export const glossaryQuery = queryOptions({
  queryKey: ['glossary'],
  queryFn: async () => (await deferred()).DEFINITIONS,
  staleTime: Infinity,
});
