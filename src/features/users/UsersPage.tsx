import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DELEGATION_LEVELS } from '../../api/schemas';
import { useAppConfig } from '../../data/config';
import { usePseudonymous } from '../../data/me';
import { teamsFileTag, useLinkTo, useRange, useSearchParam, useSortParam, useTeams } from '../../data/search';
import { PageHeader } from '../../components/Page';
import { VirtualTable } from '../../components/VirtualTable';
import { Widget } from '../../components/Widget';
import { Loading } from '../../components/states';
import { Defined } from '../../components/Definition';
import { DEFINITIONS } from '../../lib/definitions';
import { daysBetween } from '../../lib/dates';
import { formatExact } from '../../lib/format';
import type { UsersTableAnswer } from '../../api/users';
import { facetValues, filterUsers, type UserFacets, type Who } from '../../lib/user-merge';
import { isSeatList, isUnusedList, WHO_FILE_TAG, type SeatList } from '../../lib/user-columns';
import { Segmented } from '../../components/Segmented';
import { DEFAULT_COLUMNS, DEFAULT_SORT, IDLE_COLUMNS, userColumns, usersCsv } from './columns';
import { mergedUsersQuery, usersCsvHref, usersTablePageQuery, type UsersWalk } from './queries';
import { defaultSortOf, usersSortOf } from './table-query';
import { StoredUsersTable } from './StoredUsersTable';
import { newStarters, SEATS, SeatsView } from './Seats';
import { withList } from './place';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'One row per person over the range: the people active in it. With the dashboard’s store, Not active lists the known people with no day of activity in it, each with their last active day (unused access), and Everyone known both.',
  'With a team mapping, Seats counts the people it names: active in the range, inactive for 7 or 30 days to its end, and never used (named, but no day of activity by then). Each count opens its list, exportable as CSV.',
  'New starters in their days of grace after access (14 by default) are new, not lagging behind: Not active and the inactive and never used seats leave them out, and say how many.',
  'Search, filters, sort and the columns shown live in the address, so a link opens the same view; the CSV holds every column, whatever is shown.',
  'Open a person for their days: credits, models, tool calls and sessions, day by day.',
];

const TITLE = 'Users';
const CAPTION = 'Users active in the range';
const CAPTIONS: Record<Who, string> = {
  active: CAPTION,
  inactive: 'Known people not active in the range',
  all: 'Everyone known by the range’s end',
  named: 'People the mapping names',
  'named-active': 'People the mapping names, active in the range',
  'idle-7': 'People the mapping names, inactive 7 days',
  'idle-30': 'People the mapping names, inactive 30 days',
  never: 'People the mapping names who never used the agent',
};
/** What a seats' list's status line calls its people ("3 of 3 people who never used the agent"). */
const SEAT_PEOPLE: Record<SeatList, string> = {
  named: 'people the mapping names',
  'named-active': 'named people active in the range',
  'idle-7': 'named people inactive for the 7 days to the range’s end',
  'idle-30': 'named people inactive for the 30 days to the range’s end',
  never: 'named people who never used the agent by the range’s end',
};
const DESCRIPTION =
  "One row per user over the range, merged from the service's per-day rows. Tool calls per turn is weighted by user turns.";
/** What a list of people with no figures in the range is for: who they are, not what they did. */
const DESCRIPTIONS: Partial<Record<Who, string>> = {
  inactive:
    'Known people with no day of activity in the range, with the last day they used the agent: access left unused.',
  never:
    'The people the team mapping names with no day of activity and no credits by the range’s end: who to invite, or whose seat to free.',
};
const NO_FACETS: UserFacets = { delegation: [], tier: [], language: [] };

/**
 * One row per user over the range. When the server keeps a store (it holds
 * the key), it merges, sorts, filters and pages the table; when each reader
 * brings a key, the browser walks `/users` and does it all itself.
 */
export default function UsersPage() {
  const { keyRequired } = useAppConfig();
  return keyRequired ? <WalkedUsers /> : <StoredUsers />;
}

/** The search, the facet filters and the visible columns, all in the URL (`who`: the list, which decides its columns). */
function useUserFilters(
  currency: string | null = null,
  teams = false,
  known = false,
  who: Who = 'active',
  /** The range's days: a list inactive for at least as long has no day of activity in it either. */
  days = 0,
) {
  const [search, setSearch] = useSearchParam('q');
  const [delegation, setDelegation] = useSearchParam('delegation');
  const [tier, setTier] = useSearchParam('tier');
  const [language, setLanguage] = useSearchParam('lang');
  const [colsParam, setColsParam] = useSearchParam('cols');
  const linkTo = useLinkTo();
  const [params] = useSearchParams();
  const pseudonymous = usePseudonymous();
  // Those with no day of activity in the range have only who they are, their team and when they last used it.
  const idle =
    who === 'never'
      ? IDLE_COLUMNS.never
      : who === 'inactive' || (who === 'idle-7' && days <= 7) || (who === 'idle-30' && days <= 30)
        ? IDLE_COLUMNS.inactive
        : null;
  const allColumns = useMemo(
    () =>
      userColumns(
        // A person's page keeps the list as it is (its search, filters, sort), for the way back; someone never seen
        // has no page (no day to show).
        pseudonymous
          ? null
          : (u) =>
              u.userId === '' || who === 'never'
                ? null
                : withList(linkTo(`/users/${encodeURIComponent(u.userId)}`), params),
        currency,
        teams,
        known,
      ).filter((c) => !idle || idle.includes(c.id)),
    [linkTo, params, currency, teams, known, pseudonymous, who, idle],
  );
  const visible = useMemo(
    () => (idle ? [...idle] : colsParam ? colsParam.split(',') : DEFAULT_COLUMNS),
    [colsParam, idle],
  );
  const columns = useMemo(
    () => allColumns.filter((c) => c.id === 'user' || visible.includes(c.id)),
    [allColumns, visible],
  );
  return {
    pseudonymous,
    search,
    setSearch,
    delegation,
    setDelegation,
    tier,
    setTier,
    language,
    setLanguage,
    allColumns,
    visible,
    setColsParam,
    columns,
    /** A list whose people had no day of activity in the range: no figures to choose or filter by. */
    idle: idle !== null,
  };
}
type UserFilters = ReturnType<typeof useUserFilters>;

/**
 * The search, then the facet filters and the columns: from `md` up in one row; on a phone folded behind a
 * "Filters" button that counts the filters in force, so the table's first figures are on the first screen.
 */
function FilterBar({ f, facets }: { f: UserFilters; facets: UserFacets }) {
  const [open, setOpen] = useState(false);
  const active = [f.delegation, f.tier, f.language].filter(Boolean).length;
  const select = (label: string, value: string, set: (v: string) => void, values: readonly string[]) => (
    <label className="flex items-center gap-1 text-sm">
      <span className="text-fg-muted">{label}</span>
      <select
        aria-label={label}
        value={value}
        onChange={(e) => set(e.target.value)}
        className="rounded border border-line-strong px-2 py-1"
      >
        <option value="">All</option>
        {/* The URL's choice stays selectable before the values present are known. */}
        {value && !values.includes(value) && <option value={value}>{value}</option>}
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="flex min-w-0 flex-1 flex-col text-sm md:flex-none">
        <span className="text-fg-muted">Search by email or id</span>
        <input
          type="search"
          value={f.search}
          onChange={(e) => f.setSearch(e.target.value)}
          className="w-full rounded border border-line-strong px-2 py-1 disabled:opacity-60 md:w-64"
          placeholder={f.pseudonymous ? 'off in privacy mode' : 'name@company.com'}
          disabled={f.pseudonymous}
          aria-describedby={f.pseudonymous ? 'privacy-search' : undefined}
        />
        {f.pseudonymous && (
          <span id="privacy-search" className="text-xs text-fg-muted">
            People are pseudonymous in privacy mode: no search by email or id.
          </span>
        )}
      </label>
      <button
        type="button"
        hidden={f.idle}
        aria-expanded={open}
        aria-controls="user-filters"
        aria-label={active > 0 ? `Filters (${active} in force)` : 'Filters'}
        onClick={() => setOpen((o) => !o)}
        className="rounded border border-line-strong px-2.5 py-1 text-sm font-medium text-fg-soft md:hidden"
      >
        Filters
        {active > 0 && <span className="ml-1 rounded bg-accent px-1.5 text-xs text-fg-inverse">{active}</span>}
        <span aria-hidden className="ml-1 text-xs">
          {open ? '▴' : '▾'}
        </span>
      </button>
      <div
        id="user-filters"
        hidden={f.idle}
        className={`${open ? 'flex' : 'hidden'} w-full flex-wrap items-end gap-3 md:flex md:w-auto`}
      >
        {select(
          'Delegation',
          f.delegation,
          f.setDelegation,
          facets.delegation.length ? facets.delegation : DELEGATION_LEVELS,
        )}
        {select('Model tier', f.tier, f.setTier, facets.tier)}
        {select('Language', f.language, f.setLanguage, facets.language)}
        <details className="relative text-sm">
          <summary className="cursor-pointer rounded border border-line-strong px-2 py-1">Columns</summary>
          <fieldset className="absolute z-20 mt-1 grid w-64 gap-1 rounded border border-line bg-surface p-3 shadow-lg">
            <legend className="sr-only">Visible columns</legend>
            {f.allColumns
              .filter((c) => c.id !== 'user')
              .map((c) => (
                <label key={c.id} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={f.visible.includes(c.id)}
                    onChange={(e) => {
                      const next = e.target.checked ? [...f.visible, c.id] : f.visible.filter((x) => x !== c.id);
                      const ordered = f.allColumns.map((x) => x.id).filter((id) => next.includes(id));
                      const defaults = DEFAULT_COLUMNS.filter((id) => f.allColumns.some((x) => x.id === id));
                      f.setColsParam(ordered.join(',') === defaults.join(',') ? '' : ordered.join(','));
                    }}
                  />
                  {c.header}
                </label>
              ))}
          </fieldset>
        </details>
      </div>
    </div>
  );
}

function StatusLine({ children }: { children: React.ReactNode }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-wrap items-center gap-3 text-sm text-fg-muted">
      {children}
    </div>
  );
}

/** "115 of 115 people active in the range": those the search and filters keep, of the range's active people. */
// Privacy mode: a count of 1 to k−1 people comes as null, and is not said.
const activeLine = (shown: number, all: number | null) => (
  <Defined definition={DEFINITIONS.activePeople}>
    <span>
      {formatExact(shown)}
      {all !== null && ` of ${formatExact(all)}`} people active in the range
    </span>
  </Defined>
);

type Counted = Pick<UsersTableAnswer, 'activeUsers' | 'inactiveUsers' | 'seats' | 'grace'>;

/** Everyone known: the active, the not active and the new starters in grace Not active leaves out, when all are given. */
const everyone = (d: Pick<Counted, 'activeUsers' | 'inactiveUsers' | 'grace'>) => {
  const grace = d.grace ? d.grace.inactive : 0;
  return d.activeUsers !== null && d.inactiveUsers !== null && grace !== null
    ? d.activeUsers + d.inactiveUsers + grace
    : null;
};
/** Whether a count says some people (null: a few, withheld). */
const some = (n: number | null | undefined) => n !== undefined && n !== 0;

/** "Active in the range (116)", "Not active (34)", "Everyone (150)": the counts once the server has said them. */
function whoOptions(d: (Counted & { complete: boolean }) | undefined) {
  const n = (x: number | null | undefined) => (d?.complete && x != null ? ` (${formatExact(x)})` : '');
  // On a phone the three fit one line: "Active (116)", "Not active (34)", "Everyone (150)".
  const more = (words: string) => <span className="max-sm:hidden">{words}</span>;
  return [
    {
      id: 'active' as const,
      label: (
        <>
          Active {more('in the range')}
          {n(d?.activeUsers)}
        </>
      ),
    },
    { id: 'inactive' as const, label: `Not active${n(d?.inactiveUsers)}` },
    {
      id: 'all' as const,
      label: (
        <>
          Everyone {more('known')}
          {n(d && everyone(d))}
        </>
      ),
    },
  ];
}

/** A seats' list's count of its people, the definition it goes with. */
const seatOf = (list: SeatList) => SEATS.find((s) => s.id === list)!;

/** "34 of 34 people not active in the range", "150 of 150 known people", "3 of 3 named people who never used…". */
const listedLine = (shown: number, who: Who, d: Counted) => {
  if (isSeatList(who)) {
    const of = d.seats?.[seatOf(who).count];
    return (
      <Defined definition={{ label: seatOf(who).label, meaning: seatOf(who).meaning }}>
        <span>
          {formatExact(shown)}
          {of != null && ` of ${formatExact(of)}`} {SEAT_PEOPLE[who]}
        </span>
      </Defined>
    );
  }
  const of = who === 'inactive' ? d.inactiveUsers : everyone(d);
  return (
    <Defined definition={who === 'inactive' ? DEFINITIONS.notActive : DEFINITIONS.knownPeople}>
      <span>
        {formatExact(shown)}
        {of !== null && ` of ${formatExact(of)}`}{' '}
        {who === 'inactive' ? 'known people not active in the range' : 'known people'}
      </span>
    </Defined>
  );
};

/**
 * How many new starters in grace a list of people not using the agent leaves out (null: withheld in privacy mode);
 * undefined for the other lists, or an answer without them.
 */
function graceLeftOut(who: Who, d: Counted | undefined): number | null | undefined {
  if (!d?.grace || !isUnusedList(who)) return undefined;
  if (who === 'inactive') return d.grace.inactive;
  return d.grace.seats?.[who === 'idle-7' ? 'idle7' : who === 'idle-30' ? 'idle30' : 'never'];
}

/** "3 new starters in their first 14 days are not listed": a list's people left out for grace. */
const graceLine = (n: number | null, days: number) => (
  <Defined definition={DEFINITIONS.newStarters}>
    <span>
      {newStarters(n, days)} {n === 1 ? 'is' : 'are'} not listed
    </span>
  </Defined>
);

/** Why a seats' list is empty: nobody of its kind, or the search leaves nobody. */
function seatsEmpty(list: SeatList, d: Counted | undefined, teams: readonly string[]): string {
  if (d?.seats?.[seatOf(list).count] !== 0) return 'No one matches the search.';
  const of = teams.length ? (teams.length > 1 ? ' in these teams' : ' in this team') : '';
  return {
    named: `The mapping names no one${of}.`,
    'named-active': `No one the mapping names${of} was active in this range.`,
    'idle-7': `Everyone the mapping names${of} who used the agent did so in the 7 days to the range’s end.`,
    'idle-30': `Everyone the mapping names${of} who used the agent did so in the 30 days to the range’s end.`,
    never: `Everyone the mapping names${of} had used the agent by the range’s end.`,
  }[list];
}

/** A value that follows `value` once it has stopped changing for `ms`: typing asks the server once. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** The table from the server's store: the server merges, sorts, filters, searches and pages it. */
function StoredUsers() {
  const { range } = useRange();
  const [teams] = useTeams();
  const { currency, teams: withTeams } = useAppConfig();
  const [who, setWho] = useSearchParam('who');
  const f = useUserFilters(currency, withTeams, true, who, daysBetween(range.start, range.end) + 1);
  const pseudonymous = f.pseudonymous;
  // The people not active in the range have no figures to sort by: most recently active first.
  const [sortParam, setSort] = useSortParam('users', defaultSortOf(who, pseudonymous));
  // Privacy mode: people are pseudonyms, not sorted by who they are (the server refuses it).
  const sort = usersSortOf(sortParam, currency, who, pseudonymous);
  // Another list opens in its own order, unless it has the same as this one (active people, everyone).
  const openList = useCallback(
    (next: Who) => {
      const before = defaultSortOf(who, pseudonymous);
      const after = defaultSortOf(next, pseudonymous);
      setWho(next);
      if (before.column !== after.column || before.dir !== after.dir) setSort(null);
    },
    [who, pseudonymous, setWho, setSort],
  );
  // Privacy mode: no search by email or id (the server refuses it), whatever the URL says.
  const q = useSettled(f.pseudonymous ? '' : f.search.trim(), 200);
  // A list of people with no day in the range has no facets to filter by: an old link's filter is not applied.
  const [delegation, tier, lang] = f.idle ? ['', '', ''] : [f.delegation, f.tier, f.language];
  const params = useMemo(
    () => ({ range, sort, q, delegation, tier, lang, who, teams }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the sort's fields, not its object
    [range, sort.column, sort.dir, q, delegation, tier, lang, who, teams],
  );
  const first = useQuery({ ...usersTablePageQuery(params, 0), placeholderData: keepPreviousData });
  const d = first.data;
  const facets = d ? { delegation: d.facets.delegation, tier: d.facets.tier, language: d.facets.lang } : NO_FACETS;
  const progress = d && !d.complete ? d.progress : undefined;
  const leftOut = graceLeftOut(who, d);

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={TITLE} teams={teams} howToRead={HOW_TO_READ} />
      {withTeams && d?.seats && <SeatsView seats={d.seats} grace={d.grace} who={who} onOpen={openList} teams={teams} />}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Segmented label="People listed" options={whoOptions(d)} value={who} onChange={openList} />
        {(who === 'inactive' || who === 'all') && (
          <Defined definition={DEFINITIONS.notActive}>
            <span className="text-fg-muted">Not active: known people with no day of activity in the range</span>
          </Defined>
        )}
      </div>
      <FilterBar f={f} facets={facets} />
      <StatusLine>
        {first.isPending && <span>Loading users…</span>}
        {progress && (
          <span>
            <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-accent" />
            Reading the users of this range from the service: {formatExact(progress.storedDays)} of{' '}
            {formatExact(progress.days)} days stored…
          </span>
        )}
        {d?.withheld && <span>{d.withheld.detail}</span>}
        {d?.complete &&
          !d.withheld &&
          (who === 'active' ? activeLine(d.total, d.activeUsers) : listedLine(d.total, who, d))}
        {d?.complete && d.grace && leftOut !== undefined && leftOut !== 0 && graceLine(leftOut, d.grace.days)}
        {d?.complete && who !== 'active' && d.history.storedDays < d.history.days && (
          <span className="text-warning-fg">
            The history before this range is still being read ({formatExact(d.history.storedDays)} of{' '}
            {formatExact(d.history.days)} days): people last active in the days still missing are not listed yet.
          </span>
        )}
      </StatusLine>
      <Widget
        title={TITLE}
        description={DESCRIPTIONS[who] ?? DESCRIPTION}
        query={first}
        isEmpty={(a) => a.complete && a.total === 0}
        emptyText={
          d?.withheld
            ? d.withheld.detail
            : d?.grace && leftOut !== undefined && leftOut !== 0 && !(q || delegation || tier || lang)
              ? `No one to list but ${newStarters(leftOut, d.grace.days).replace(/^New/, 'new')}.`
              : isSeatList(who)
                ? seatsEmpty(who, d, teams)
                : who === 'inactive' && d && d.inactiveUsers === 0
                  ? `Everyone known${teams.length ? ' in ' + (teams.length > 1 ? 'these teams' : 'this team') : ''} was active in this range.`
                  : (who === 'active' ? some(d?.activeUsers) : some(d?.activeUsers) || some(d?.inactiveUsers))
                    ? 'No user matches the search and filters.'
                    : teams.length
                      ? `No member of ${teams.length > 1 ? 'these teams' : 'this team'} was active in this range.`
                      : 'No user was active in this range.'
        }
        actions={
          d?.complete && d.total > 0 ? (
            <a
              href={usersCsvHref(params)}
              download={`users${teamsFileTag(teams)}${WHO_FILE_TAG[who]}-${range.start}-${range.end}.csv`}
              className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
              aria-label={`Download CSV of ${TITLE}`}
            >
              CSV
            </a>
          ) : undefined
        }
      >
        {(a) =>
          a.complete || a.users.length > 0 ? (
            <StoredUsersTable
              caption={CAPTIONS[who]}
              columns={f.columns}
              params={params}
              first={a}
              sort={sort}
              onSort={setSort}
            />
          ) : (
            <Loading label="Reading the users of this range from the service…" />
          )
        }
      </Widget>
    </div>
  );
}

/** Each reader bringing a key: the browser walks `/users`, merging page by page, and sorts and filters itself. */
function WalkedUsers() {
  const { range } = useRange();
  const qc = useQueryClient();
  const f = useUserFilters();
  const [sort] = useSortParam('users', DEFAULT_SORT);
  const options = mergedUsersQuery(range);
  const walk = useQuery({ ...options, placeholderData: keepPreviousData });
  const users = walk.data?.users;
  const facets = useMemo(() => facetValues(users ?? []), [users]);
  const { search, delegation, tier, language } = f;
  const selectShown = useCallback(
    (w: UsersWalk) => filterUsers(w.users, { search, delegation, tier, language }),
    [search, delegation, tier, language],
  );
  const shownQuery = useQuery({ ...options, placeholderData: keepPreviousData, select: selectShown });
  const shown = shownQuery.data ?? [];
  const loading = walk.isFetching && !walk.isPlaceholderData;
  const stopped = walk.data && !walk.data.complete && !walk.isFetching;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={TITLE} howToRead={HOW_TO_READ} />
      <FilterBar f={f} facets={facets} />
      <StatusLine>
        {loading && (
          <>
            <span>
              Loading users… {formatExact(walk.data?.users.length ?? 0)} loaded from {walk.data?.pages ?? 0} pages
            </span>
            <button
              type="button"
              className="rounded border border-line-strong px-2 py-0.5 hover:bg-surface-muted"
              onClick={() => void qc.cancelQueries({ queryKey: options.queryKey }, { revert: false })}
            >
              Stop
            </button>
          </>
        )}
        {stopped && (
          <>
            <span className="text-warning">
              Stopped: a partial list of {formatExact(walk.data?.users.length)} users.
            </span>
            <button
              type="button"
              className="rounded border border-line-strong px-2 py-0.5 hover:bg-surface-muted"
              onClick={() => void walk.refetch()}
            >
              Load all
            </button>
          </>
        )}
        {walk.data?.complete && !loading && activeLine(shown.length, walk.data.users.length)}
      </StatusLine>
      <Widget
        title={TITLE}
        description={DESCRIPTION}
        query={shownQuery}
        isEmpty={() => (walk.data?.complete ?? false) && shown.length === 0}
        emptyText={users?.length ? 'No user matches the search and filters.' : 'No user was active in this range.'}
        csv={(rows) => ({ filename: `users-${range.start}-${range.end}.csv`, ...usersCsv(rows, sort) })}
      >
        {(rows) => (
          <VirtualTable
            id="users"
            caption={CAPTION}
            columns={f.columns}
            rows={rows}
            rowKey={(u) => u.userId}
            defaultSort={DEFAULT_SORT}
          />
        )}
      </Widget>
    </div>
  );
}
