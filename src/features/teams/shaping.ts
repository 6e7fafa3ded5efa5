/** Pure shaping of the teams summary: the tree's order under a sort, team links, trends, the CSV. */
import { ORGANIZATION, UNASSIGNED, type TeamFigures, type TeamSummaryRow, type TeamView } from '../../api/teams';
import { sortRows, type Column } from '../../components/DataTable';
import type { SortState } from '../../data/search';
import type { CsvValue } from '../../lib/csv';
import { addDays, formatDayShort, type DayRange } from '../../lib/dates';
import { perCommit, perPullRequest } from '../../lib/definitions';
import { formatChange, formatCompact, relativeChange } from '../../lib/format';

export const SEPARATOR = '/';

export const isOrganization = (r: TeamSummaryRow) => r.team === ORGANIZATION;
export const isUnassigned = (r: TeamSummaryRow) => r.team === UNASSIGNED;
/** The teams the mapping names (not the organization, not Unassigned). */
export const namedTeams = (rows: readonly TeamSummaryRow[]) =>
  rows.filter((r) => !isOrganization(r) && !isUnassigned(r));

/** The team page's address: each part of the path encoded, the slashes kept. */
export function teamHref(path: string): string {
  return `/teams/${path.split(SEPARATOR).map(encodeURIComponent).join(SEPARATOR)}`;
}

/** The teams above `path`, top first: `A/B/C` → `A`, `A/B`. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split(SEPARATOR);
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join(SEPARATOR));
}

/** The last part of a path: `A/B/C` → `C`. */
export const lastPart = (path: string) => path.split(SEPARATOR).at(-1) ?? path;

/** The parent a row is shown under: '' for the top level (and for a sub-team whose parent is missing). */
function parentOf(r: TeamSummaryRow, known: ReadonlySet<string>): string {
  return r.depth > 1 && r.parent && known.has(r.parent) ? r.parent : '';
}

/**
 * The rows in the order the tree shows them: the organization first, then each level's teams sorted
 * among their siblings, each followed by its sub-teams when it is expanded (`'all'`: every team).
 * Unassigned stays last among the top-level rows whatever the sort: it is not a team.
 */
export function treeOrder(
  rows: readonly TeamSummaryRow[],
  columns: readonly Column<TeamSummaryRow>[],
  sort: SortState,
  expanded: ReadonlySet<string> | 'all',
): TeamSummaryRow[] {
  const known = new Set(rows.map((r) => r.team));
  const children = new Map<string, TeamSummaryRow[]>();
  for (const r of rows) {
    if (isOrganization(r)) continue;
    const p = parentOf(r, known);
    const list = children.get(p);
    if (list) list.push(r);
    else children.set(p, [r]);
  }
  const out: TeamSummaryRow[] = rows.filter(isOrganization);
  const walk = (parent: string) => {
    const sorted = sortRows(children.get(parent) ?? [], columns, sort);
    const ordered =
      parent === '' ? [...sorted.filter((r) => !isUnassigned(r)), ...sorted.filter(isUnassigned)] : sorted;
    for (const r of ordered) {
      out.push(r);
      if (expanded === 'all' || expanded.has(r.team)) walk(r.team);
    }
  };
  walk('');
  return out;
}

/** The direct sub-teams of `path` in the summary. */
export const subTeamsOf = (rows: readonly TeamSummaryRow[], path: string) =>
  rows.filter((r) => r.depth > 1 && r.parent === path);

/** Every team of the tree, at every level. */
export function countTeams(teams: readonly TeamView[]): number {
  return teams.reduce((n, t) => n + 1 + countTeams(t.children), 0);
}

/** A figure's relative change against the previous period; null without a previous period or a base. */
export function change(r: TeamSummaryRow, pick: (f: TeamFigures) => number): number | null {
  return r.previous ? relativeChange(pick(r.current), pick(r.previous)) : null;
}

/** How the second half of the trend compares with the first (null for fewer than two days or a zero first half). */
export function trendChange(trend: readonly number[]): number | null {
  if (trend.length < 2) return null;
  const half = Math.floor(trend.length / 2);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  // With an odd number of days the middle one belongs to neither half.
  return relativeChange(sum(trend.slice(trend.length - half)), sum(trend.slice(0, half)));
}

/** The trend in words, for the sparkline's accessible name. */
export function trendLabel(name: string, trend: readonly number[], range: DayRange): string {
  if (trend.length === 0) return `${name}: no daily credits in this range`;
  const end = addDays(range.start, trend.length - 1);
  let peak = 0;
  trend.forEach((v, i) => {
    if (v > trend[peak]!) peak = i;
  });
  const c = trendChange(trend);
  const direction =
    c === null
      ? ''
      : Math.abs(c) < 0.05
        ? '; about level from the first half to the second'
        : `; second half ${formatChange(c)} on the first`;
  const most =
    trend[peak]! > 0
      ? `, most on ${formatDayShort(addDays(range.start, peak))} (${formatCompact(trend[peak]!)})`
      : ', none on any day';
  return `${name}: daily credits from ${formatDayShort(range.start)} to ${formatDayShort(end)}${most}${direction}`;
}

/** The CSV header: one row per team with its path, and the organization's totals first. */
export const TEAMS_CSV_HEADER = [
  'team_path',
  'team_name',
  'level',
  'parent_path',
  'managers',
  'members',
  'active_users',
  'active_users_previous',
  'active_users_change',
  'adoption',
  'credits',
  'credits_previous',
  'credits_change',
  'credits_per_active_user',
  'tool_calls',
  'user_turns',
  'tool_calls_per_turn',
  'sessions',
  'commits',
  'pull_requests',
  'credits_per_commit',
  'credits_per_pull_request',
  'daily_credits',
] as const;

/** Every row of the summary, in the tree's order under the table's sort, whatever is expanded. */
export function teamsCsv(
  rows: readonly TeamSummaryRow[],
  columns: readonly Column<TeamSummaryRow>[],
  sort: SortState,
  /** More columns at the end (the spend's, with a price list). */
  extra?: { header: readonly string[]; cells: (r: TeamSummaryRow) => CsvValue[] },
): { header: readonly string[]; rows: CsvValue[][] } {
  return {
    header: extra ? [...TEAMS_CSV_HEADER, ...extra.header] : TEAMS_CSV_HEADER,
    rows: treeOrder(rows, columns, sort, 'all').map((r) => {
      const c = r.current;
      return [
        r.team,
        isOrganization(r) ? r.name || 'Organization' : r.name,
        r.depth,
        r.parent ?? '',
        r.managers.join('; '),
        c.members,
        c.active,
        r.previous?.active,
        change(r, (f) => f.active),
        c.adoption,
        c.credits,
        r.previous?.credits,
        change(r, (f) => f.credits),
        c.creditsPerActive,
        c.toolCalls,
        c.userMessages,
        c.toolCallsPerTurn,
        c.sessions,
        c.commits,
        c.prs,
        perCommit(c.credits, c.commits),
        perPullRequest(c.credits, c.prs),
        r.trend.join(' '),
        ...(extra ? extra.cells(r) : []),
      ];
    }),
  };
}
