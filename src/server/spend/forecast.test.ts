import { describe, expect, it } from 'vitest';
import { addDays, isWeekend, monthEnd, type Day } from '../../lib/dates';
import { budgetStatus, forecastMonth } from './forecast';

const FIRST: Day = '2026-01-14';
const flat = (v: number) => () => v;

describe('the month forecast', () => {
  it('is the month to date plus the days left at the trailing weeks’ average, with the quietest and busiest weeks as its range', () => {
    // 10 a day before Nov 1, 20 a day from then: the last 28 days (Oct 26 … Nov 22) hold 6 days of 10.
    const spend = (d: Day) => (d < '2026-11-01' ? 10 : 20);
    const m = forecastMonth(spend, FIRST, '2026-11-22');
    expect(m).toMatchObject({ month: '2026-11', start: '2026-11-01', end: '2026-11-30', daysElapsed: 22, daysLeft: 8 });
    expect(m.monthToDate).toBe(22 * 20);
    expect(m.basisDays).toBe(28);
    // Weeks (newest first): Nov 16–22, 9–15, 2–8 at 20 a day; Oct 26–Nov 1: six days of 10 and one of 20.
    const quiet = (6 * 10 + 20) / 7;
    const mean = (3 * 20 + quiet) / 4;
    expect(m.forecast!.mid).toBeCloseTo(440 + 8 * mean, 9);
    expect(m.forecast!.low).toBeCloseTo(440 + 8 * quiet, 9);
    expect(m.forecast!.high).toBeCloseTo(440 + 8 * 20, 9);
  });

  it('weighs weekends as whole weeks do: no weekday-only guess', () => {
    const spend = (d: Day) => (isWeekend(d) ? 0 : 70);
    const m = forecastMonth(spend, FIRST, '2026-11-22');
    expect(m.forecast!.low).toBeCloseTo(m.forecast!.high, 9); // every week alike: no range
    expect(m.forecast!.mid).toBeCloseTo(m.monthToDate + 8 * 50, 9); // 5 × 70 / 7 a day
  });

  it('says when there is too little history: no forecast under a week, fewer weeks when history is short', () => {
    const short = forecastMonth(flat(5), FIRST, '2026-01-19');
    expect(short.forecast).toBeNull();
    expect(short.basisDays).toBe(6);
    expect(short.monthToDate).toBe(30); // Jan 14 … 19: nothing counted before history
    const two = forecastMonth(flat(5), FIRST, '2026-01-29');
    expect(two.basisDays).toBe(14);
    expect(two.forecast!.mid).toBeCloseTo(16 * 5 + 2 * 5, 9);
  });

  it('has nothing left on the last day of a month', () => {
    const m = forecastMonth(flat(3), FIRST, '2026-02-28');
    expect(m.daysLeft).toBe(0);
    expect(m.forecast).toEqual({ low: m.monthToDate, mid: m.monthToDate, high: m.monthToDate });
    expect(monthEnd('2028-02-10')).toBe('2028-02-29');
  });
});

describe('the budget state', () => {
  const latest: Day = '2026-11-22';
  it('is on track when even the busiest weeks stay under it', () => {
    const m = forecastMonth(flat(10), FIRST, latest);
    expect(budgetStatus(400, m, flat(10), FIRST)).toEqual({
      budget: 400,
      state: 'on-track',
      crossing: null,
      crossingForecast: true,
    });
  });

  it('is at risk when the forecast would pass it, naming the day the middle crosses it', () => {
    const m = forecastMonth(flat(10), FIRST, latest); // 220 so far, 300 by the 30th
    const s = budgetStatus(250, m, flat(10), FIRST);
    expect(s.state).toBe('at-risk');
    expect(s.crossing).toBe('2026-11-26'); // 220 + 4 × 10 = 260 > 250 (3 days: 250, not over)
    expect(s.crossingForecast).toBe(true);
  });

  it('is at risk when only the busy weeks would pass it, with no crossing day for the middle', () => {
    const spend = (d: Day) => (d >= addDays(latest, -6) ? 30 : 10); // a busy last week
    const m = forecastMonth(spend, FIRST, latest);
    const budget = m.forecast!.mid + 1;
    const s = budgetStatus(budget, m, spend, FIRST);
    expect(s.state).toBe('at-risk');
    expect(s.crossing).toBeNull();
  });

  it('is over once the month so far passed it, naming the day it did', () => {
    const m = forecastMonth(flat(10), FIRST, latest);
    expect(budgetStatus(95, m, flat(10), FIRST)).toEqual({
      budget: 95,
      state: 'over',
      crossing: '2026-11-10',
      crossingForecast: false,
    });
  });
});
