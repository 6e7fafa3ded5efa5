/**
 * The users table's queries to the server's store (it merges, sorts, filters and pages), apart from
 * the rest of the page: the app asks for the opening page's first rows while the page's own code is
 * still loading, so this file is small and in the first bundle.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClientConfig } from '../../api/schemas';
import { USERS_PATHS, usersTableSchema } from '../../api/users';
import { getWithLists, listQueryString } from '../../data/client';
import { parseSort, type SortState } from '../../data/search';
import type { DayRange } from '../../lib/dates';
import { isUserColumn } from '../../lib/user-merge';

/** Rows per request of the server's table: a few screens of rows, a small answer. */
export const TABLE_PAGE = 200;

/** Most credits first, until the reader sorts otherwise. */
export const DEFAULT_SORT: SortState = { column: 'credits', dir: 'desc' };

export interface TableParams {
  range: DayRange;
  sort: SortState;
  q: string;
  delegation: string;
  tier: string;
  lang: string;
  /** The teams whose members the table is limited to (sorted); empty for the whole organization. */
  teams: readonly string[];
}

/** The URL's sort if the table has that column (spend only with a price list: an old link may carry it). */
export function usersSortOf(sort: SortState | null, currency: string | null): SortState {
  return sort && isUserColumn(sort.column) && (sort.column !== 'spend' || currency !== null) ? sort : DEFAULT_SORT;
}

/** Asked again every second while the server is still filling the range from the service. */
const FILL_POLL_MS = 1000;
export const whileFilling = (data: { complete: boolean } | undefined) =>
  data?.complete === false ? FILL_POLL_MS : false;

const tableQuery = (p: TableParams) => ({
  start: p.range.start,
  end: p.range.end,
  sort: p.sort.column,
  dir: p.sort.dir,
  q: p.q.trim(),
  delegation: p.delegation,
  tier: p.tier,
  lang: p.lang,
  team: p.teams,
});

/** The address of the server's CSV of the same table (the server holds the key: nothing secret in it). */
export function usersCsvHref(p: TableParams): string {
  return `${USERS_PATHS.csv}${listQueryString(tableQuery(p))}`;
}

/** One page of the merged table, sorted, filtered and searched by the server. */
export const usersTablePageQuery = (p: TableParams, page: number) =>
  queryOptions({
    queryKey: ['users', 'table', tableQuery(p), page],
    queryFn: ({ signal }) =>
      getWithLists(
        USERS_PATHS.table,
        usersTableSchema,
        { ...tableQuery(p), offset: page * TABLE_PAGE, limit: TABLE_PAGE },
        signal,
      ),
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
  const p: TableParams = {
    range,
    sort: usersSortOf(parseSort(params.get('usersSort')), config.currency),
    q: (params.get('q') ?? '').trim(),
    delegation: params.get('delegation') ?? '',
    tier: params.get('tier') ?? '',
    lang: params.get('lang') ?? '',
    teams,
  };
  return client.prefetchQuery(usersTablePageQuery(p, 0));
}
