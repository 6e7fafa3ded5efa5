/** Pure shaping of the team comparison (`/compare?team=A&team=B…`): which teams, their colours, their days side by side. */
import { ApiError } from '../../api/errors';
import type { TeamSummaryRow } from '../../api/teams';
import type { WidgetSource } from '../../components/Widget';
import { fillDays } from '../../lib/series';
import type { Day, DayRange } from '../../lib/dates';

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 5;

/** A team of the comparison: its path, the key of its figures in a day's point, and its colour on every chart. */
export interface Compared {
  path: string;
  key: string;
  /** Its place among the teams the URL names: its colour (`seriesColor(index)`) on every chart of the page. */
  index: number;
}

/** The teams the URL names, each with its key and colour; a key never holds the path (a dot in it reads as a path in recharts). */
export const comparedTeams = (paths: readonly string[]): Compared[] =>
  paths.map((path, index) => ({ path, key: `team${index}`, index }));

/** What is wrong with the number of teams named, or null when it is 2 to 5. */
export function countProblem(paths: readonly string[]): string | null {
  const n = paths.length;
  if (n >= MIN_COMPARED && n <= MAX_COMPARED) return null;
  if (n === 0) return `Choose ${MIN_COMPARED} to ${MAX_COMPARED} teams to compare: no team is chosen yet.`;
  if (n < MIN_COMPARED)
    return `Choose ${MIN_COMPARED} to ${MAX_COMPARED} teams to compare: only ${paths[0]} is chosen. Add at least one more.`;
  return `A comparison shows ${MIN_COMPARED} to ${MAX_COMPARED} teams side by side; ${n} are chosen (${paths.join(', ')}). Remove ${n - MAX_COMPARED} of them.`;
}

/**
 * Why the server refused a team's figures, in its own words: a team the mapping does not have (400) or one
 * the reader may not see (403); null for any other failure (a retry may mend it) or none.
 */
export function refusal(error: unknown): string | null {
  return error instanceof ApiError && (error.status === 400 || error.status === 403) ? error.detail : null;
}

/** The summary's rows of the compared teams, in their order (a team without a row is left out). */
export function comparedRows(rows: readonly TeamSummaryRow[], teams: readonly Compared[]): TeamSummaryRow[] {
  const byPath = new Map(rows.map((r) => [r.team, r]));
  return teams.flatMap((t) => byPath.get(t.path) ?? []);
}

export type SideBySidePoint = { date: Day } & Record<string, number>;

/**
 * One point per day of the range with each team's figure under its key (`team0`, `team1`…), a day without a
 * row counting 0, as each team's own chart counts it; undefined until every team's days are in.
 */
export function sideBySide<T extends { date: string }>(
  range: DayRange,
  teams: readonly Compared[],
  days: readonly (readonly T[] | undefined)[],
  pick: (row: T) => number,
): SideBySidePoint[] | undefined {
  if (days.some((d) => d === undefined)) return undefined;
  const filled = teams.map((_, i) => fillDays(range, days[i]!, (r) => ({ v: pick(r) }), { v: 0 }));
  return (filled[0] ?? []).map((p, at) => {
    const point: SideBySidePoint = { date: p.date } as SideBySidePoint;
    teams.forEach((t, i) => (point[t.key] = filled[i]![at]!.v));
    return point;
  });
}

/** One widget source of several teams' queries: pending until all are in, the first failure shown, each asked again on Retry. */
export function combinedSource<T>(queries: readonly WidgetSource<unknown>[], data: T | undefined): WidgetSource<T> {
  const failed = queries.filter((q) => q.status === 'error');
  return {
    data,
    status: failed.length > 0 ? 'error' : data === undefined ? 'pending' : 'success',
    error: failed[0]?.error,
    isPlaceholderData: queries.some((q) => q.isPlaceholderData),
    isFetching: queries.some((q) => q.isFetching),
    refetch: () => failed.forEach((q) => q.refetch?.()),
  };
}
