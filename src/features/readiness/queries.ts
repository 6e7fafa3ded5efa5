import { experimental_streamedQuery as streamedQuery, queryOptions, useQuery } from '@tanstack/react-query';
import { walkReadinessReports } from '../../api/paginate';
import type { ReadinessAnswer } from '../../api/readiness';
import type { ReadinessReport } from '../../api/schemas';
import { api } from '../../data/client';
import { readinessByTeamQuery } from '../../data/teams';
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

/** The repositories' histories of an answer, and each repository's owning team by its key. */
export function fromAnswer(a: ReadinessAnswer) {
  const owners = new Map(a.repos.map((r) => [r.key, r.team]));
  return { histories: histories(addReports(new Map(), a.reports)), owners, ownership: a.ownership };
}

export interface RepoList {
  /** Undefined while loading. */
  list: RepoHistory[] | undefined;
  /** Owning team by `host/owner/name`; undefined without teams on the server (or while loading). */
  owners: ReadonlyMap<string, string | null> | undefined;
  ownership: boolean | undefined;
  /** How asking for the owners went (the organization's view asks for them apart from the reports). */
  ownersStatus: { error: unknown; isFetching: boolean; refetch: () => unknown };
  walk: ReportsWalk | undefined;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

const selectHistories = (w: ReportsWalk) => histories(w.byRepo);

/**
 * The repositories the readiness pages show: with teams chosen, those teams' (from the server's
 * `/api/readiness`); else every repository, walked page by page from the service's readiness path, with
 * the owners from `/api/readiness` when the server knows teams.
 */
export function useRepoList(teams: readonly string[], withTeams: boolean): RepoList {
  const byTeam = teams.length > 0 && withTeams;
  const walk = useQuery({ ...allReportsQuery(), enabled: !byTeam });
  const all = useQuery({ ...allReportsQuery(), select: selectHistories, enabled: !byTeam });
  // Every repository's owner is asked for once the walk is complete: not beside it (the same reports, twice at once).
  const owned = useQuery({
    ...readinessByTeamQuery(byTeam ? teams : []),
    select: fromAnswer,
    enabled: withTeams && (byTeam || walk.data?.complete === true),
  });
  if (byTeam) {
    return {
      list: owned.data?.histories,
      owners: owned.data?.owners,
      ownership: owned.data?.ownership,
      ownersStatus: owned,
      walk: undefined,
      error: owned.error,
      isFetching: owned.isFetching,
      refetch: owned.refetch,
    };
  }
  return {
    list: all.data,
    owners: owned.data?.owners,
    ownership: owned.data?.ownership,
    ownersStatus: owned,
    walk: walk.data,
    error: all.error,
    isFetching: walk.isFetching,
    refetch: all.refetch,
  };
}
