import type { TeamSummaryRow } from '../../api/teams';
import { Change } from '../../components/Change';
import type { Column } from '../../components/DataTable';
import { Sparkline } from '../../components/Sparkline';
import type { SortState } from '../../data/search';
import type { DayRange } from '../../lib/dates';
import { DEFINITIONS, labelled } from '../../lib/definitions';
import { formatPercent } from '../../lib/format';
import { outcomeColumns } from './outcome-columns';
import { change, isOrganization, trendChange, trendLabel } from './shaping';

export const TEAMS_SORT: SortState = { column: 'credits', dir: 'desc' };

export const ratio = (n: number) => n.toFixed(1);

/** The shown name of a row: the organization's row is its total, whatever the server names it. */
export const rowName = (r: TeamSummaryRow) => (isOrganization(r) ? 'Whole organization' : r.name);

/**
 * The teams table's columns: what each shows and sorts by. The first (the team) is drawn by the
 * tree table itself, with its expand button and link; the credits come right after it.
 */
export function teamColumns(range: DayRange): Column<TeamSummaryRow>[] {
  return [
    { id: 'team', header: 'Team', value: rowName },
    // What a manager reads first sits next to the name: the credits (and with a price list the spend and
    // budget, which the teams page puts right after them), then the people.
    { id: 'credits', header: 'Credits', value: (r) => r.current.credits, numeric: true },
    {
      id: 'members',
      ...labelled(DEFINITIONS.members),
      value: (r) => r.current.members,
      numeric: true,
    },
    {
      id: 'active',
      ...labelled(DEFINITIONS.activePeople),
      value: (r) => r.current.active,
      numeric: true,
    },
    {
      id: 'activeChange',
      header: 'Active people change',
      value: (r) => change(r, (f) => f.active),
      numeric: true,
      render: (r) => (
        <Change now={r.current.active} before={r.previous?.active ?? null} better={DEFINITIONS.activePeople.better} />
      ),
    },
    {
      id: 'adoption',
      ...labelled(DEFINITIONS.adoption),
      value: (r) => r.current.adoption,
      numeric: true,
      format: formatPercent,
    },
    {
      id: 'creditsChange',
      header: 'Credits change',
      value: (r) => change(r, (f) => f.credits),
      numeric: true,
      render: (r) => <Change now={r.current.credits} before={r.previous?.credits ?? null} />,
    },
    // Credits per active person, per commit and per pull request, each with its change.
    ...outcomeColumns(),
    {
      id: 'toolCallsPerTurn',
      ...labelled(DEFINITIONS.toolCallsPerTurn),
      value: (r) => r.current.toolCallsPerTurn,
      numeric: true,
      format: ratio,
    },
    { id: 'sessions', header: 'Sessions', value: (r) => r.current.sessions, numeric: true },
    { id: 'commits', header: 'Commits', value: (r) => r.current.commits, numeric: true },
    { id: 'prs', header: 'Pull requests', value: (r) => r.current.prs, numeric: true },
    {
      id: 'trend',
      header: 'Daily credits',
      // Sorted by how the second half of the range compares with the first.
      value: (r) => trendChange(r.trend),
      numeric: true,
      render: (r) => <Sparkline values={r.trend} label={trendLabel(rowName(r), r.trend, range)} />,
    },
  ];
}
