import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { Widget } from '../../components/Widget';
import { useLinkTo, type SortState } from '../../data/search';
import { formatPercent } from '../../lib/format';
import type { RepoHistory } from './history';
import { meanWithDistribution, teamReadiness, type TeamReadinessRow } from './teams';

const SORT: SortState = { column: 'team', dir: 'asc' };
const LEVEL_COLORS = ['var(--level-1)', 'var(--level-2)', 'var(--level-3)', 'var(--level-4)', 'var(--level-5)'];

function Distribution({ row }: { row: TeamReadinessRow }) {
  const total = row.repositories || 1;
  return (
    <span className="flex h-2 w-24 overflow-hidden rounded bg-line" aria-hidden>
      {row.distribution.map((n, i) => (
        <span key={i} style={{ width: `${(n / total) * 100}%`, background: LEVEL_COLORS[i] }} />
      ))}
    </span>
  );
}

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
        id: 'meanLevel',
        header: 'Mean level (repositories per level)',
        value: (r) => r.meanLevel,
        numeric: true,
        render: (r) => (
          <span className="inline-flex items-center gap-2">
            <Distribution row={r} />
            {meanWithDistribution(r)}
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
            rowKey={(r) => r.team ?? ''}
            defaultSort={SORT}
            maxHeight="24rem"
          />
        )
      }
    </Widget>
  );
}
