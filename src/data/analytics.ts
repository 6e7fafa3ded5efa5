/**
 * One query factory for the four day-based analytics endpoints. The key holds
 * every input of the fetch (`['tokens', {startDate, endDate, groupBy, teams}]`)
 * and the fetch reads them back from the key, so what is cached is exactly what
 * was asked for. Extra options (`select`, `placeholderData`) are spread at the
 * call site.
 *
 * With teams, the answer comes from the dashboard server's team endpoint: the
 * same day rows for the teams' members only, without the fields the service
 * gives for the whole organization only (see `ORG_ONLY_FIELDS`).
 */
import { queryOptions, type QueryFunctionContext } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { PATHS } from '../api/paths';
import { ANALYTICS_SCHEMAS as SCHEMAS } from '../api/schemas';
import { TEAM_ANALYTICS_SCHEMAS, TEAMS_PATHS } from '../api/teams';
import type { DayRange } from '../lib/dates';
import { api, getWithLists } from './client';
import { normalizeTeams } from './search';

export type AnalyticsEndpoint = keyof typeof SCHEMAS;
export type GroupOf<E extends AnalyticsEndpoint> = keyof (typeof SCHEMAS)[E] & string;
type Answer<E extends AnalyticsEndpoint, G extends GroupOf<E>> = z.infer<(typeof SCHEMAS)[E][G] & z.ZodMiniType>;

export interface AnalyticsParams<G extends string> {
  startDate: string;
  endDate: string;
  groupBy: G;
  /** The teams the rows are limited to (sorted); empty for the whole organization. */
  teams: readonly string[];
  /**
   * The organization's `/tokens` days without the per-user split, from the server's store (`teams`
   * empty): the service's answer carries every user's split, 33 MB for 5,000 people over 90 days.
   */
  withoutUsers?: true;
}
type AnalyticsKey<E extends AnalyticsEndpoint, G extends GroupOf<E>> = readonly [E, AnalyticsParams<G>];

/** Whether a team's answer has this grouping (the others, per tool name and per client, are organization-only). */
export function teamGrouping(endpoint: AnalyticsEndpoint, groupBy: string): boolean {
  return groupBy in TEAM_ANALYTICS_SCHEMAS[endpoint];
}

async function fetchAnalytics<E extends AnalyticsEndpoint, G extends GroupOf<E>>({
  queryKey: [endpoint, p],
  signal,
}: QueryFunctionContext<AnalyticsKey<E, G>>): Promise<Answer<E, G>> {
  if (p.teams.length === 0 && p.withoutUsers) {
    const query = { startDate: p.startDate, endDate: p.endDate };
    return (await getWithLists(
      TEAMS_PATHS.analytics(endpoint),
      TEAM_ANALYTICS_SCHEMAS.tokens[''],
      query,
      signal,
    )) as Answer<E, G>;
  }
  if (p.teams.length === 0) {
    const schema = SCHEMAS[endpoint][p.groupBy] as z.ZodMiniType;
    const query = { startDate: p.startDate, endDate: p.endDate, group_by: p.groupBy || undefined };
    return (await api.get(PATHS[endpoint], schema, query, signal)) as Answer<E, G>;
  }
  const schema = (TEAM_ANALYTICS_SCHEMAS[endpoint] as Partial<Record<string, z.ZodMiniType>>)[p.groupBy];
  if (!schema) {
    throw new Error(`${endpoint} grouped by ${p.groupBy} is given for the whole organization only, not per team.`);
  }
  const query = { startDate: p.startDate, endDate: p.endDate, group_by: p.groupBy || undefined, team: p.teams };
  return (await getWithLists(TEAMS_PATHS.analytics(endpoint), schema, query, signal)) as Answer<E, G>;
}

/**
 * `analyticsQuery('tokens', range, 'model')`: the answer for the range, grouped or not; with
 * `teams`, for those teams' members only (a grouping a team's answer lacks is never asked for: the
 * page shows a note in its place).
 */
export function analyticsQuery<E extends AnalyticsEndpoint, G extends GroupOf<E> = '' & GroupOf<E>>(
  endpoint: E,
  range: DayRange,
  groupBy: G = '' as G,
  teams: readonly string[] = [],
  opts: { withoutUsers?: boolean } = {},
) {
  const lean = opts.withoutUsers && endpoint === 'tokens' && groupBy === '' && teams.length === 0;
  const key: AnalyticsKey<E, G> = [
    endpoint,
    {
      startDate: range.start,
      endDate: range.end,
      groupBy,
      teams: normalizeTeams(teams),
      ...(lean ? { withoutUsers: true as const } : {}),
    },
  ];
  return queryOptions({ queryKey: key, queryFn: fetchAnalytics<E, G> });
}
