import { useMemo } from 'react';
import { LEVEL_NAMES } from '../../api/criteria';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { Widget } from '../../components/Widget';
import type { SortState } from '../../data/search';
import { repoName, TARGET_LEVEL, type SetFix } from '../../lib/readiness';
import { criterionName, type RepoHistory } from './history';
import { fixesOf } from './teams';

interface FixRow extends SetFix {
  name: string;
  /** The repositories below the target, of which it helps `helps`. */
  below: number;
  /** The repositories it brings to the target, by name: made once, not in each render of the row. */
  which: string;
}

const TARGET = `level ${TARGET_LEVEL} · ${LEVEL_NAMES[TARGET_LEVEL]}`;
const SORT: SortState = { column: 'helps', dir: 'desc' };
const names = (keys: readonly string[]) => keys.map(repoName).join(', ');
const fixKey = (f: FixRow) => f.id;

const COLUMNS: Column<FixRow>[] = [
  { id: 'name', header: 'Criterion', value: (f) => f.name },
  { id: 'level', header: 'Level', value: (f) => f.level, numeric: true, format: String },
  {
    id: 'helps',
    header: `Brings to level ${TARGET_LEVEL}`,
    value: (f) => f.helps.length,
    numeric: true,
    // On a phone's card, where the cell is half a line, what one fix does alone takes a smaller line of its own.
    render: (f) => (
      <span className="sm:whitespace-nowrap">
        {f.helps.length} of {f.below}
        {f.lifts.length ? (
          <span className="whitespace-nowrap text-fg-subtle max-sm:block max-sm:text-xs">
            {' '}
            ({f.lifts.length} on its own)
          </span>
        ) : (
          ''
        )}
      </span>
    ),
  },
  {
    id: 'repos',
    header: 'Which',
    value: (f) => f.which,
    // Left-aligned on a phone's card too: a clamped text aligned right runs past its box in Chromium.
    render: (f) => (
      <span className="line-clamp-2 text-fg-muted max-sm:text-left" title={f.which}>
        {f.which}
      </span>
    ),
  },
];

/**
 * What to fix to reach the target over these repositories (a team's, or every one): the criteria that bring
 * the most of those below level 3 there, each with the fewest other fixes; as many, the lowest level first.
 */
export function FixesWidget({
  list,
  status,
  scope,
}: {
  list: RepoHistory[] | undefined;
  status: { error: unknown; isFetching: boolean; refetch: () => unknown };
  scope: string;
}) {
  const below = useMemo(() => list?.filter((r) => r.latest.score.level < TARGET_LEVEL).length ?? 0, [list]);
  const rows = useMemo(
    () =>
      list &&
      fixesOf(list).map((f) => ({
        ...f,
        name: criterionName(f.id),
        below,
        which: names(f.helps),
      })),
    [list, below],
  );
  const csv = useTableCsv('fixes', COLUMNS, SORT);
  return (
    <Widget
      title="What to fix next"
      description={`Ranked for the target, ${TARGET}: by how many of ${scope} ${below} ${below === 1 ? 'repository' : 'repositories'} below it each fix brings there, with the fewest other fixes; as many, the lowest level first. “On its own”: that fix alone is enough. Repositories at level ${TARGET_LEVEL} or above are not counted.`}
      query={{ ...status, data: rows, status: rows ? 'success' : 'pending' }}
      isEmpty={(d) => d.length === 0}
      emptyText={
        list?.length === 0
          ? 'No repository to read.'
          : below === 0
            ? `Every repository is at ${TARGET} or above: the target is met.`
            : `The repositories below ${TARGET} have every criterion skipped: no pass rate to raise.`
      }
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
