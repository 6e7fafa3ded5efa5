import { experimental_streamedQuery as streamedQuery, queryOptions, useQuery } from '@tanstack/react-query';
import { walkReadinessReports } from '../../api/paginate';
import { READINESS_STALE_DAYS, type ReadinessAnswer } from '../../api/readiness';
import type { ReadinessReport } from '../../api/schemas';
import { api } from '../../data/client';
import { readinessByTeamQuery } from '../../data/teams';
import { repoKey } from '../../lib/repos';
import { addReports, histories, type RepoHistory, type ScoredReport } from './history';

export interface ReportsWalk {
  /** Scored reports per normalized repository URL, in arrival order. */
  byRepo: Map<string, ScoredReport[]>;
  reports: number;
  pages: number;
  complete: boolean;
}

const PAGE = 100;
const EMPTY: ReportsWalk = { byRepo: new Map(), reports: 0, pages: 0, complete: false };

/** Each page is grouped and scored once, as it arrives; nothing is recomputed for earlier pages. */
function addPage(acc: ReportsWalk, page: ReadinessReport[]): ReportsWalk {
  const byRepo = addReports(acc.pages === 0 ? new Map() : acc.byRepo, page);
  return { byRepo, reports: acc.reports + page.length, pages: acc.pages + 1, complete: page.length < PAGE };
}

/** Every report of the organization, page by page, so progress shows while they load. */
export const allReportsQuery = () =>
  queryOptions({
    queryKey: ['readiness', 'all'],
    queryFn: streamedQuery({
      streamFn: ({ signal }) => walkReadinessReports(api, { limit: PAGE }, { signal }),
      reducer: addPage,
      initialValue: EMPTY,
    }),
    // The walk's state is rebuilt page by page; comparing it deeply on every page would cost more than it saves.
    structuralSharing: false,
    // Reports arrive during the day: read them again after a few minutes.
    staleTime: 5 * 60_000,
  });

/**
 * The repositories' histories of an answer, each repository's owning team by its key, and the days after which its
 * latest report is stale (where the answer says).
 */
export function fromAnswer(a: ReadinessAnswer) {
  const owners = new Map(a.repos.map((r) => [r.key, r.team]));
  const staleAfter = new Map(a.repos.flatMap((r) => (r.staleAfter === undefined ? [] : [[r.key, r.staleAfter]])));
  return { histories: histories(addReports(new Map(), a.reports)), owners, staleAfter, ownership: a.ownership };
}

/**
 * The days after which a repository's latest report is stale (by its history's key): the server's answer says it
 * by the alert rules covering the repository; without it (no store, so no rules), the default.
 */
export const staleAfterOf = (staleAfter: ReadonlyMap<string, number> | undefined, historyKey: string) =>
  staleAfter?.get(repoKey(historyKey)) ?? READINESS_STALE_DAYS;

export interface RepoList {
  /** Undefined while loading. */
  list: RepoHistory[] | undefined;
  /** Owning team by `host/owner/name`; undefined without teams on the server (or while loading). */
  owners: ReadonlyMap<string, string | null> | undefined;
  /** Days after which each repository's latest report is stale, by `host/owner/name` (staleAfterOf). */
  staleAfter: ReadonlyMap<string, number> | undefined;
  ownership: boolean | undefined;
  /** The page-by-page walk of the service's reports (a server without a store), for its progress. */
  walk: ReportsWalk | undefined;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

const selectHistories = (w: ReportsWalk) => histories(w.byRepo);

/**
 * The repositories the readiness pages show. A server that keeps a store (and with it teams) answers
 * `/api/readiness` from its stored reports: every report and each repository's owning team in one answer
 * (of the chosen teams' repositories, or of every one), one request instead of a walk of the reports page
 * by page followed by the same reports again for their owners. Without a store, every repository's reports
 * are walked page by page from the service's readiness path, so progress shows while they load.
 */
export function useRepoList(teams: readonly string[], withTeams: boolean): RepoList {
  const walk = useQuery({ ...allReportsQuery(), enabled: !withTeams });
  const all = useQuery({ ...allReportsQuery(), select: selectHistories, enabled: !withTeams });
  const owned = useQuery({ ...readinessByTeamQuery(withTeams ? teams : []), select: fromAnswer, enabled: withTeams });
  if (withTeams) {
    return {
      list: owned.data?.histories,
      owners: owned.data?.owners,
      staleAfter: owned.data?.staleAfter,
      ownership: owned.data?.ownership,
      walk: undefined,
      error: owned.error,
      isFetching: owned.isFetching,
      refetch: owned.refetch,
    };
  }
  return {
    list: all.data,
    owners: undefined,
    staleAfter: undefined,
    ownership: undefined,
    walk: walk.data,
    error: all.error,
    isFetching: walk.isFetching,
    refetch: all.refetch,
  };
}
