/**
 * UTC calendar days as `YYYY-MM-DD` strings. Every computation goes through
 * `Date.UTC` / `getUTC*`, so results never depend on the machine's time zone.
 */
export type Day = string;

export const HISTORY_START: Day = '2026-01-14';
const DAY_MS = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar day written as `YYYY-MM-DD`. */
export function isDay(s: unknown): s is Day {
  if (typeof s !== 'string') return false;
  const m = DAY_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Milliseconds at 00:00 UTC of a day. */
export function dayToMs(day: Day): number {
  const m = DAY_RE.exec(day);
  if (!m) throw new RangeError(`not a day: ${day}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** The UTC day containing an instant. */
export function msToDay(ms: number): Day {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Days added, as asked lately: the same few days are added to thousands of times (every team's month, a forecast). */
const added = new Map<string, Day>();

export function addDays(day: Day, n: number): Day {
  // A day is ten characters: the key names the day and the number of days apart.
  const key = day + n;
  let out = added.get(key);
  if (out === undefined) {
    out = msToDay(dayToMs(day) + n * DAY_MS);
    if (added.size >= 10_000) added.clear();
    added.set(key, out);
  }
  return out;
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: Day, b: Day): number {
  return Math.round((dayToMs(b) - dayToMs(a)) / DAY_MS);
}

/** Every day from `start` to `end`, both included. */
export function eachDay(start: Day, end: Day): Day[] {
  const out: Day[] = [];
  for (let t = dayToMs(start), e = dayToMs(end); t <= e; t += DAY_MS) out.push(msToDay(t));
  return out;
}

export function todayUtc(now: number = Date.now()): Day {
  return msToDay(now);
}

/** The latest day the service answers for: yesterday in UTC. */
export function yesterdayUtc(now: number = Date.now()): Day {
  return addDays(todayUtc(now), -1);
}

export const minDay = (a: Day, b: Day): Day => (a < b ? a : b);
export const maxDay = (a: Day, b: Day): Day => (a > b ? a : b);

/** Monday of the ISO week holding `day`. */
export function weekStart(day: Day): Day {
  const dow = new Date(dayToMs(day)).getUTCDay(); // 0 = Sunday
  return addDays(day, -((dow + 6) % 7));
}

/** The ISO weeks a range touches: each one's Monday, from the first to the last. */
export function weeksOf(r: DayRange): Day[] {
  const out: Day[] = [];
  for (let w = weekStart(r.start); w <= r.end; w = addDays(w, 7)) out.push(w);
  return out;
}

export function isWeekend(day: Day): boolean {
  const dow = new Date(dayToMs(day)).getUTCDay();
  return dow === 0 || dow === 6;
}

export interface DayRange {
  start: Day;
  end: Day;
}

export function rangeLength(r: DayRange): number {
  return daysBetween(r.start, r.end) + 1;
}

/**
 * Brings a range inside [HISTORY_START, latest]; swaps reversed ends.
 */
export function clampRange(r: DayRange, latest: Day): DayRange {
  let { start, end } = r;
  if (start > end) [start, end] = [end, start];
  const lo = HISTORY_START;
  const hi = maxDay(latest, lo);
  start = minDay(maxDay(start, lo), hi);
  end = minDay(maxDay(end, lo), hi);
  return { start, end };
}

/** The last `days` complete days ending on `latest`, clamped to history. */
export function lastDays(days: number, latest: Day): DayRange {
  return clampRange({ start: addDays(latest, -(days - 1)), end: latest }, latest);
}

/** The first day of the calendar month holding `day`. */
export const monthStart = (day: Day): Day => `${day.slice(0, 8)}01`;

/** The last day of the calendar month holding `day`. */
export function monthEnd(day: Day): Day {
  return addDays(addMonths(monthStart(day), 1), -1);
}

/** The first day of the month `n` months after the one holding `day` (before it when `n` is negative). */
export function addMonths(day: Day, n: number): Day {
  const m = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 + n;
  return `${String(Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}-01`;
}

/** The first day of the calendar quarter (Jan, Apr, Jul, Oct) holding `day`. */
export function quarterStart(day: Day): Day {
  const month = Number(day.slice(5, 7)) - 1;
  return addMonths(`${day.slice(0, 4)}-01-01`, month - (month % 3));
}

/**
 * A range read as a calendar month: it starts on a month's first day and ends within that month.
 * Such a range is compared with the previous calendar month: the whole of it when the range is the
 * whole month, else the same days of it (March 1–30 against February 1–28).
 */
function calendarMonthBefore(r: DayRange): DayRange | null {
  if (r.start !== monthStart(r.start) || monthStart(r.end) !== r.start) return null;
  const start = addMonths(r.start, -1);
  const last = monthEnd(start);
  if (r.end === monthEnd(r.end)) return { start, end: last };
  return { start, end: minDay(`${start.slice(0, 8)}${r.end.slice(8)}`, last) };
}

/**
 * A range read as a calendar quarter: it starts on a quarter's first day and ends within that quarter, past its
 * first month (a range within one month is a month's). Compared with the previous quarter: the whole of it when the
 * range is the whole quarter, else the same days of it (Oct 1 – Nov 21 against Jul 1 – Aug 21).
 */
function calendarQuarterBefore(r: DayRange): DayRange | null {
  if (r.start !== quarterStart(r.start) || quarterStart(r.end) !== r.start || monthStart(r.end) === r.start)
    return null;
  const start = addMonths(r.start, -3);
  const quarterEnd = addDays(addMonths(r.start, 3), -1);
  if (r.end === quarterEnd) return { start, end: addDays(r.start, -1) };
  // The same month of the quarter before, the same day of it (or its last).
  const months = Number(r.end.slice(5, 7)) - Number(r.start.slice(5, 7));
  const month = addMonths(start, months);
  return { start, end: minDay(`${month.slice(0, 8)}${r.end.slice(8)}`, monthEnd(month)) };
}

/**
 * The period `r` is compared with: for a calendar month (or its first days) the previous calendar
 * month (see `calendarMonthBefore`), for a calendar quarter (or its first months) the same days of the
 * previous quarter (`calendarQuarterBefore`), else the period of the same length just before; null when
 * any of it falls before history starts (a comparison against missing days would mislead).
 */
export function previousPeriod(r: DayRange): DayRange | null {
  const len = rangeLength(r);
  const prev = calendarMonthBefore(r) ??
    calendarQuarterBefore(r) ?? { start: addDays(r.start, -len), end: addDays(r.start, -1) };
  return prev.start < HISTORY_START ? null : prev;
}

/** What a change is against, in words: "vs April", "vs Apr 1–15", else "vs previous period" (of the same length). */
export function comparisonLabel(r: DayRange): string {
  const quarter = calendarQuarterBefore(r);
  if (quarter) {
    const q = Math.floor((Number(quarter.start.slice(5, 7)) - 1) / 3) + 1;
    return addDays(quarter.end, 1) === r.start
      ? `vs Q${q} ${quarter.start.slice(0, 4)}`
      : `vs ${formatDayShort(quarter.start)} – ${formatDayShort(quarter.end)}`;
  }
  const prev = calendarMonthBefore(r);
  if (!prev) return 'vs previous period';
  const name = MONTH_NAMES[Number(prev.start.slice(5, 7)) - 1]!;
  return prev.end === monthEnd(prev.start)
    ? `vs ${name}`
    : `vs ${formatDayShort(prev.start)}–${Number(prev.end.slice(8))}`;
}

/**
 * What a range is compared with, in a sentence's words: "the 30 days before", "the month before", "the quarter
 * before", "the same days of the month before" or "the same days of the quarter before".
 */
export function comparisonWords(r: DayRange, prev: DayRange): string {
  const quarter = addMonths(r.start, -3) === prev.start && quarterStart(r.start) === r.start;
  const unit = quarter ? 'quarter' : 'month';
  if (prev.end !== addDays(r.start, -1)) return `the same days of the ${unit} before`;
  if (rangeLength(prev) === rangeLength(r) && !(quarter || addMonths(r.start, -1) === prev.start))
    return `the ${rangeLength(prev).toLocaleString('en-US')} days before`;
  return `the ${unit} before`;
}

// Written out rather than through Intl.DateTimeFormat: no ICU start-up on the first paint (see format.ts).
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// prettier-ignore
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Mar 4": a day for axis ticks; a day string is a UTC day, so no time zone enters. */
export function formatDayShort(day: Day): string {
  if (!isDay(day)) return String(day);
  return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8))}`;
}

/** "Mar 4, 2026". */
export function formatDayLong(day: Day): string {
  if (!isDay(day)) return String(day);
  return `${formatDayShort(day)}, ${Number(day.slice(0, 4))}`;
}
