import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { DELEGATION_LEVELS } from '../../api/schemas';
import { useLinkTo, useRange, useSearchParam } from '../../data/search';
import { PageHeader } from '../../components/Page';
import { VirtualTable } from '../../components/VirtualTable';
import { Widget } from '../../components/Widget';
import { formatExact } from '../../lib/format';
import { DEFAULT_COLUMNS, userColumns, usersCsv } from './columns';
import { facetValues, filterUsers } from './filter';
import { mergedUsersQuery, type UsersWalk } from './queries';

export default function UsersPage() {
  const { range } = useRange();
  const qc = useQueryClient();
  const options = mergedUsersQuery(range);
  const walk = useQuery({ ...options, placeholderData: keepPreviousData });
  const [search, setSearch] = useSearchParam('q');
  const [delegation, setDelegation] = useSearchParam('delegation');
  const [tier, setTier] = useSearchParam('tier');
  const [language, setLanguage] = useSearchParam('lang');
  const [colsParam, setColsParam] = useSearchParam('cols');
  const visible = colsParam ? colsParam.split(',') : DEFAULT_COLUMNS;

  const users = walk.data?.users;
  const facets = useMemo(() => facetValues(users ?? []), [users]);
  const selectShown = useCallback(
    (w: UsersWalk) => filterUsers(w.users, { search, delegation, tier, language }),
    [search, delegation, tier, language],
  );
  const shownQuery = useQuery({ ...options, placeholderData: keepPreviousData, select: selectShown });
  const shown = shownQuery.data ?? [];
  const linkTo = useLinkTo();
  const allColumns = useMemo(() => userColumns((u) => linkTo(`/users/${encodeURIComponent(u.userId)}`)), [linkTo]);
  const columns = useMemo(
    () => allColumns.filter((c) => c.id === 'user' || visible.includes(c.id)),
    [allColumns, visible],
  );
  const loading = walk.isFetching && !walk.isPlaceholderData;
  const stopped = walk.data && !walk.data.complete && !walk.isFetching;

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
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Users" />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          <span className="text-fg-muted">Search by email or id</span>
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-64 rounded border border-line-strong px-2 py-1"
            placeholder="name@company.com"
          />
        </label>
        {select(
          'Delegation',
          delegation,
          setDelegation,
          facets.delegation.length ? facets.delegation : DELEGATION_LEVELS,
        )}
        {select('Model tier', tier, setTier, facets.tier)}
        {select('Language', language, setLanguage, facets.language)}
        <details className="relative text-sm">
          <summary className="cursor-pointer rounded border border-line-strong px-2 py-1">Columns</summary>
          <fieldset className="absolute z-20 mt-1 grid w-64 gap-1 rounded border border-line bg-surface p-3 shadow-lg">
            <legend className="sr-only">Visible columns</legend>
            {allColumns
              .filter((c) => c.id !== 'user')
              .map((c) => (
                <label key={c.id} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={visible.includes(c.id)}
                    onChange={(e) => {
                      const next = e.target.checked ? [...visible, c.id] : visible.filter((x) => x !== c.id);
                      const ordered = allColumns.map((x) => x.id).filter((id) => next.includes(id));
                      setColsParam(ordered.join(',') === DEFAULT_COLUMNS.join(',') ? '' : ordered.join(','));
                    }}
                  />
                  {c.header}
                </label>
              ))}
          </fieldset>
        </details>
      </div>
      <div role="status" aria-live="polite" className="flex flex-wrap items-center gap-3 text-sm text-fg-muted">
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
        {walk.data?.complete && !loading && (
          <span>
            {formatExact(shown.length)} of {formatExact(walk.data.users.length)} users active in the range
          </span>
        )}
      </div>
      <Widget
        title="Users"
        description="One row per user over the range, merged from the service's per-day rows. Tool calls per turn is weighted by user turns."
        query={shownQuery}
        isEmpty={() => (walk.data?.complete ?? false) && shown.length === 0}
        emptyText={users?.length ? 'No user matches the search and filters.' : 'No user was active in this range.'}
        csv={(d) => ({ filename: `users-${range.start}-${range.end}.csv`, ...usersCsv(d) })}
      >
        {(d) => (
          <VirtualTable
            id="users"
            caption="Users active in the range"
            columns={columns}
            rows={d}
            rowKey={(u) => u.userId}
            defaultSort={{ column: 'credits', dir: 'desc' }}
          />
        )}
      </Widget>
    </div>
  );
}
