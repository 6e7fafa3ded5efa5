/** Pure shaping of daily rows into chart series. */
import { HISTORY_START, eachDay, maxDay, type Day, type DayRange } from './dates';

/**
 * One point per day of the range (from history start on), taking values from
 * `rows` by date and zero where the service returned no row.
 */
export function fillDays<T extends { date: string }, P extends Record<string, number>>(
  range: DayRange,
  rows: readonly T[],
  pick: (row: T) => P,
  zero: P,
): (P & { date: Day })[] {
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const start = maxDay(range.start, HISTORY_START);
  if (start > range.end) return [];
  return eachDay(start, range.end).map((date) => {
    const row = byDate.get(date);
    return { ...(row ? pick(row) : zero), date };
  });
}

/** Sum of a numeric field over rows. */
export function sumBy<T>(rows: readonly T[], f: (r: T) => number): number {
  let s = 0;
  for (const r of rows) s += f(r);
  return s;
}
