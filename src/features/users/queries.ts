import { experimental_streamedQuery as streamedQuery, queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import { walkUsers } from '../../api/paginate';
import type { UserRow, UsersResponse } from '../../api/schemas';
import { USERS_PATHS, userDaysSchema, type FillProgress } from '../../api/users';
import { api } from '../../data/client';
import type { DayRange } from '../../lib/dates';
import { UserMerger, mergeUserRows, type MergedUser } from '../../lib/user-merge';

// ---- With a store on the server: its users endpoints ----------------------------------------------

export { TABLE_PAGE, usersCsvHref, usersTablePageQuery, type TableParams } from './table-query';
import { whileFilling } from './table-query';

export interface UserDays {
  days: UserRow[];
  user: MergedUser | null;
  /** False while the server is still filling the range (asked again every second). */
  complete: boolean;
  progress?: FillProgress;
  /** The server's store has never seen this user. */
  unknown?: boolean;
}

/** One user's days and their merge: from the server's store, or (each reader bringing a key) a walk. */
export const userDaysQuery = (userId: string, r: DayRange, fromStore: boolean) =>
  queryOptions({
    queryKey: ['users', fromStore ? 'days' : 'rows', userId, { startDate: r.start, endDate: r.end }],
    queryFn: async ({ signal }): Promise<UserDays> => {
      if (!fromStore) {
        const days = await walkUserRows(userId, r.start, r.end, signal);
        return { days, user: mergeUserRows(days)[0] ?? null, complete: true };
      }
      try {
        return await api.get(USERS_PATHS.user(userId), userDaysSchema, { start: r.start, end: r.end }, signal);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return { days: [], user: null, complete: true, unknown: true };
        throw e;
      }
    },
    refetchInterval: (q) => whileFilling(q.state.data),
  });

// ---- Each reader bringing a key: the browser walks `/users` ---------------------------------------

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

/** One user's daily rows. The service has no user filter, so this walks the pages and keeps only that user's rows. */
async function walkUserRows(userId: string, startDate: string, endDate: string, signal: AbortSignal) {
  const rows: UserRow[] = [];
  for await (const page of walkUsers(api, { startDate, endDate, limit: 100 }, { signal })) {
    for (const row of page.data) if (row.user_id === userId) rows.push(row);
  }
  return rows.sort((a, b) => a.date.localeCompare(b.date));
}
