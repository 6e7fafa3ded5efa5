/** Which days to ask the service for: pure functions over days, tested on their own. */
import { addDays, eachDay, type Day, type DayRange } from '../../lib/dates';

/**
 * A day is final once it is older than the refresh window: the latest day and
 * the `refreshDays - 1` before it may still be completed upstream, so a sync
 * asks for them again; a final day is asked for once, ever.
 */
export function isFinal(day: Day, latest: Day, refreshDays: number): boolean {
  return day <= addDays(latest, -Math.max(refreshDays, 0));
}

/**
 * The contiguous spans of days in [start, end] that need asking for, at most
 * `maxDays` long each: days not stored, and (when `refresh`) stored days that
 * were not final when they were stored.
 */
export function spansToFetch(
  range: DayRange,
  stored: ReadonlyMap<Day, boolean>,
  opts: { refresh: boolean; maxDays: number },
): DayRange[] {
  const spans: DayRange[] = [];
  let open: DayRange | null = null;
  for (const day of eachDay(range.start, range.end)) {
    const final = stored.get(day);
    const needed = final === undefined || (opts.refresh && !final);
    if (needed && open && eachDay(open.start, day).length <= opts.maxDays) {
      open.end = day;
    } else if (needed) {
      open = { start: day, end: day };
      spans.push(open);
    } else {
      open = null;
    }
  }
  return spans;
}

/** [start, end] cut into ranges of `days`, newest first: a backfill makes recent ranges ready first. */
export function newestFirst(range: DayRange, days: number): DayRange[] {
  const out: DayRange[] = [];
  for (let end = range.end; end >= range.start; end = addDays(end, -days)) {
    const start = addDays(end, -(days - 1));
    out.push({ start: start < range.start ? range.start : start, end });
  }
  return out;
}
