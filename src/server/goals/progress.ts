/**
 * A goal's progress (lib/goals.ts) from the figures runner, for the goal's scope (the organization, or a team with
 * its sub-teams), each whole ISO week from the weeks the projection needs before the start to the latest whole week
 * (or the target week, once it is over):
 * - `weekly-active`: the week's active people over the members now;
 * - `moderate-or-above`: of the people active in the four whole weeks to the week's Sunday, those at Moderate or Heavy
 *   intensity there (the runner's bands, with its thresholds and its smallest group: none for fewer active people).
 */
import type { GoalKind, GoalProgressAnswer } from '../../api/goals';
import { addDays, maxDay, minDay, type Day, type DayRange } from '../../lib/dates';
import { FIRST_WHOLE_WEEK, goalProgress, lastWholeWeek, PROJECTION_WEEKS } from '../../lib/goals';
import { weeksTo } from '../../lib/intensity';
import type { FiguresPrivacy, FiguresRunner } from '../analytics/figures';
import type { Mapping } from '../teams/mapping';

export interface GoalFigures {
  team: string;
  kind: GoalKind;
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
    /** Privacy mode for the reader (or the channel) it applies to: a band's smallest group is then at least k. */
    privacy?: FiguresPrivacy;
  },
): Promise<GoalProgressAnswer> {
  const { goal, mapping } = o;
  const scope = { people: goal.team === '' ? null : [goal.team], ...(o.privacy && { privacy: o.privacy }) };
  // The weeks the projection may fit before the start, none before the history's first whole week.
  const first = maxDay(FIRST_WHOLE_WEEK, addDays(goal.startWeek, -7 * (PROJECTION_WEEKS - 1)));
  const through = minDay(lastWholeWeek(o.latest), lastWholeWeek(goal.by));
  const range = { start: first, end: addDays(through, 6) };
  const [members] = (
    await runner.ask({ mapping, measures: ['members'], range: { start: first, end: first }, by: 'total', scope })
  ).rows;
  const n = members?.current.members ?? 0;
  const value = new Map<Day, number | null>();
  if (through >= first) {
    if (goal.kind === 'weekly-active') {
      await o.fill(range);
      const weeks = await runner.ask({ mapping, measures: ['active'], range, by: 'week', scope });
      // A week nobody was active in is no row of the runner's: its share is 0 (of members, when there are any).
      for (const r of weeks.rows) value.set(r.key, n > 0 ? (r.current.active ?? 0) / n : null);
      for (let w = first; w <= through; w = addDays(w, 7)) if (!value.has(w)) value.set(w, n > 0 ? 0 : null);
    } else {
      // Each week's bands are of the four whole weeks to its Sunday: those before the first are read too.
      await o.fill({ start: weeksTo(addDays(first, 6)).start, end: range.end });
      const weeks = await runner.ask({
        mapping,
        measures: ['intensityHeavy', 'intensityModerate', 'intensityActive'],
        range,
        by: 'week',
        scope,
      });
      for (const r of weeks.rows) {
        const { intensityHeavy: heavy, intensityModerate: moderate, intensityActive: active } = r.current;
        value.set(r.key, heavy === null || moderate === null || !active ? null : (heavy + moderate) / active);
      }
    }
  }
  const values = [];
  for (let w = first; w <= through; w = addDays(w, 7)) values.push({ week: w, value: value.get(w) ?? null });
  return {
    ...goalProgress({ target: goal.target, startWeek: goal.startWeek, by: goal.by, weeks: values }),
    members: n,
  };
}
