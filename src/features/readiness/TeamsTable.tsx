import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { Widget } from '../../components/Widget';
import { useLinkTo, type SortState } from '../../data/search';
import { formatPercent } from '../../lib/format';
import type { RepoHistory } from './history';
import { TARGET_LEVEL } from '../../lib/readiness';
import { SpreadBar } from './LevelSpread';
import { teamReadiness, type TeamReadinessRow } from './teams';

const SORT: SortState = { column: 'team', dir: 'asc' };
/** "1: 0 · 2: 1 · 3: 4 · 4: 0 · 5: 0": repositories per level, said in words beside the bar. */
const perLevel = (r: TeamReadinessRow) => r.spread.counts.map((n, i) => `${i + 1}: ${n}`).join(' · ');
const teamKey = (r: TeamReadinessRow) => r.team ?? '';

/** Readiness by owning team: each team's repositories, their levels, and the Unowned ones. */
export function TeamsTable({
  list,
  owners,
  ownership,
  status,
}: {
  list: RepoHistory[] | undefined;
  owners: ReadonlyMap<string, string | null> | undefined;
  ownership: boolean | undefined;
  status: { error: unknown; isFetching: boolean; refetch: () => unknown };
}) {
  const linkTo = useLinkTo();
  const rows = useMemo(() => (list && owners ? teamReadiness(list, owners) : undefined), [list, owners]);
  const columns = useMemo<Column<TeamReadinessRow>[]>(
    () => [
      {
        id: 'team',
        header: 'Team',
        value: (r) => r.team ?? '\uffff',
        render: (r) =>
          r.team === null ? (
            <span className="text-fg-muted">{r.name}</span>
          ) : (
            <Link to={linkTo('/readiness', { team: [r.team] })} className="text-accent-strong underline">
              {r.name}
            </Link>
          ),
      },
      { id: 'repositories', header: 'Repositories', value: (r) => r.repositories, numeric: true },
      {
        id: 'atTarget',
        header: `At level ${TARGET_LEVEL}+`,
        value: (r) => r.spread.atTargetShare,
        numeric: true,
        render: (r) =>
          r.spread.total === 0 ? (
            '–'
          ) : (
            <span className={r.spread.met ? 'text-success' : ''}>
              {formatPercent(r.spread.atTargetShare)}{' '}
              <span className="text-fg-subtle">
                ({r.spread.atTarget} of {r.spread.total})
              </span>
            </span>
          ),
      },
      {
        id: 'perLevel',
        header: 'Repositories per level',
        // Sorted by where the repositories stand on average (the text "1: 10 · …" would sort 10 before 2).
        value: (r) => {
          const n = r.spread.counts.reduce((a, b) => a + b, 0);
          return n === 0 ? null : r.spread.counts.reduce((a, c, i) => a + c * (i + 1), 0) / n;
        },
        render: (r) => (
          <span className="inline-flex flex-col gap-1">
            <SpreadBar spread={r.spread} className="h-2 w-24" />
            <span className="text-xs whitespace-nowrap text-fg-muted">{perLevel(r)}</span>
          </span>
        ),
      },
      {
        id: 'meanPassRate',
        header: 'Mean pass rate',
        value: (r) => r.meanPassRate,
        numeric: true,
        format: formatPercent,
      },
    ],
    [linkTo],
  );
  const csv = useTableCsv('readinessTeams', columns, SORT);
  return (
    <Widget
      title="Readiness by team"
      description="Each team's repositories (as the team mapping's repos column gives them) by their latest reports."
      query={{ ...status, data: rows, status: rows ? 'success' : 'pending' }}
      csv={(d) => ({ filename: 'readiness-by-team.csv', ...csv(d) })}
    >
      {(d) =>
        ownership === false ? (
          <p className="text-sm">
            The team mapping names no repositories, so every repository is Unowned. Add a <code>repos</code> column to
            the mapping (each team&apos;s repositories, separated by <code>;</code>, such as{' '}
            <code>github.com/acme/api</code> or <code>github.com/acme/web-*</code>) on the{' '}
            <Link to={linkTo('/settings/teams')} className="text-accent-strong underline">
              team mapping screen
            </Link>
            .
          </p>
        ) : (
          <DataTable
            id="readinessTeams"
            caption="Readiness by team"
            columns={columns}
            rows={d}
            rowKey={teamKey}
            defaultSort={SORT}
            maxHeight="24rem"
          />
        )
      }
    </Widget>
  );
}
