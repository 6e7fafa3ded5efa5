import { queryOptions } from '@tanstack/react-query';
import { INSIGHTS_PATHS, cohortsSchema, highlightsSchema } from '../api/insights';
import type { DayRange } from '../lib/dates';
import { getWithLists } from './client';

/** `GET /api/highlights`: what stands out this week, for the organization or the teams chosen. */
export const highlightsQuery = (teams: readonly string[]) =>
  queryOptions({
    queryKey: ['highlights', { teams }],
    queryFn: ({ signal }) => getWithLists(INSIGHTS_PATHS.highlights, highlightsSchema, { team: teams }, signal),
    staleTime: 5 * 60_000,
    // Asked again while the store is still taking in the weeks they read.
    refetchInterval: (q) => (q.state.data?.complete === false ? 5000 : false),
  });

/** `GET /api/cohorts`: people by the week they were first active, and who came back. */
export const cohortsQuery = (teams: readonly string[]) =>
  queryOptions({
    queryKey: ['cohorts', { teams }],
    queryFn: ({ signal }) => getWithLists(INSIGHTS_PATHS.cohorts, cohortsSchema, { team: teams }, signal),
    staleTime: 5 * 60_000,
  });

/**
 * A highlight's link as an address in the app, keeping the reader's range (`reader`) where it still shows what the
 * highlight is about: a link without a range of its own gets the reader's; a link to a page of charts (a person, a
 * team's activity) gets it when it contains the highlight's week. A list whose range defines who is in it (the
 * users page's people new this week, or not active in 30 days) keeps its own.
 */
export function highlightHref(
  link: { path: string; query: Record<string, string | string[]> },
  reader?: DayRange,
  week?: DayRange,
): string {
  const query = { ...link.query };
  const own = typeof query.start === 'string' && typeof query.end === 'string';
  const covers = reader && week && reader.start <= week.start && reader.end >= week.end;
  if (reader && (!own || (covers && link.path !== '/users'))) {
    query.start = reader.start;
    query.end = reader.end;
  }
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  const q = p.toString();
  return q ? `${link.path}?${q}` : link.path;
}
