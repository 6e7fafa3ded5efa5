/**
 * Readiness priced in friction and delegation headroom (issue #47), asked of the figures runner. Usage has no
 * repository, so the join is through the owning team:
 *
 * - **the teams compared** are the outermost teams owning a repository with a report (its owner by the mapping's
 *   `repos`, the most specific claim): a team's repositories are those it and its sub-teams own, its figures its
 *   people's and its sub-teams' (the runner's team rows), so no person counts for two teams;
 * - **a criterion's sides**: a team fails it when more than half of its repositories evaluated on it (not skipped)
 *   fail it, passes it when more than half pass; a tie or none evaluated puts it on neither side. A side's figures
 *   are ratios of its teams' sums, given only with `FRICTION_MIN_TEAMS` teams or more on each side;
 * - **headroom**: a team's readiness level is the lower median of its repositories' latest levels; at level 3 or
 *   above with more than half of its tool calls run manual or auto-low it has room to delegate more, at level 1 or 2
 *   with more than half auto-high or auto-medium it is a risk to look at;
 * - **privacy mode**: a team the mode does not show (teams/tree.ts `shownTeams`) is on no side and in no list, and
 *   counts no repository: every figure given is of groups the teams summary shows.
 */
import type { FrictionAnswer, FrictionCriterion, FrictionSide, HeadroomRow } from '../../api/friction';
import { CRITERIA_BY_ID, criterionName } from '../../api/criteria';
import { daysBetween, type DayRange } from '../../lib/dates';
import { FRICTION_MIN_TEAMS, ratioOfSums } from '../../lib/definitions';
import type { MeasureId } from '../../lib/measures';
import { criterionState, scoreReport, TARGET_LEVEL, type ScoredReportLike } from '../../lib/readiness';
import type { PriceList } from '../spend/prices';
import type { Mapping } from '../teams/mapping';
import { isWithin } from '../teams/tree';
import type { FiguresPrivacy, FiguresRunner } from './figures';

/** A repository with its owning team (null: no team owns it) and its latest report. */
export interface OwnedRepo {
  key: string;
  team: string | null;
  report: ScoredReportLike;
}

export interface FrictionQuestion {
  mapping: Mapping | null;
  /** The repositories asked about (those of the teams the reader asked for), each with its latest report. */
  repos: readonly OwnedRepo[];
  range: DayRange;
  privacy?: FiguresPrivacy;
  prices?: PriceList | null;
}

const SUMS = [
  'active',
  'toolCalls',
  'userMessages',
  'credits',
  'prs',
  'manualToolCalls',
  'lowAutonomyToolCalls',
  'highAutonomyToolCalls',
] as const satisfies readonly MeasureId[];

type Sums = Record<(typeof SUMS)[number] | 'spend', number>;

/** A team compared: its repositories (with their latest reports), its readiness level and its sums of the range. */
export interface Unit {
  team: string;
  repos: OwnedRepo[];
  level: number;
  sums: Sums;
}

/** The outermost owning teams, each with the repositories it and its sub-teams own. */
export function unitsOf(repos: readonly OwnedRepo[]): { team: string; repos: OwnedRepo[] }[] {
  const owners = [...new Set(repos.flatMap((r) => (r.team === null ? [] : [r.team])))];
  const outer = owners.filter((t) => !owners.some((o) => o !== t && isWithin(t, o))).sort();
  return outer.map((team) => ({ team, repos: repos.filter((r) => r.team !== null && isWithin(r.team, team)) }));
}

/** The lower median of levels: the highest level at least half of them stand at or above. */
export function lowerMedian(levels: readonly number[]): number {
  const sorted = [...levels].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** A team's side for a criterion: more than half of its repositories evaluated on it fail (or pass) it. */
export function sideOf(repos: readonly OwnedRepo[], id: string): 'failing' | 'passing' | null {
  let failed = 0;
  let passed = 0;
  for (const r of repos) {
    const c = r.report.report[id];
    const s = c && criterionState(c);
    if (s === 'failed') failed++;
    else if (s === 'passed') passed++;
  }
  return failed > passed ? 'failing' : passed > failed ? 'passing' : null;
}

/** Repositories of a list evaluated on a criterion (passed or failed, not skipped). */
const evaluated = (repos: readonly OwnedRepo[], id: string) =>
  repos.filter((r) => {
    const c = r.report.report[id];
    return c !== undefined && criterionState(c) !== 'skipped';
  }).length;

/** Each criterion's sides and the headroom lists, from the teams compared (pure: the oracle tests check it). */
export function frictionOf(
  units: readonly Unit[],
  opts: { range: DayRange; spend: boolean },
): Pick<FrictionAnswer, 'criteria' | 'headroom'> {
  const days = daysBetween(opts.range.start, opts.range.end) + 1;
  const ids = new Set<string>();
  for (const u of units)
    for (const r of u.repos)
      for (const id of Object.keys(r.report.report)) if (criterionState(r.report.report[id]!) === 'failed') ids.add(id);
  const criteria: FrictionCriterion[] = [...ids].map((id) => {
    const sides = { failing: [] as Unit[], passing: [] as Unit[] };
    for (const u of units) {
      const side = sideOf(u.repos, id);
      if (side) sides[side].push(u);
    }
    const shown = sides.failing.length >= FRICTION_MIN_TEAMS && sides.passing.length >= FRICTION_MIN_TEAMS;
    const sideFigures = (us: Unit[]): FrictionSide => {
      const sum = (k: keyof Sums) => us.reduce((n, u) => n + u.sums[k], 0);
      const perMonth = ratioOfSums(sum('spend'), sum('active'));
      return {
        names: us.map((u) => u.team),
        teams: us.length,
        repositories: us.reduce((n, u) => n + evaluated(u.repos, id), 0),
        activePeople: shown ? sum('active') : null,
        toolCallsPerTurn: shown ? ratioOfSums(sum('toolCalls'), sum('userMessages')) : null,
        creditsPerPr: shown ? ratioOfSums(sum('credits'), sum('prs')) : null,
        manualShare: shown ? ratioOfSums(sum('manualToolCalls'), sum('toolCalls')) : null,
        spendPerActiveMonth: shown && opts.spend && perMonth !== null ? (perMonth * 30) / days : null,
      };
    };
    const failing = sideFigures(sides.failing);
    const passing = sideFigures(sides.passing);
    return {
      id,
      name: criterionName(id),
      level: CRITERIA_BY_ID.get(id)?.level ?? null,
      shown,
      failing,
      passing,
      spendDifference:
        failing.spendPerActiveMonth !== null && passing.spendPerActiveMonth !== null
          ? failing.spendPerActiveMonth - passing.spendPerActiveMonth
          : null,
    };
  });
  criteria.sort(
    (a, b) =>
      Number(b.shown) - Number(a.shown) ||
      b.failing.teams - a.failing.teams ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const row = (u: Unit): HeadroomRow => ({
    team: u.team,
    level: u.level,
    repositories: u.repos.length,
    toolCalls: u.sums.toolCalls,
    lowAutonomyShare: ratioOfSums(u.sums.lowAutonomyToolCalls, u.sums.toolCalls),
    highAutonomyShare: ratioOfSums(u.sums.highAutonomyToolCalls, u.sums.toolCalls),
  });
  const rows = units.map(row);
  const by = (k: 'lowAutonomyShare' | 'highAutonomyShare') => (a: HeadroomRow, b: HeadroomRow) =>
    (b[k] ?? 0) - (a[k] ?? 0) || (a.team < b.team ? -1 : 1);
  return {
    criteria,
    headroom: {
      room: rows.filter((r) => r.level >= TARGET_LEVEL && (r.lowAutonomyShare ?? 0) > 0.5).sort(by('lowAutonomyShare')),
      risk: rows
        .filter((r) => r.level < TARGET_LEVEL && (r.highAutonomyShare ?? 0) > 0.5)
        .sort(by('highAutonomyShare')),
    },
  };
}

/** The teams compared with their sums of the range, asked of the runner (privacy mode's hidden teams left out). */
export async function unitsWithSums(runner: FiguresRunner, q: FrictionQuestion): Promise<Unit[]> {
  let owned = unitsOf(q.repos);
  if (q.privacy) {
    const shown = await runner.shown(q.mapping, q.privacy.minGroup);
    owned = owned.filter((u) => shown.has(u.team));
  }
  if (owned.length === 0) return [];
  const spend = q.prices ? (['spend'] as const) : [];
  const answer = await runner.ask({
    mapping: q.mapping,
    measures: [...SUMS, ...spend],
    range: q.range,
    by: 'team',
    scope: { people: owned.map((u) => u.team), ...(q.privacy && { privacy: q.privacy }) },
    prices: q.prices ?? null,
  });
  const rows = new Map(answer.rows.map((r) => [r.key, r.current]));
  return owned.map((u) => {
    const v = rows.get(u.team);
    const sums = Object.fromEntries(
      [...SUMS, 'spend' as const].map((m) => [m, (v as Record<string, number | null> | undefined)?.[m] ?? 0]),
    ) as Sums;
    return { ...u, level: lowerMedian(u.repos.map((r) => scoreReport(r.report, () => undefined).level)), sums };
  });
}

/** Readiness priced in friction and the headroom lists for the repositories and range asked. */
export async function askFriction(runner: FiguresRunner, q: FrictionQuestion): Promise<FrictionAnswer> {
  const units = await unitsWithSums(runner, q);
  return {
    range: q.range,
    minTeams: FRICTION_MIN_TEAMS,
    currency: q.prices?.currency ?? null,
    teams: units.length,
    ...frictionOf(units, { range: q.range, spend: Boolean(q.prices) }),
  };
}
