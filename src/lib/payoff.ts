/**
 * "Did it pay off": whether a team's agent figures moved when its repositories' readiness levels did. Pure
 * functions over plain data, so the rule is tested on constructed histories:
 *
 * - a repository's level history is a list of level points (`{repo, day, level}`, one per report); its
 *   level changes on a day whose last level differs from the previous reported day's;
 * - a team's comparison for a change puts the `PAYOFF_WEEKS` (4) whole weeks before the week of the change
 *   beside the 4 whole weeks after it, inside the range; the week of the change itself is left out (it holds
 *   days on both sides), and so are weeks the range cuts. Changes of the same direction in the same week are
 *   one comparison, naming each repository. With fewer than `MIN_WEEKS` (2) whole weeks on either side there
 *   is no comparison, only the reason;
 * - across teams, each team that owns repositories: the mean latest level of its repositories against its
 *   figures over the range; with fewer than `MIN_TEAMS` (3) such teams, nothing but the reason.
 *
 * Figures over several weeks are ratios of their sums (as every range's, lib/definitions.ts); active people
 * are the mean of the weeks' active people. This is correlation over few points, never a cause: the pages
 * say so with the counts behind each figure.
 */
import { weekStart, type Day, type DayRange } from './dates';
import { perCommit, perPullRequest, ratioOfSums, toolCallsPerTurn } from './definitions';
import type { WeekFigures } from './outcomes';

/** Whole weeks compared on each side of a change. */
export const PAYOFF_WEEKS = 4;
/** Fewer whole weeks than this on either side of a change: too little to compare. */
export const MIN_WEEKS = 2;
/** Fewer teams owning repositories than this: too little to compare teams. */
export const MIN_TEAMS = 3;

export const CORRELATION_CAVEAT =
  'This is correlation over few points, not cause: other things changed in the same weeks, and a handful of weeks or teams can line up by chance.';

/** A repository's level on the day of one of its reports. */
export interface LevelPoint {
  /** The repository's key (`host/owner/name`). */
  repo: string;
  day: Day;
  level: number;
}

export interface LevelChange {
  repo: string;
  /** The day of the first report at the new level. */
  day: Day;
  from: number;
  to: number;
  direction: 'rise' | 'fall';
}

/** Each repository's level changes on days inside the range (the level before the range counts as "from"). */
export function levelChanges(points: readonly LevelPoint[], range: DayRange): LevelChange[] {
  // Per repository, each day's last level (reports of one day: the latest given).
  const byRepo = new Map<string, Map<Day, number>>();
  const ordered = points.map((p, i) => ({ p, i })).sort((a, b) => a.p.day.localeCompare(b.p.day) || a.i - b.i);
  for (const { p } of ordered) {
    let days = byRepo.get(p.repo);
    if (!days) byRepo.set(p.repo, (days = new Map()));
    days.delete(p.day);
    days.set(p.day, p.level);
  }
  const out: LevelChange[] = [];
  for (const [repo, days] of byRepo) {
    let before: number | undefined;
    for (const [day, level] of days) {
      if (before !== undefined && level !== before && day >= range.start && day <= range.end) {
        out.push({ repo, day, from: before, to: level, direction: level > before ? 'rise' : 'fall' });
      }
      before = level;
    }
  }
  return out.sort((a, b) => a.day.localeCompare(b.day) || a.repo.localeCompare(b.repo));
}

/** Each repository's latest level on or before a day. */
export function latestLevels(points: readonly LevelPoint[], asOf: Day): Map<string, number> {
  const latest = new Map<string, { day: Day; level: number }>();
  for (const p of points) {
    if (p.day > asOf) continue;
    const cur = latest.get(p.repo);
    if (!cur || p.day >= cur.day) latest.set(p.repo, { day: p.day, level: p.level });
  }
  return new Map([...latest].map(([repo, v]) => [repo, v.level]));
}

/** The figures compared, over one or more weeks. */
export interface PayoffFigures {
  toolCallsPerTurn: number | null;
  creditsPerCommit: number | null;
  creditsPerPr: number | null;
  /** The mean of the weeks' active people. */
  activePeople: number | null;
}

/** Ratios of the weeks' sums; active people, the mean of the weeks that have them. */
export function figuresOver(weeks: readonly WeekFigures[]): PayoffFigures {
  const sum = (f: (w: WeekFigures) => number) => weeks.reduce((s, w) => s + f(w), 0);
  const active = weeks.flatMap((w) => (w.active === null ? [] : [w.active]));
  return {
    toolCallsPerTurn: toolCallsPerTurn(
      sum((w) => w.toolCalls),
      sum((w) => w.userMessages),
    ),
    creditsPerCommit: perCommit(
      sum((w) => w.credits),
      sum((w) => w.commits),
    ),
    creditsPerPr: perPullRequest(
      sum((w) => w.credits),
      sum((w) => w.prs),
    ),
    activePeople: ratioOfSums(
      active.reduce((s, a) => s + a, 0),
      active.length,
    ),
  };
}

export interface Side {
  /** The Mondays of the whole weeks behind the figures. */
  weeks: Day[];
  figures: PayoffFigures;
}

interface ComparisonBase {
  /** The Monday of the week of the change(s). */
  week: Day;
  direction: LevelChange['direction'];
  changes: LevelChange[];
  /** Distinct repositories behind the comparison. */
  repos: number;
}
export type Comparison = ComparisonBase &
  ({ before: Side; after: Side; reason?: undefined } | { reason: string; before?: undefined; after?: undefined });

const weeksWord = (n: number) => `${n} whole week${n === 1 ? '' : 's'}`;

/** A team's figures before and after each week its repositories' levels rose (or fell). */
export function payoffComparisons(
  changes: readonly LevelChange[],
  weeks: readonly WeekFigures[],
  n: number = PAYOFF_WEEKS,
  min: number = MIN_WEEKS,
): Comparison[] {
  const groups = new Map<string, LevelChange[]>();
  for (const c of changes) {
    const key = `${weekStart(c.day)}|${c.direction}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const whole = weeks.filter((w) => w.days === 7).sort((a, b) => a.week.localeCompare(b.week));
  const out: Comparison[] = [];
  for (const [key, group] of groups) {
    const [week, direction] = key.split('|') as [Day, LevelChange['direction']];
    const base = { week, direction, changes: group, repos: new Set(group.map((c) => c.repo)).size };
    const before = whole.filter((w) => w.week < week).slice(-n);
    const after = whole.filter((w) => w.week > week).slice(0, n);
    if (before.length < min || after.length < min) {
      out.push({
        ...base,
        reason: `Too little to compare: ${weeksWord(before.length)} before and ${weeksWord(after.length)} after in the range; at least ${min} on each side are needed.`,
      });
      continue;
    }
    const side = (ws: WeekFigures[]): Side => ({ weeks: ws.map((w) => w.week), figures: figuresOver(ws) });
    out.push({ ...base, before: side(before), after: side(after) });
  }
  return out.sort((a, b) => a.week.localeCompare(b.week) || a.direction.localeCompare(b.direction));
}

/** Each owning team's latest levels: repositories with no team (Unowned) or no report are left out. */
export function levelsByTeam(
  repos: readonly { key: string; team: string | null }[],
  latest: ReadonlyMap<string, number>,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of repos) {
    const level = latest.get(r.key);
    if (r.team === null || level === undefined) continue;
    out.set(r.team, [...(out.get(r.team) ?? []), level]);
  }
  return out;
}

export interface TeamPoint {
  team: string;
  repos: number;
  meanLevel: number;
  figures: PayoffFigures;
}

/** Teams by their readiness against their figures, lowest level first; a reason instead with too few teams. */
export function acrossTeams(
  teams: readonly { team: string; levels: readonly number[]; figures: PayoffFigures }[],
  min: number = MIN_TEAMS,
): { points: TeamPoint[]; reason: string | null } {
  const points = teams
    .filter((t) => t.levels.length > 0)
    .map((t) => ({
      team: t.team,
      repos: t.levels.length,
      meanLevel: t.levels.reduce((s, l) => s + l, 0) / t.levels.length,
      figures: t.figures,
    }))
    .sort((a, b) => a.meanLevel - b.meanLevel || a.team.localeCompare(b.team));
  const reason =
    points.length < min
      ? `Too little to compare: ${points.length === 1 ? '1 team owns' : `${points.length} teams own`} repositories with a readiness report; at least ${min} are needed.`
      : null;
  return { points, reason };
}
