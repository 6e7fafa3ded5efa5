/**
 * What the users page asks the server for, from its URL: the SPA builds its queries with it, and the
 * server its preload of the page's first rows (sent with the page, so the answer is on its way while
 * the app's code loads). Both must write the same address, or the browser would ask twice.
 */
import type { DayRange } from '../lib/dates';
import { parseSort, type SortState } from '../lib/sort';
import { isUserColumn, WHO, type Who } from '../lib/user-columns';
import { listQueryString } from './client';
import { USERS_PATHS } from './users';

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
  /** Active people (the default), the known people not active in the range, or both. */
  who: Who;
  /** The teams whose members the table is limited to (sorted); empty for the whole organization. */
  teams: readonly string[];
}

/** The people not active in the range have no figures to sort by: the most recently active first. */
export const INACTIVE_SORT: SortState = { column: 'lastActiveDay', dir: 'desc' };
/** The people who never used the agent have no day either: by name. */
export const NEVER_SORT: SortState = { column: 'user', dir: 'asc' };

/**
 * The order of a list until the reader sorts it: the seats' lists and the people not active by their last active
 * day, those who never used the agent by name (`pseudonymous`: in privacy mode, by pseudonym, as the server orders
 * ties: it sorts by no person).
 */
export const defaultSortOf = (who: Who, pseudonymous = false): SortState =>
  who === 'active' || who === 'all' ? DEFAULT_SORT : who === 'never' && !pseudonymous ? NEVER_SORT : INACTIVE_SORT;

/** The URL's sort if the table has that column (spend only with a price list: an old link may carry it). */
export function usersSortOf(
  sort: SortState | null,
  currency: string | null,
  who: Who = 'active',
  pseudonymous = false,
): SortState {
  return sort &&
    isUserColumn(sort.column) &&
    (sort.column !== 'spend' || currency !== null) &&
    !(pseudonymous && sort.column === 'user')
    ? sort
    : defaultSortOf(who, pseudonymous);
}

/** The table's parameters as the page reads them from its URL (the range and teams read already). */
export function usersTableParams(
  range: DayRange,
  teams: readonly string[],
  params: URLSearchParams,
  currency: string | null,
): TableParams {
  const who = WHO.find((w) => w === params.get('who')) ?? 'active';
  return {
    range,
    sort: usersSortOf(parseSort(params.get('usersSort')), currency, who),
    q: (params.get('q') ?? '').trim(),
    delegation: params.get('delegation') ?? '',
    tier: params.get('tier') ?? '',
    lang: params.get('lang') ?? '',
    who,
    teams,
  };
}

/** The server's query for the table (the same for its pages and its CSV). */
export const usersTableQuery = (p: TableParams) => ({
  start: p.range.start,
  end: p.range.end,
  sort: p.sort.column,
  dir: p.sort.dir,
  q: p.q.trim(),
  delegation: p.delegation,
  tier: p.tier,
  lang: p.lang,
  // Left out for the default: the address the server preloads stays the one the page asks for.
  who: p.who === 'active' ? undefined : p.who,
  team: p.teams,
});

/** The address of one page of the table. */
export const usersTablePageHref = (p: TableParams, page: number): string =>
  `${USERS_PATHS.table}${listQueryString({ ...usersTableQuery(p), offset: page * TABLE_PAGE, limit: TABLE_PAGE })}`;
