/**
 * A goal's progress (lib/goals.ts) from the figures runner: each whole ISO week's active people of the goal's scope
 * (the organization, or a team with its sub-teams) over its members now, from the weeks the projection needs before
 * the start to the latest whole week (or the target week, once it is over).
 */
import type { GoalProgressAnswer } from '../../api/goals';
import { addDays, maxDay, minDay, type Day, type DayRange } from '../../lib/dates';
import { FIRST_WHOLE_WEEK, goalProgress, lastWholeWeek, PROJECTION_WEEKS } from '../../lib/goals';
import type { FiguresRunner } from '../analytics/figures';
import type { Mapping } from '../teams/mapping';

export interface GoalFigures {
  team: string;
  kind: string;
  target: number;
  by: Day;
  startWeek: Day;
}

/** The progress of a goal whose scope is the organization or a team of the mapping, to the latest day. */
export async function progressOf(
  runner: FiguresRunner,
  o: {
    goal: GoalFigures;
    latest: Day;
    mapping: Mapping | null;
    /** Fills the `/users` days of a range from the service first. */
    fill: (r: DayRange) => Promise<void>;
  },
): Promise<GoalProgressAnswer> {
  const { goal, mapping } = o;
  const scope = { people: goal.team === '' ? null : [goal.team] };
  // The weeks the projection may fit before the start, none before the history's first whole week.
  const first = maxDay(FIRST_WHOLE_WEEK, addDays(goal.startWeek, -7 * (PROJECTION_WEEKS - 1)));
  const through = minDay(lastWholeWeek(o.latest), lastWholeWeek(goal.by));
  const range = { start: first, end: addDays(through, 6) };
  const [members] = (
    await runner.ask({ mapping, measures: ['members'], range: { start: first, end: first }, by: 'total', scope })
  ).rows;
  const n = members?.current.members ?? 0;
  const active = new Map<Day, number>();
  if (through >= first) {
    await o.fill(range);
    const weeks = await runner.ask({ mapping, measures: ['active'], range, by: 'week', scope });
    for (const r of weeks.rows) active.set(r.key, r.current.active ?? 0);
  }
  const values = [];
  // A week nobody was active in is no row of the runner's: its share is 0 (of members, when there are any).
  for (let w = first; w <= through; w = addDays(w, 7))
    values.push({ week: w, value: n > 0 ? (active.get(w) ?? 0) / n : null });
  return {
    ...goalProgress({ target: goal.target, startWeek: goal.startWeek, by: goal.by, weeks: values }),
    members: n,
  };
}
