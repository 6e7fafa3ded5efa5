import type { Goal } from '../../api/goals';
import type { TeamSummaryRow } from '../../api/teams';
import type { Column } from '../../components/DataTable';
import type { Day } from '../../lib/dates';
import { DEFINITIONS, labelled } from '../../lib/definitions';
import type { GoalStatus } from '../../lib/goals';
import { goalLine, goalReached } from './goal-shaping';

const STATUS_TEXT: Record<GoalStatus, string> = {
  'on-course': 'text-success-fg',
  met: 'text-success-fg',
  'off-course': 'text-danger-fg',
  missed: 'text-danger-fg',
  unknown: 'text-fg-muted',
};

/**
 * The teams table's goal column, from each team's goal (`/api/goals`): "62 % of 80 % by Mar 31 · on course", sorted
 * by how far along each is (its latest week's share of the target), teams without a goal last.
 */
export function goalColumn(goalOf: (team: string) => Goal | undefined, latest: Day): Column<TeamSummaryRow> {
  return {
    id: 'goal',
    ...labelled(DEFINITIONS.goal),
    value: (r) => goalReached(goalOf(r.team)),
    render: (r) => {
      const g = goalOf(r.team);
      if (!g) return <span className="text-fg-subtle">–</span>;
      const [figures, status] = goalLine(g, latest).split(' · ');
      return (
        <span title={g.reason ?? undefined}>
          {figures} · <span className={g.progress ? STATUS_TEXT[g.progress.status] : 'text-fg-muted'}>{status}</span>
        </span>
      );
    },
  };
}

/** The goal's columns of the teams CSV: its target and date, its latest whole week and value, and its status. */
export function goalCsv(goalOf: (team: string) => Goal | undefined) {
  return {
    header: ['goal_kind', 'goal_target', 'goal_by', 'goal_week', 'goal_value', 'goal_projected', 'goal_status'],
    cells: (r: TeamSummaryRow) => {
      const g = goalOf(r.team);
      const p = g?.progress;
      return [g?.kind, g?.target, g?.by, p?.current?.week, p?.current?.value, p?.projected, p?.status];
    },
  };
}
