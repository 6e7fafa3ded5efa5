import { experimental_streamedQuery as streamedQuery, queryOptions } from '@tanstack/react-query';
import { walkReadinessReports } from '../../api/paginate';
import type { ReadinessReport } from '../../api/schemas';
import { api } from '../../data/client';
import { addReports, type ScoredReport } from './history';

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
