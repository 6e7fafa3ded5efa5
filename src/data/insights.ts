import { queryOptions } from '@tanstack/react-query';
import { INSIGHTS_PATHS, cohortsSchema, highlightsSchema } from '../api/insights';
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

/** A highlight's link as an address in the app. */
export function highlightHref(link: { path: string; query: Record<string, string | string[]> }): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(link.query)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  const q = p.toString();
  return q ? `${link.path}?${q}` : link.path;
}
