/**
 * A team's goal and its progress (pure, shared by the server that computes it and the SPA that draws it): a share
 * to reach by a date, read per whole ISO week (Monday to Sunday, UTC).
 *
 * - **the line to the goal** runs straight from the goal's start (the last whole week when it was set, at its value
 *   then) to the target on the target week (the last whole week ending on or before the target date);
 * - **the projection** is the least-squares line through the values of the last `PROJECTION_WEEKS` whole weeks,
 *   read at the target week and held between 0 and 1 (a share);
 * - **the status**: before the target week is over, on course when the projection reaches the target, off course
 *   when it falls short, unknown with fewer than two weeks to fit; once it is over, met or missed by its own value.
 */
import { addDays, daysBetween, HISTORY_START, weekStart, type Day } from './dates';

/** Whole weeks the projection is fitted over: the latest ones, about a month and a half. */
export const PROJECTION_WEEKS = 6;

/** The first whole ISO week of the history (its Monday): no week before it has all its days. */
export const FIRST_WHOLE_WEEK: Day = weekStart(addDays(HISTORY_START, 6));

export type GoalStatus = 'on-course' | 'off-course' | 'met' | 'missed' | 'unknown';

/** The Monday of the last whole ISO week ending on or before `day`. */
export const lastWholeWeek = (day: Day): Day => weekStart(addDays(day, -6));

/** Whole weeks from one Monday to another (negative when `b` comes first). */
export const weeksBetween = (a: Day, b: Day): number => Math.round(daysBetween(a, b) / 7);

export interface GoalWeekValue {
  /** The week's Monday. */
  week: Day;
  /** Its value (a share), none when there is nothing to divide by. */
  value: number | null;
}

export interface GoalWeek {
  week: Day;
  /** The week's value, once the week is over. */
  actual: number | null;
  /** The straight line to the goal, from the start week to the target week. */
  line: number | null;
  /** The projection, over the weeks it is fitted on and on to the target week. */
  projection: number | null;
}

export interface GoalProgress {
  startWeek: Day;
  /** The value of the start week: where the line to the goal starts. */
  startValue: number | null;
  targetWeek: Day;
  /** The latest whole week with a value, and that value. */
  current: { week: Day; value: number } | null;
  /** The projection at the target week (0 to 1), none without two weeks to fit. */
  projected: number | null;
  /** How many weeks the projection was fitted over. */
  fitted: number;
  status: GoalStatus;
  /** Every week from the first given to the target week. */
  weeks: GoalWeek[];
}

export interface GoalQuestion {
  /** The share to reach, 0 to 1. */
  target: number;
  /** The Monday of the week the goal starts from. */
  startWeek: Day;
  /** The target date. */
  by: Day;
  /**
   * The weekly values from some week at or before the start through the latest whole week (or the target week,
   * when that is over): consecutive Mondays, oldest first.
   */
  weeks: readonly GoalWeekValue[];
}

/** The least-squares line through the points (the x values not all the same), or none. */
export function leastSquares(points: readonly { x: number; y: number }[]): { slope: number; intercept: number } | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

const share = (v: number) => Math.min(1, Math.max(0, v));
/** A share compared with the target: floating-point error does not make a goal reached by a hair missed. */
const reaches = (v: number, target: number) => v >= target - 1e-9;

export function goalProgress(q: GoalQuestion): GoalProgress {
  const targetWeek = lastWholeWeek(q.by);
  const known = q.weeks.filter((w) => w.week <= targetWeek);
  const first = known[0]?.week ?? q.startWeek;
  const valueOf = new Map(known.map((w) => [w.week, w.value]));
  const startValue = valueOf.get(q.startWeek) ?? null;
  const withValue = known.filter((w): w is { week: Day; value: number } => w.value !== null);
  const latest = withValue.at(-1) ?? null;
  const lastKnown = known.at(-1)?.week;

  // The projection: a line through the last whole weeks' values, x in weeks from the first week.
  const fit = lastKnown
    ? withValue.filter((w) => weeksBetween(w.week, lastKnown) < PROJECTION_WEEKS)
    : ([] as { week: Day; value: number }[]);
  const line = leastSquares(fit.map((w) => ({ x: weeksBetween(first, w.week), y: w.value })));
  const at = (week: Day) => (line ? share(line.intercept + line.slope * weeksBetween(first, week)) : null);
  const over = lastKnown !== undefined && lastKnown >= targetWeek;
  const projected = over ? null : at(targetWeek);

  const span = weeksBetween(q.startWeek, targetWeek);
  const lineAt = (week: Day) => {
    if (startValue === null || week < q.startWeek || span <= 0) return null;
    return startValue + (q.target - startValue) * (weeksBetween(q.startWeek, week) / span);
  };
  const fromFit = fit[0]?.week;
  const weeks: GoalWeek[] = [];
  for (let w = first; w <= targetWeek; w = addDays(w, 7))
    weeks.push({
      week: w,
      actual: valueOf.get(w) ?? null,
      line: lineAt(w),
      projection: !over && fromFit !== undefined && w >= fromFit ? at(w) : null,
    });

  let status: GoalStatus;
  if (over) {
    const v = valueOf.get(targetWeek) ?? null;
    status = v === null ? 'unknown' : reaches(v, q.target) ? 'met' : 'missed';
  } else status = projected === null ? 'unknown' : reaches(projected, q.target) ? 'on-course' : 'off-course';

  return {
    startWeek: q.startWeek,
    startValue,
    targetWeek,
    current: latest,
    projected,
    fitted: line ? fit.length : 0,
    status,
    weeks,
  };
}

/** A goal's status in words, as the teams table and the team's page say it. */
export const GOAL_STATUS_WORDS: Record<GoalStatus, string> = {
  'on-course': 'on course',
  'off-course': 'off course',
  met: 'met',
  missed: 'missed',
  unknown: 'too early to tell',
};
