/**
 * A goal's progress against brute force on constructed weekly series: the line to the goal, the projection (the
 * least-squares line of the last whole weeks, worked out here by the pairwise formula of its slope and checked by its
 * normal equations), and the status, before and after the target week.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type Day } from './dates';
import {
  FIRST_WHOLE_WEEK,
  goalProgress,
  lastWholeWeek,
  leastSquares,
  PROJECTION_WEEKS,
  weeksBetween,
  type GoalWeekValue,
} from './goals';

/** The slope of the least-squares line as the mean of every pair's slope weighted by its squared run. */
function pairwise(points: readonly { x: number; y: number }[]) {
  let num = 0;
  let den = 0;
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j]!.x - points[i]!.x;
      num += dx * (points[j]!.y - points[i]!.y);
      den += dx * dx;
    }
  if (den === 0) return null;
  const slope = num / den;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  return { slope, intercept: my - slope * mx };
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));

/** A goal set on a day, with a series of weeks around its start, as the route gives them. */
const scenario = fc
  .record({
    // The Monday of the start week, some weeks after the first whole week of the history.
    startAfter: fc.integer({ min: 0, max: 30 }),
    // Weeks given before the start (the route gives up to PROJECTION_WEEKS − 1; fewer near the history's start).
    before: fc.integer({ min: 0, max: PROJECTION_WEEKS + 2 }),
    // Whole weeks over since the start.
    since: fc.integer({ min: 0, max: 40 }),
    // The target date: days after the start week's Sunday, at least a whole week on (as the routes take it).
    byAfter: fc.integer({ min: 7, max: 400 }),
    target: fc.double({ min: 0.01, max: 1, noNaN: true }),
    values: fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null, freq: 6 }), {
      minLength: 60,
      maxLength: 60,
    }),
  })
  .map((s) => {
    const startWeek = addDays(FIRST_WHOLE_WEEK, 7 * s.startAfter);
    const by = addDays(startWeek, 6 + s.byAfter);
    const targetWeek = lastWholeWeek(by);
    const first = addDays(startWeek, -7 * s.before);
    const last = addDays(startWeek, 7 * s.since);
    const weeks: GoalWeekValue[] = [];
    for (let w = first, i = 0; w <= last && w <= targetWeek; w = addDays(w, 7), i++)
      weeks.push({ week: w, value: s.values[i % s.values.length]! });
    return { startWeek, by, targetWeek, target: s.target, weeks };
  });

describe('goalProgress', () => {
  it('draws the line to the goal, projects the last whole weeks and says the status, as brute force does', () => {
    fc.assert(
      fc.property(scenario, (q) => {
        const p = goalProgress(q);
        const first = q.weeks[0]!.week;
        const lastGiven = q.weeks.at(-1)!.week;
        // Every week from the first given to the target week, the actual values as given.
        const mondays: Day[] = [];
        for (let w = first; w <= q.targetWeek; w = addDays(w, 7)) mondays.push(w);
        expect(p.weeks.map((w) => w.week)).toEqual(mondays);
        expect(p.targetWeek).toBe(q.targetWeek);
        const given = new Map(q.weeks.map((w) => [w.week, w.value]));
        for (const w of p.weeks) expect(w.actual).toBe(given.get(w.week) ?? null);

        // The line: from the start week's value to the target on the target week, in equal steps.
        const startValue = given.get(q.startWeek) ?? null;
        expect(p.startValue).toBe(startValue);
        const span = mondays.filter((w) => w > q.startWeek && w <= q.targetWeek).length;
        for (const w of p.weeks) {
          if (startValue === null || w.week < q.startWeek) expect(w.line).toBeNull();
          else {
            const k = mondays.filter((m) => m > q.startWeek && m <= w.week).length;
            expect(w.line).toBeCloseTo(startValue + ((q.target - startValue) * k) / span, 9);
          }
        }
        if (startValue !== null) expect(p.weeks.at(-1)!.line).toBeCloseTo(q.target, 9);

        // The projection: the least-squares line through the last PROJECTION_WEEKS whole weeks that have a value.
        const recent = mondays.filter((w) => w <= lastGiven).slice(-PROJECTION_WEEKS);
        const pts = recent
          .filter((w) => given.get(w) != null)
          .map((w) => ({ x: mondays.indexOf(w), y: given.get(w)! }));
        const oracle = pairwise(pts);
        const over = lastGiven === q.targetWeek;
        const latest = [...q.weeks].reverse().find((w) => w.value !== null);
        expect(p.current).toEqual(latest ? { week: latest.week, value: latest.value } : null);
        if (over || !oracle) expect(p.projected).toBeNull();
        else expect(p.projected).toBeCloseTo(clamp(oracle.intercept + oracle.slope * (mondays.length - 1)), 9);
        expect(p.fitted).toBe(oracle ? pts.length : 0);
        for (const [i, w] of p.weeks.entries()) {
          if (over || !oracle || i < pts[0]!.x) expect(w.projection).toBeNull();
          else expect(w.projection).toBeCloseTo(clamp(oracle.intercept + oracle.slope * i), 9);
        }

        // The status: by the target week's own value once it is over, else by the projection.
        const v = given.get(q.targetWeek) ?? null;
        const want = over
          ? v === null
            ? 'unknown'
            : v >= q.target - 1e-9
              ? 'met'
              : 'missed'
          : !oracle
            ? 'unknown'
            : clamp(oracle.intercept + oracle.slope * (mondays.length - 1)) >= q.target - 1e-9
              ? 'on-course'
              : 'off-course';
        expect(p.status).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it('fits the line whose residuals sum to nothing and are uncorrelated with x (the normal equations)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.integer({ min: 0, max: 60 }), y: fc.double({ min: 0, max: 1, noNaN: true }) }), {
          minLength: 2,
          maxLength: 12,
        }),
        (pts) => {
          const l = leastSquares(pts);
          if (new Set(pts.map((p) => p.x)).size < 2) {
            expect(l).toBeNull();
            return;
          }
          const r = pts.map((p) => p.y - (l!.intercept + l!.slope * p.x));
          expect(r.reduce((s, e) => s + e, 0)).toBeCloseTo(0, 9);
          expect(r.reduce((s, e, i) => s + e * pts[i]!.x, 0)).toBeCloseTo(0, 7);
        },
      ),
    );
  });

  it('reads a goal set this week: on course when the weeks rise to it, off course when they fall short', () => {
    const startWeek = '2026-03-02';
    const weeks = (values: number[]) =>
      values.map((value, i) => ({ week: addDays(startWeek, 7 * (i - values.length + 1)), value }));
    // Rising two points a week from 50 %: 62 % six weeks on, 74 % in twelve.
    const rising = goalProgress({
      target: 0.6,
      startWeek,
      by: '2026-04-12',
      weeks: weeks([0.4, 0.42, 0.44, 0.46, 0.48, 0.5]),
    });
    expect(rising.targetWeek).toBe('2026-04-06');
    expect(weeksBetween(startWeek, rising.targetWeek)).toBe(5);
    expect(rising.projected).toBeCloseTo(0.6, 9);
    expect(rising.status).toBe('on-course');
    const flat = goalProgress({ target: 0.6, startWeek, by: '2026-04-12', weeks: weeks([0.5, 0.5, 0.5]) });
    expect(flat).toMatchObject({ projected: 0.5, status: 'off-course', fitted: 3 });
    // One week only: no line to fit.
    expect(goalProgress({ target: 0.6, startWeek, by: '2026-04-12', weeks: weeks([0.5]) })).toMatchObject({
      projected: null,
      status: 'unknown',
    });
    // The target week over: met or missed by its own value, whatever the trend.
    const over = (v: number) =>
      goalProgress({
        target: 0.6,
        startWeek,
        by: '2026-03-15',
        weeks: [...weeks([0.9, 0.8, 0.7]), { week: '2026-03-09', value: v }],
      });
    expect(over(0.6).status).toBe('met');
    expect(over(0.59).status).toBe('missed');
    expect(over(0.59).projected).toBeNull();
  });
});
