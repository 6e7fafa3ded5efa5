import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { readinessByTeamQuery } from '../../data/teams';
import { Link } from 'react-router-dom';
import type { Column } from '../../components/DataTable';
import { TableWidget } from '../../components/TableWidget';
import { useLinkTo } from '../../data/search';
import { formatDayLong, type DayRange } from '../../lib/dates';
import { formatPercent } from '../../lib/format';

import { teamRepos, type TeamRepo } from './team-repos';

/** A team's repositories and their readiness on the range's last day, beside its usage on its page. */
export function TeamRepositories({ path, name, range }: { path: string; name: string; range: DayRange }) {
  const linkTo = useLinkTo();
  const query = useQuery({
    ...readinessByTeamQuery([path]),
    placeholderData: keepPreviousData,
    select: (a) => teamRepos(a, range.end),
  });
  const columns: Column<TeamRepo>[] = [
    {
      id: 'repo',
      header: 'Repository',
      value: (r) => r.key,
      render: (r) => (
        <Link to={linkTo(`/readiness/${encodeURIComponent(r.key)}`)} className="text-accent-strong underline">
          {r.key.replace(/^[^/]+\//, '')}
        </Link>
      ),
    },
    { id: 'level', header: 'Level', value: (r) => r.level, numeric: true, format: String },
    { id: 'passRate', header: 'Pass rate', value: (r) => r.passRate, numeric: true, format: formatPercent },
    {
      id: 'reported',
      header: 'Latest report',
      value: (r) => r.reported,
      render: (r) => (r.reported ? formatDayLong(r.reported) : 'none yet'),
    },
    { id: 'team', header: 'Owned by', value: (r) => r.team },
  ];
  return (
    <TableWidget
      id="teamRepos"
      title="Repositories and their readiness"
      description={`The repositories the team mapping gives ${name} (or its sub-teams), by their latest readiness report up to ${formatDayLong(range.end)}.`}
      query={query}
      columns={columns}
      rowKey={(r) => r.key}
      defaultSort={{ column: 'level', dir: 'desc' }}
      filename={`team-repositories-${range.end}`}
      emptyText="The team mapping gives this team no repositories: add a repos column to the mapping (Teams → Mapping)."
    />
  );
}
