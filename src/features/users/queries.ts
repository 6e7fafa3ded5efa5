import { experimental_streamedQuery as streamedQuery, queryOptions } from '@tanstack/react-query';
import { walkUsers } from '../../api/paginate';
import type { UserRow, UsersResponse } from '../../api/schemas';
import { api } from '../../data/client';
import type { DayRange } from '../../lib/dates';
import { UserMerger, type MergedUser } from './merge';

export interface UsersWalk {
  /** One row per user; the per-day rows are not kept. */
  users: MergedUser[];
  pages: number;
  /** True once the service said there was no further page. */
  complete: boolean;
  merger: UserMerger | null;
}

const EMPTY_WALK: UsersWalk = { users: [], pages: 0, complete: false, merger: null };

function addPage(acc: UsersWalk, page: UsersResponse): UsersWalk {
  const merger = acc.merger ?? new UserMerger();
  merger.add(page.data);
  return { users: merger.result(), pages: acc.pages + 1, complete: !page.meta.has_more, merger };
}

/**
 * Walks `/users` for the range, 100 users a page, merging each page as it
 * arrives: the table fills in while the walk goes on, and leaving the range
 * aborts the walk in flight.
 */
export const mergedUsersQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['users', 'merged', { startDate: r.start, endDate: r.end }],
    queryFn: streamedQuery({
      streamFn: ({ signal }) => walkUsers(api, { startDate: r.start, endDate: r.end, limit: 100 }, { signal }),
      reducer: addPage,
      initialValue: EMPTY_WALK,
    }),
    // Rebuilt page by page; a deep comparison on every page would cost more than it saves.
    structuralSharing: false,
  });

/**
 * One user's daily rows. The service has no user filter, so this walks the
 * pages and keeps only that user's rows.
 */
export const userRowsQuery = (userId: string, r: DayRange) =>
  queryOptions({
    queryKey: ['users', 'rows', userId, { startDate: r.start, endDate: r.end }],
    queryFn: async ({ signal }) => {
      const rows: UserRow[] = [];
      for await (const page of walkUsers(api, { startDate: r.start, endDate: r.end, limit: 100 }, { signal })) {
        for (const row of page.data) if (row.user_id === userId) rows.push(row);
      }
      return rows.sort((a, b) => a.date.localeCompare(b.date));
    },
  });
