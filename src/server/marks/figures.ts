/**
 * "Did our change work": a mark's scope's figures over the whole ISO weeks before it beside as many whole weeks
 * after it, as "Did it pay off" puts readiness levels (lib/payoff.ts). The week holding the mark is left out (it
 * holds days on both sides); each side has the same number of whole weeks, up to `MARK_WEEKS`, within the history
 * and the days the service has answered for. Every figure is asked of the figures runner (its `compare` given the
 * weeks before), so a ratio is the ratio of the weeks' sums and active people are distinct over the weeks.
 */
import type { MarkFigures } from '../../api/marks';
import {
  addDays,
  daysBetween,
  formatDayLong,
  HISTORY_START,
  weekStart,
  type Day,
  type DayRange,
} from '../../lib/dates';
import type { MeasureId } from '../../lib/measures';
import type { FiguresPrivacy, FiguresRunner } from '../analytics/figures';
import type { PriceList } from '../spend/prices';
import type { Mapping } from '../teams/mapping';

/** Whole weeks compared on each side of a mark, at most. */
export const MARK_WEEKS = 4;

/** The figures compared, without a price list. */
export const MARK_MEASURES = [
  'active',
  'credits',
  'creditsPerActive',
  'toolCallsPerTurn',
  'commits',
  'prs',
  'creditsPerCommit',
  'creditsPerPr',
] as const satisfies readonly MeasureId[];
/** With a price list in force, spend and its ratios too. */
export const MARK_SPEND_MEASURES = [
  'spend',
  'spendPerActive',
  'spendPerCommit',
  'spendPerPr',
] as const satisfies readonly MeasureId[];

export type MarkWeeks =
  | { week: Day; weeks: number; before: DayRange; after: DayRange; reason: null }
  | { week: Day; weeks: 0; before: null; after: null; reason: string };

const weeksWord = (n: number) => `${n} whole week${n === 1 ? '' : 's'}`;

/**
 * The whole weeks compared around a mark of `day`: as many on each side, up to `max`, the before ones from the
 * history's first day (`first`) on, the after ones ending by the latest day with data; none, and why, when either
 * side has no whole week.
 */
export function markWeeks(day: Day, latest: Day, max: number = MARK_WEEKS, first: Day = HISTORY_START): MarkWeeks {
  const week = weekStart(day);
  const before = Math.max(0, Math.floor(daysBetween(first, week) / 7));
  const after = Math.max(0, Math.floor((daysBetween(week, latest) - 6) / 7));
  const n = Math.min(max, before, after);
  if (after === 0) {
    const end = addDays(week, 13);
    return {
      week,
      weeks: 0,
      before: null,
      after: null,
      reason: `Too recent to tell: the first whole week after it ends on ${formatDayLong(end)}, and the data run to ${formatDayLong(latest)}.`,
    };
  }
  if (before === 0)
    return {
      week,
      weeks: 0,
      before: null,
      after: null,
      reason: `Too early to tell: the history starts on ${formatDayLong(first)}, with no whole week before the week of this mark.`,
    };
  return {
    week,
    weeks: n,
    before: { start: addDays(week, -7 * n), end: addDays(week, -1) },
    after: { start: addDays(week, 7), end: addDays(week, 7 * n + 6) },
    reason: null,
  };
}

/** The words of a comparison's extent: "4 whole weeks on each side". */
export const weeksOnEachSide = (n: number) => `${weeksWord(n)} on each side`;

export interface MarkFiguresQuestion {
  mark: { id: string; day: Day; team: string };
  latest: Day;
  mapping: Mapping | null;
  prices: PriceList | null;
  /** For a reader in privacy mode: the runner names no one, and the route has already refused a team it hides. */
  privacy?: FiguresPrivacy;
  /** Fills the days from the service first, as every figure's route does. */
  fill: (r: DayRange, from: 'users' | 'tokens') => Promise<void>;
}

/** The mark's scope's figures over the weeks before and after it, asked of the runner. */
export async function markFigures(runner: FiguresRunner, q: MarkFiguresQuestion): Promise<MarkFigures> {
  const { mark } = q;
  const weeks = markWeeks(mark.day, q.latest);
  const base = { id: mark.id, day: mark.day, team: mark.team, currency: q.prices?.currency ?? null };
  if (weeks.reason !== null) return { ...base, ...weeks, figures: [] };
  const span = { start: weeks.before.start, end: weeks.after.end };
  await q.fill(span, 'users');
  if (q.prices) await q.fill(span, 'tokens');
  const measures: readonly MeasureId[] = q.prices ? [...MARK_MEASURES, ...MARK_SPEND_MEASURES] : MARK_MEASURES;
  const answer = await runner.ask({
    mapping: q.mapping,
    measures,
    range: weeks.after,
    compare: weeks.before,
    by: 'total',
    scope: { people: mark.team === '' ? null : [mark.team], ...(q.privacy && { privacy: q.privacy }) },
    prices: q.prices,
  });
  const row = answer.rows[0]!;
  return {
    ...base,
    ...weeks,
    figures: measures.map((m) => ({
      measure: m,
      before: row.previous?.[m] ?? null,
      after: row.current[m],
      change: row.change?.[m] ?? null,
    })),
  };
}
