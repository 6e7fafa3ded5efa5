/**
 * The URL is the dashboard's state. Its search parameters are parsed once, by
 * one schema with defaults (a missing or malformed value falls back to its
 * default, so a hand-edited link never breaks a page), and every link is built
 * by `linkTo`, which carries the parameters that follow the reader from page
 * to page. A new parameter is one line in `searchSchema` (and one in
 * `CARRIED` if it travels; one in `LISTS` if the URL may repeat it).
 */
import { useCallback, useContext, useMemo } from 'react';
import { UNSAFE_NavigationContext, useSearchParams, type Location } from 'react-router-dom';
import * as z from 'zod/mini';
import { RECONCILED } from '../api/reconciliation';
import { isDay, type Day, type DayRange } from '../lib/dates';
import type { Interval } from '../lib/series';
import { sortSchema, type SortState } from '../lib/sort';
import { WHO } from '../lib/user-columns';
import { rangeFrom, rangeParams } from '../lib/url-state';
import { useAppConfig } from './config';
import { effectiveTeams, useMe } from './me';

const text = z.catch(z.string(), '');
const choice = <const T extends readonly [string, ...string[]]>(values: T, dflt: T[number]) =>
  z.catch(z.enum(values), dflt);
const day = z.catch(z.optional(z.custom<Day>(isDay)), undefined);

/**
 * Team paths as the URL may give them (`?team=Sales/EMEA&team=Engineering`): trimmed, blanks dropped,
 * each once, sorted, so one selection has one spelling (and one cache entry).
 */
export function normalizeTeams(teams: readonly string[]): string[] {
  return [...new Set(teams.map((t) => t.trim()).filter(Boolean))].sort();
}
const teamList = z.catch(
  z.pipe(
    z.array(z.string()),
    z.transform((teams: string[]) => normalizeTeams(teams)),
  ),
  [],
);

export const INTERVALS = ['day', 'week'] as const satisfies readonly Interval[];
export const READINESS_PERIODS = ['7d', '1m', '6m', '1y', 'all'] as const;
export type ReadinessPeriod = (typeof READINESS_PERIODS)[number];

export const searchSchema = z.object({
  // The analytics range (defaults and clamping need the latest day: see `useRange`).
  start: day,
  end: day,
  /** Daily or weekly points, shared by every chart of a page. */
  interval: choice(INTERVALS, 'day'),
  /** Saturdays and Sundays (UTC) drawn on the daily charts, or left out of them (the totals count every day). */
  weekends: choice(['show', 'hide'], 'show'),
  /** Tool servers whose names differ only in case: merged or as the service spells them. */
  servers: choice(['merged', 'split'], 'merged'),
  /** A repository's scorecard grouped by level or by pillar. */
  group: choice(['level', 'pillar'], 'level'),
  /** The readiness overview's period. */
  period: choice(READINESS_PERIODS, '6m'),
  /** A repository's criteria: every one, or the failed ones only. */
  criteria: choice(['all', 'failed'], 'all'),
  /** A repository's earlier report. */
  report: text,
  /** Free-text search and the users page's filters and columns. */
  q: text,
  delegation: text,
  tier: text,
  lang: text,
  cols: text,
  /** A team's outcome ratios per week: credits (or spend) per commit, per pull request or per active person. */
  per: choice(['commit', 'pr', 'person'], 'commit'),
  amount: choice(['credits', 'spend'], 'credits'),
  /** The figure the reconciliation sets beside the service's. */
  figure: choice(RECONCILED, 'credits'),
  /** The users table's people: active in the range, not active, or everyone known. */
  who: choice(WHO, 'active'),
  /** The teams the figures are limited to (a team includes its sub-teams); none is the whole organization. */
  team: teamList,
});

export type Search = z.infer<typeof searchSchema>;
export type SearchKey = keyof Search;

/**
 * What every link keeps from the current URL: the reader's range, teams and choice of weekends on the daily
 * charts follow them from page to page.
 */
export const CARRIED: readonly SearchKey[] = ['start', 'end', 'team', 'weekends'];

/** The parameters the URL may repeat, read as lists (every value, not only the first). */
const LISTS: ReadonlySet<SearchKey> = new Set<SearchKey>(['team']);

export function parseSearch(params: URLSearchParams): Search {
  const raw: Record<string, string | string[]> = {};
  for (const k of Object.keys(searchSchema.def.shape) as SearchKey[]) {
    if (LISTS.has(k)) {
      const all = params.getAll(k);
      if (all.length) raw[k] = all;
      continue;
    }
    const v = params.get(k);
    if (v !== null) raw[k] = v;
  }
  return searchSchema.parse(raw);
}

export const SEARCH_DEFAULTS: Search = parseSearch(new URLSearchParams());

/**
 * A copy of the parameters with the patch applied; a default value (or an empty list) leaves its
 * parameter out, and a list is written as one parameter per value.
 */
export function writeSearch(params: URLSearchParams, patch: Partial<Search>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(patch) as [SearchKey, Search[SearchKey]][]) {
    next.delete(k);
    if (typeof v === 'object') for (const x of v) next.append(k, x);
    else if (v !== undefined && v !== '' && v !== SEARCH_DEFAULTS[k]) next.set(k, v);
  }
  return next;
}

/** The link to a page: the carried parameters of the current URL (every value of each), then the given ones. */
export function linkTo(path: string, current: URLSearchParams, extra: Partial<Search> = {}): string {
  const keep = new URLSearchParams();
  for (const k of CARRIED) {
    for (const v of current.getAll(k)) if (v) keep.append(k, v);
  }
  const s = writeSearch(keep, extra).toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The one writer of the URL's search parameters: `update` gets the parameters of the latest location, the
 * one most recently navigated to, rendered or not, and its result is pushed (or, with `replace`, replaces
 * the current entry) at that location's path.
 *
 * Not React Router's `setSearchParams(fn)`: that hands `fn` the parameters of the last *rendered* location,
 * and v7 renders every navigation inside a transition, so a write made before the previous one's render
 * commits (a table sorted while a newly chosen range still renders; two patches in one handler) started from
 * the older URL and undid the previous write. The routers the app renders in (BrowserRouter, and
 * MemoryRouter in tests) give their history as the navigator, and a history's `location` changes as soon as
 * it is pushed to. Its path already holds the basename, so it goes back to the history as it is. Like
 * `setSearchParams`, a write keeps no hash and no history state.
 */
function useWriteSearch() {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback(
    (update: (latest: URLSearchParams) => URLSearchParams, opts?: { replace?: boolean }) => {
      const { location } = navigator as { location?: Location };
      if (!location) throw new Error('URL state needs a BrowserRouter or MemoryRouter (a router with a history)');
      const to = { pathname: location.pathname, search: `?${update(new URLSearchParams(location.search))}` };
      if (opts?.replace) navigator.replace(to);
      else navigator.push(to);
    },
    [navigator],
  );
}

/** The parsed search parameters, and a setter that patches them. */
export function useSearch() {
  const [params] = useSearchParams();
  const write = useWriteSearch();
  const search = useMemo(() => parseSearch(params), [params]);
  const patch = useCallback(
    (p: Partial<Search>, opts?: { replace?: boolean }) => write((cur) => writeSearch(cur, p), opts),
    [write],
  );
  return [search, patch, params] as const;
}

/**
 * One parameter and its setter. Choices (interval, grouping) add a history
 * entry; free text and filters replace the current one, so Back does not step
 * through every keystroke.
 */
export function useSearchParam<K extends SearchKey>(name: K) {
  const [search, patch] = useSearch();
  const set = useCallback(
    (v: Search[K]) => patch({ [name]: v } as Partial<Search>, { replace: TYPED.has(name) }),
    [patch, name],
  );
  return [search[name], set] as const;
}
const TYPED = new Set<SearchKey>(['q', 'delegation', 'tier', 'lang', 'cols']);

/** A link builder bound to the current URL. */
export function useLinkTo() {
  const [params] = useSearchParams();
  return useCallback((path: string, extra?: Partial<Search>) => linkTo(path, params, extra), [params]);
}

const NO_TEAMS: readonly string[] = [];

/**
 * The teams the analytics pages are limited to (sorted; empty for the whole organization), and a
 * setter; choosing teams adds a history entry, so Back returns to the previous selection. Only a
 * server that keeps a store knows teams: without one, a `team` in the URL is ignored.
 */
export function useTeams() {
  const { teams: supported, signIn } = useAppConfig();
  const me = useMe(signIn);
  const [search, patch] = useSearch();
  // A manager who may not see the organization's figures sees their own teams' by default.
  const teams: readonly string[] = supported ? effectiveTeams(me, search.team) : NO_TEAMS;
  const setTeams = useCallback((t: readonly string[]) => patch({ team: normalizeTeams(t) }), [patch]);
  return [teams, setTeams] as const;
}

/** The teams a URL's search parameters name, as `useTeams` reads them (for prefetching outside React). */
export function parseTeams(params: URLSearchParams, config: { teams: boolean }): readonly string[] {
  return config.teams ? teamList.parse(params.getAll('team')) : NO_TEAMS;
}

/**
 * What a download's file name says of the teams its figures are for: '' for the whole organization,
 * `-engineering-platform` for one team, `-3-teams` for several.
 */
export function teamsFileTag(teams: readonly string[]): string {
  if (teams.length === 0) return '';
  if (teams.length > 1) return `-${teams.length}-teams`;
  const slug = teams[0]!
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  return `-${slug || 'team'}`;
}

/** The global date range, kept in the URL. */
export function useRange() {
  const { latestDay } = useAppConfig();
  const [search, patch] = useSearch();
  const range = useMemo(() => rangeFrom(search.start, search.end, latestDay), [search.start, search.end, latestDay]);
  const setRange = useCallback((r: DayRange) => patch(rangeParams(r, latestDay)), [patch, latestDay]);
  return { range, setRange, latestDay };
}

export { parseSort, type SortDir, type SortState } from '../lib/sort';

/**
 * A table's sort as `<table>Sort=column:dir` in the URL (one parameter per table, named by its id); set to null, the
 * table's own order again, whatever its default is by then.
 */
export function useSortParam(table: string, dflt: SortState) {
  const [params] = useSearchParams();
  const write = useWriteSearch();
  const name = `${table}Sort`;
  const raw = params.get(name);
  const parsed = useMemo(() => sortSchema.parse(raw), [raw]);
  const sort = parsed ?? dflt;
  const setSort = useCallback(
    (s: SortState | null) =>
      write(
        (p) => {
          const n = new URLSearchParams(p);
          if (s === null || (s.column === dflt.column && s.dir === dflt.dir)) n.delete(name);
          else n.set(name, `${s.column}:${s.dir}`);
          return n;
        },
        { replace: true },
      ),
    [write, name, dflt.column, dflt.dir],
  );
  return [sort, setSort] as const;
}
