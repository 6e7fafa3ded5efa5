/**
 * The rule of the highlights' drops (pure): a team's active people fell sharply week over week. The spike
 * rule and the cohorts are SQL (analytics/insights.ts).
 */

/** A team's active people fell sharply: at least `minBefore` the week before, and down by `drop` or more. */
export const DROP_SHARE = 0.3;
export const DROP_MIN_BEFORE = 5;
export function sharpDrop(before: number, now: number): boolean {
  return before >= DROP_MIN_BEFORE && now <= before * (1 - DROP_SHARE);
}
