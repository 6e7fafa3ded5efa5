/**
 * The users table's queries to the server's store (it merges, sorts, filters and pages), apart from
 * the rest of the page: the app asks for the opening page's first rows while the page's own code is
 * still loading, so this file is small and in the first bundle.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClientConfig } from '../../api/schemas';
import { USERS_PATHS, usersTableSchema } from '../../api/users';
import { usersTablePageHref, usersTableParams, usersTableQuery, type TableParams } from '../../api/users-table-query';
import { atBase } from '../../data/base';
import { api, listQueryString } from '../../data/client';
import type { DayRange } from '../../lib/dates';

export { DEFAULT_SORT, defaultSortOf, TABLE_PAGE, usersSortOf, type TableParams } from '../../api/users-table-query';

/** Asked again every second while the server is still filling the range from the service. */
const FILL_POLL_MS = 1000;
export const whileFilling = (data: { complete: boolean } | undefined) =>
  data?.complete === false ? FILL_POLL_MS : false;

/** The address of the server's CSV of the same table (the server holds the key: nothing secret in it). */
export function usersCsvHref(p: TableParams): string {
  return atBase(`${USERS_PATHS.csv}${listQueryString(usersTableQuery(p))}`);
}

/** One page of the merged table, sorted, filtered and searched by the server. */
export const usersTablePageQuery = (p: TableParams, page: number) =>
  queryOptions({
    queryKey: ['users', 'table', usersTableQuery(p), page],
    queryFn: ({ signal }) =>
      // The address the server preloads with the page for its first rows (users-table-query.ts).
      api.get(usersTablePageHref(p, page), usersTableSchema, undefined, signal),
    refetchInterval: (q) => whileFilling(q.state.data),
  });

/**
 * The users page's first rows, as the page will ask for them from its URL, when the server keeps a
 * store (with keys brought by each reader the page walks `/users` itself, on arrival).
 */
export function prefetchUsersPage(
  client: QueryClient,
  range: DayRange,
  teams: readonly string[] = [],
  params: URLSearchParams = new URLSearchParams(),
  config?: ClientConfig,
): Promise<unknown> {
  if (!config || config.keyRequired) return Promise.resolve();
  const p = usersTableParams(range, teams, params, config.currency);
  return client.prefetchQuery(usersTablePageQuery(p, 0));
}
