/**
 * The rules behind the highlights and the adoption cohorts (pure).
 *
 * A spike: a person's day far above their own usual level. The usual level is the median of their
 * active days in the 28 days before; "far above" is more than `k` robust deviations over it, the
 * deviation being the median absolute deviation (MAD) scaled by 1.4826 (so it estimates the standard
 * deviation of normal data) — medians, not means, so one earlier spike or a few idle days do not move
 * the bar. With fewer than 7 active days before, there is too little history to say what is usual. A
 * person who spends the same every day has a MAD of 0: the deviation then counts as at least a tenth
 * of the median, so a day a little above a flat habit is not a spike. And a spike is at least twice
 * the usual level, so a busy but ordinary day of a steady person is not one either.
 */

export const SPIKE_WINDOW = 28;
export const SPIKE_MIN_HISTORY = 7;
export const SPIKE_K = 4;
const MAD_TO_SD = 1.4826;

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export type SpikeVerdict =
  | { status: 'too-little-history'; days: number }
  | { status: 'spike' | 'usual'; median: number; deviation: number; threshold: number };

/** Whether `value` is a spike against `history` (the person's active days before it, at most 28). */
export function spikeVerdict(history: readonly number[], value: number, k = SPIKE_K): SpikeVerdict {
  if (history.length < SPIKE_MIN_HISTORY) return { status: 'too-little-history', days: history.length };
  const med = median(history);
  const mad = median(history.map((v) => Math.abs(v - med)));
  const deviation = Math.max(MAD_TO_SD * mad, 0.1 * med);
  const threshold = Math.max(med + k * deviation, 2 * med);
  return { status: value > threshold && value > 0 ? 'spike' : 'usual', median: med, deviation, threshold };
}

/** A team's active people fell sharply: at least `minBefore` the week before, and down by `drop` or more. */
export const DROP_SHARE = 0.3;
export const DROP_MIN_BEFORE = 5;
export function sharpDrop(before: number, now: number): boolean {
  return before >= DROP_MIN_BEFORE && now <= before * (1 - DROP_SHARE);
}

/** The weeks after joining at which a cohort's retention is read. */
export const COHORT_OFFSETS = [1, 2, 4, 8, 12, 16, 24, 32, 40, 52] as const;

export interface Cohort {
  /** The first day (a Monday, UTC) of the week its people were first active. */
  week: string;
  size: number;
  /** Per offset of COHORT_OFFSETS: the share of the cohort active in that week, or null when that week has not ended. */
  retention: (number | null)[];
}

/**
 * Cohorts by the week their people were first active: for each, the share of them active again
 * `offset` weeks later (in that week, any day). `weeksOf(user)` gives the indexes of the weeks a
 * person was active in (week 0 = the first week of history); `completeWeeks` is how many weeks of
 * history have ended, so a week still running is not read as a drop.
 */
export function cohorts(
  people: Iterable<readonly number[]>,
  weekStart: (index: number) => string,
  completeWeeks: number,
): Cohort[] {
  const byWeek = new Map<number, { size: number; back: number[] }>();
  for (const weeks of people) {
    if (weeks.length === 0) continue;
    const first = Math.min(...weeks);
    let c = byWeek.get(first);
    if (!c) byWeek.set(first, (c = { size: 0, back: COHORT_OFFSETS.map(() => 0) }));
    c.size++;
    const active = new Set(weeks);
    COHORT_OFFSETS.forEach((o, i) => {
      if (active.has(first + o)) c.back[i]!++;
    });
  }
  return [...byWeek.entries()]
    .sort(([a], [b]) => a - b)
    .map(([w, c]) => ({
      week: weekStart(w),
      size: c.size,
      retention: COHORT_OFFSETS.map((o, i) => (w + o < completeWeeks ? c.back[i]! / c.size : null)),
    }));
}
