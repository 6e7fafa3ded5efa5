/**
 * The date range as URL search parameters (`start`, `end`), parsed once with
 * defaults: the last 30 complete UTC days, clamped to [history start, latest].
 */
import {
  HISTORY_START,
  addDays,
  addMonths,
  clampRange,
  isDay,
  lastDays,
  monthEnd,
  monthStart,
  quarterStart,
  type Day,
  type DayRange,
} from './dates';

export const DEFAULT_DAYS = 30;

/** The range the `start` and `end` parameters ask for: both valid days, clamped; otherwise the default. */
export function rangeFrom(start: string | null | undefined, end: string | null | undefined, latest: Day): DayRange {
  if (!isDay(start) || !isDay(end)) return lastDays(DEFAULT_DAYS, latest);
  return clampRange({ start, end }, latest);
}

export function parseRange(params: URLSearchParams, latest: Day): DayRange {
  return rangeFrom(params.get('start'), params.get('end'), latest);
}

/** The `start` and `end` parameters of a range; the default range leaves both out, keeping the URL clean. */
export function rangeParams(r: DayRange, latest: Day): { start?: Day; end?: Day } {
  const d = lastDays(DEFAULT_DAYS, latest);
  return r.start === d.start && r.end === d.end ? { start: undefined, end: undefined } : { start: r.start, end: r.end };
}

export type Preset = {
  id: string;
  label: string;
  /** The range on a latest day, within history; null when none of it is in history yet. */
  range: (latest: Day) => DayRange | null;
};

/** The days of [start, end] that are in history and not after `latest`; null when there are none. */
function within(start: Day, end: Day, latest: Day): DayRange | null {
  return end < HISTORY_START || start > latest ? null : clampRange({ start, end }, latest);
}

/** "This" month and quarter are the calendar's, today's (the day after the latest complete one). */
const today = (latest: Day) => addDays(latest, 1);

export const PRESETS: readonly Preset[] = [
  { id: '7d', label: '7 days', range: (l) => lastDays(7, l) },
  { id: '30d', label: '30 days', range: (l) => lastDays(30, l) },
  { id: '90d', label: '90 days', range: (l) => lastDays(90, l) },
  { id: 'mtd', label: 'This month', range: (l) => within(monthStart(today(l)), l, l) },
  {
    id: 'lastMonth',
    label: 'Last month',
    range: (l) => within(addMonths(today(l), -1), monthEnd(addMonths(today(l), -1)), l),
  },
  { id: 'qtd', label: 'This quarter', range: (l) => within(quarterStart(today(l)), l, l) },
  {
    id: 'lastQuarter',
    label: 'Last quarter',
    range: (l) => {
      const start = addMonths(quarterStart(today(l)), -3);
      return within(start, addDays(quarterStart(today(l)), -1), l);
    },
  },
  { id: 'all', label: 'Since history start', range: (l) => clampRange({ start: HISTORY_START, end: l }, l) },
];

/** The preset a range equals, if any (the first listed, when two give the same days). */
export function presetOf(r: DayRange, latest: Day): string | undefined {
  return PRESETS.find((p) => {
    const x = p.range(latest);
    return x !== null && x.start === r.start && x.end === r.end;
  })?.id;
}
