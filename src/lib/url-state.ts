/**
 * The date range as URL search parameters (`start`, `end`), parsed once with
 * defaults: the last 30 complete UTC days, clamped to [history start, latest].
 */
import { HISTORY_START, clampRange, isDay, lastDays, type Day, type DayRange } from './dates';

export const DEFAULT_DAYS = 30;

export function parseRange(params: URLSearchParams, latest: Day): DayRange {
  const start = params.get('start');
  const end = params.get('end');
  if (!isDay(start) || !isDay(end)) return lastDays(DEFAULT_DAYS, latest);
  return clampRange({ start, end }, latest);
}

/** Writes a range into a copy of the params; the default range leaves the URL clean. */
export function writeRange(params: URLSearchParams, r: DayRange, latest: Day): URLSearchParams {
  const next = new URLSearchParams(params);
  const d = lastDays(DEFAULT_DAYS, latest);
  if (r.start === d.start && r.end === d.end) {
    next.delete('start');
    next.delete('end');
  } else {
    next.set('start', r.start);
    next.set('end', r.end);
  }
  return next;
}

export type Preset = { id: string; label: string; range: (latest: Day) => DayRange };

export const PRESETS: readonly Preset[] = [
  { id: '7d', label: '7 days', range: (l) => lastDays(7, l) },
  { id: '30d', label: '30 days', range: (l) => lastDays(30, l) },
  { id: '90d', label: '90 days', range: (l) => lastDays(90, l) },
  { id: 'all', label: 'Since history start', range: (l) => clampRange({ start: HISTORY_START, end: l }, l) },
];

/** The preset a range equals, if any. */
export function presetOf(r: DayRange, latest: Day): string | undefined {
  return PRESETS.find((p) => {
    const x = p.range(latest);
    return x.start === r.start && x.end === r.end;
  })?.id;
}
