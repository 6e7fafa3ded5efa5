/**
 * Intensity (issue #47): each person's use over the last four whole ISO weeks placed in a band by thresholds frozen
 * for a calendar quarter, so that a person's band moves because their own use changed, not because others' did. The
 * server computes the bands (server/analytics/figures.ts, as measures of lib/measures.ts); the rules both sides read
 * are here: the bands, their cut points, the weeks a band is of, and the quarter its thresholds are of.
 */
import { addDays, minDay, weekStart, type Day, type DayRange } from './dates';

/** The bands, heaviest first. */
export const BANDS = ['heavy', 'moderate', 'light', 'minimal', 'none'] as const;
export type Band = (typeof BANDS)[number];

/**
 * Where each band starts, as a percentile of the active people's credits over the four weeks (the quarter's
 * thresholds): Heavy at or above the 75th, Moderate at or above the median, Light at or above the 25th, Minimal
 * below it (any activity at all), None with no day of activity in the four weeks. Quartiles, so that on the weeks the
 * thresholds were computed from, each active band holds a quarter of the active people.
 */
export const CUTS = { p75: 0.75, p50: 0.5, p25: 0.25 } as const;

/** The smallest group whose bands are shown: fewer active people would make a share in a band a few persons' use. */
export const MIN_ACTIVE = 8;

/** How many whole ISO weeks a band is of. */
export const INTENSITY_WEEKS = 4;

/** A quarter's frozen thresholds, in standard credits over four weeks. */
export interface Thresholds {
  /** `2026-Q2`. */
  quarter: string;
  p25: number;
  p50: number;
  p75: number;
  /** The active people they were computed over. */
  people: number;
  /** The four whole weeks they were computed from. */
  basis: DayRange;
  /** When (an ISO instant). */
  computedAt: string;
  /** Whether an admin refreshed them (false: computed on first need). */
  refreshed: boolean;
}

const QUARTER = /^(\d{4})-Q([1-4])$/;

export const isQuarter = (s: unknown): s is string => typeof s === 'string' && QUARTER.test(s);

/** The calendar quarter holding a day: `2026-Q2`. */
export const quarterOf = (day: Day): string =>
  `${day.slice(0, 4)}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;

/** A quarter's days, first to last. */
export function quarterRange(quarter: string): DayRange {
  const [, year, n] = QUARTER.exec(quarter)!;
  const month = (Number(n) - 1) * 3 + 1;
  const start = `${year}-${String(month).padStart(2, '0')}-01`;
  const next = month + 3 > 12 ? `${Number(year) + 1}-01-01` : `${year}-${String(month + 3).padStart(2, '0')}-01`;
  return { start, end: addDays(next, -1) };
}

/** The last Sunday on or before a day: the end of the latest whole ISO week by then. */
export const sundayBy = (day: Day): Day => addDays(weekStart(addDays(day, 1)), -1);

/** The four whole ISO weeks (Monday to Sunday) ending on the last Sunday on or before `asOf`: what a band is of. */
export function weeksTo(asOf: Day): DayRange {
  const end = sundayBy(asOf);
  return { start: addDays(end, -(7 * INTENSITY_WEEKS - 1)), end };
}

/**
 * The weeks a quarter's thresholds are computed from: the four whole weeks to the latest day with data, or to the
 * quarter's last day for a quarter past. Computed on a quarter's first day, they are the four weeks before it.
 */
export const basisOf = (quarter: string, latest: Day): DayRange => weeksTo(minDay(latest, quarterRange(quarter).end));

/** A band's value of a person's credits over the four weeks (null: no day of activity in them). */
export function bandOf(credits: number | null, t: Pick<Thresholds, 'p25' | 'p50' | 'p75'>): Band {
  if (credits === null) return 'none';
  return credits >= t.p75 ? 'heavy' : credits >= t.p50 ? 'moderate' : credits >= t.p25 ? 'light' : 'minimal';
}
