/** A team's goal in words and as chart and table rows (pure: the goal widget and the teams table's column). */
import { GOAL_KIND_INFO, type Goal } from '../../api/goals';
import { formatDayLong, formatDayShort, type Day } from '../../lib/dates';
import { GOAL_STATUS_WORDS, type GoalWeek } from '../../lib/goals';

/** A share as a goal says it: "62 %", "62.3 %" (one decimal at most: 79.6 % is not said to reach 80 %). */
export const goalShare = (x: number | null | undefined) =>
  x == null || !Number.isFinite(x) ? '–' : `${Number((x * 100).toFixed(1)).toLocaleString('en-US')}\u00a0%`;

/** The goal's date: "Mar 31", with its year when it is not the latest day's. */
export const goalDay = (by: Day, latest: Day) =>
  by.slice(0, 4) === latest.slice(0, 4) ? formatDayShort(by) : formatDayLong(by);

/** "62 % of 80 % by Mar 31 · on course": the goal's latest whole week against its target, and its status. */
export function goalLine(g: Goal, latest: Day): string {
  const target = `${goalShare(g.target)} by ${goalDay(g.by, latest)}`;
  const p = g.progress;
  if (!p) return `${target} · not shown`;
  return `${goalShare(p.current?.value)} of ${target} · ${GOAL_STATUS_WORDS[p.status]}`;
}

/** How far along a goal is, for sorting: its latest week's share of the target (none without progress). */
export const goalReached = (g: Goal | undefined): number | null =>
  g?.progress ? (g.progress.current?.value ?? 0) / g.target : null;

/** The chart's points: each week's share, the line to the goal and the projection, by the week's Monday. */
export const goalPoints = (weeks: readonly GoalWeek[]) =>
  weeks.map((w) => ({ date: w.week, actual: w.actual, line: w.line, projection: w.projection }));

/** A sentence for assistive technology, saying what the chart draws. */
export function goalSummary(g: Goal, name: string, latest: Day): string {
  const p = g.progress!;
  const known = p.weeks.filter((w) => w.actual !== null).length;
  return (
    `${name}'s ${GOAL_KIND_INFO[g.kind].label.toLowerCase()}, per week from the week of ${formatDayLong(p.weeks[0]!.week)}, ` +
    `against the line to ${goalShare(g.target)} by ${formatDayLong(g.by)} and the projection: ` +
    `${known} week${known === 1 ? '' : 's'} so far; ${goalLine(g, latest)}.`
  );
}
