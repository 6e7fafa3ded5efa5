import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { GOALS_PATH, goalsAnswerSchema } from '../../api/goals';
import { TEAMS_PATHS, teamsSummarySchema } from '../../api/teams';
import { USERS_PATHS, usersTableSchema } from '../../api/users';
import { FIGURES_PATH, figuresAnswerSchema } from '../../api/figures';
import { api, getWithLists } from '../../data/client';
import type { DayRange } from '../../lib/dates';
import { INTENSITY_WEEK_MEASURES } from './intensity';

/**
 * Every query of this feature starts with `teams` (as `data/teams.ts`'s tree does); a change of the
 * mapping invalidates them all, and every other query asked for one or more teams (`teamScoped`,
 * mapping-queries.ts).
 */
export const TEAMS = 'teams';

/** `GET /api/teams/summary`: one row per team over the range, with the previous period's figures. */
export const teamsSummaryQuery = (r: DayRange) =>
  queryOptions({
    queryKey: [TEAMS, 'summary', { start: r.start, end: r.end }],
    queryFn: ({ signal }) => api.get(TEAMS_PATHS.summary, teamsSummarySchema, { start: r.start, end: r.end }, signal),
    // The days are final, but the mapping may change under them (TEAMS_FILE edited): as the tree.
    staleTime: 5 * 60_000,
  });

export const prefetchTeamsPage = (client: QueryClient, r: DayRange) => client.prefetchQuery(teamsSummaryQuery(r));

/** The members shown on a team page: its most active people, by credits. */
export const MEMBERS_LIMIT = 500;

/** Asked again every second while the server is still reading the range from the service (a 202). */
const FILL_POLL_MS = 1000;

/** `GET /api/users?team=`: the team's people active in the range, most credits first. */
export const teamMembersQuery = (r: DayRange, team: string) =>
  queryOptions({
    queryKey: [TEAMS, 'members', { start: r.start, end: r.end, team }],
    queryFn: ({ signal }) =>
      api.get(
        USERS_PATHS.table,
        usersTableSchema,
        { start: r.start, end: r.end, team, sort: 'credits', dir: 'desc', offset: 0, limit: MEMBERS_LIMIT },
        signal,
      ),
    refetchInterval: (q) => (q.state.data?.complete === false ? FILL_POLL_MS : false),
  });

/** `GET /api/figures?by=week&team=`: a team's share of members in each band of intensity, week by week. */
export const teamIntensityQuery = (r: DayRange, team: string) =>
  queryOptions({
    queryKey: [TEAMS, 'intensity', { start: r.start, end: r.end, team }],
    queryFn: ({ signal }) =>
      getWithLists(
        FIGURES_PATH,
        figuresAnswerSchema,
        { measure: INTENSITY_WEEK_MEASURES, by: 'week', compare: 'none', start: r.start, end: r.end, team: [team] },
        signal,
      ),
    staleTime: 5 * 60_000,
  });
/**
 * `GET /api/goals`: the goals the reader may see (of `team` alone when given), each with its progress. Under `teams`,
 * so a change of the mapping asks again; a goal set, changed or removed asks again for every answer of them.
 */
export const goalsQuery = (team?: string) =>
  queryOptions({
    queryKey: [TEAMS, 'goals', team ?? null],
    queryFn: ({ signal }) => api.get(GOALS_PATH, goalsAnswerSchema, team === undefined ? undefined : { team }, signal),
    staleTime: 60_000,
  });

/** The key every goals answer is kept under. */
export const GOALS_KEY = [TEAMS, 'goals'] as const;
