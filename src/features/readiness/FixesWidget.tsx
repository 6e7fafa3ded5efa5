import { useMemo } from 'react';
import { CRITERIA_BY_ID } from '../../api/criteria';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { Widget } from '../../components/Widget';
import type { SortState } from '../../data/search';
import { repoName, type SetFix } from '../../lib/readiness';
import type { RepoHistory } from './history';
import { fixesOf } from './teams';

interface FixRow extends SetFix {
  name: string;
  level: number | null;
  /** The repositories it lifts, by name: made once, not in each render of the row. */
  which: string;
}

const SORT: SortState = { column: 'helps', dir: 'desc' };
const names = (keys: readonly string[]) => keys.map(repoName).join(', ');
const fixKey = (f: FixRow) => f.id;

const COLUMNS: Column<FixRow>[] = [
  { id: 'name', header: 'Criterion', value: (f) => f.name },
  { id: 'level', header: 'Level', value: (f) => f.level, numeric: true, format: String },
  {
    id: 'helps',
    header: 'Repositories lifted',
    value: (f) => f.helps.length,
    numeric: true,
    render: (f) => `${f.helps.length}${f.lifts.length ? ` (${f.lifts.length} on its own)` : ''}`,
  },
  {
    id: 'repos',
    header: 'Which',
    value: (f) => f.which,
    render: (f) => (
      <span className="line-clamp-2 text-fg-muted" title={f.which}>
        {f.which}
      </span>
    ),
  },
];

/** The criteria whose fix lifts the most of these repositories to their next level (a team's, or every one). */
export function FixesWidget({
  list,
  status,
  scope,
}: {
  list: RepoHistory[] | undefined;
  status: { error: unknown; isFetching: boolean; refetch: () => unknown };
  scope: string;
}) {
  const rows = useMemo(
    () =>
      list &&
      fixesOf(list).map((f) => ({
        ...f,
        name: CRITERIA_BY_ID.get(f.id)?.name ?? f.id,
        level: CRITERIA_BY_ID.get(f.id)?.level ?? null,
        which: names(f.helps),
      })),
    [list],
  );
  const csv = useTableCsv('fixes', COLUMNS, SORT);
  return (
    <Widget
      title="What to fix next"
      description={`The criteria whose fix lifts the most of ${scope} repositories to their next level: each is one of the fewest fixes that lift them (on its own: alone enough).`}
      query={{ ...status, data: rows, status: rows ? 'success' : 'pending' }}
      isEmpty={(d) => d.length === 0}
      emptyText={list?.length === 0 ? 'No repository to read.' : 'Every repository is at the top level.'}
      csv={(d) => ({ filename: 'readiness-fixes.csv', ...csv(d) })}
    >
      {(d) => (
        <DataTable
          id="fixes"
          caption="What to fix next"
          columns={COLUMNS}
          rows={d}
          rowKey={fixKey}
          defaultSort={SORT}
          maxHeight="20rem"
        />
      )}
    </Widget>
  );
}
