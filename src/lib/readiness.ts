/**
 * The readiness level rule of service-facts.md, in pure functions shared by the server and the SPA:
 * a criterion passes when numerator == denominator; a null numerator is skipped; pass rate = mean of
 * numerator/denominator over non-skipped criteria (each criterion weighs the same); level thresholds
 * 20/40/60/80 %. And what to fix next: for one repository, the failing criteria that take it to its next
 * level soonest; for a set of repositories (a team, the organization), the criteria whose fix brings the
 * most of those below the target level (3) up to it.
 *
 * The shapes here are structural (`lib` imports nothing outside it): the service's reports (api/schemas.ts)
 * fit them as they are.
 */
import { addDays, daysBetween, msToDay, type Day } from './dates';

/** A criterion's evaluation, as a report gives it. */
export interface CriterionScore {
  numerator: number | null;
  denominator: number;
}

/** What the rules read of a report. */
export interface ScoredReportLike {
  report: Readonly<Record<string, CriterionScore>>;
}

export type CriterionState = 'passed' | 'failed' | 'skipped';

export function criterionState(c: CriterionScore): CriterionState {
  if (c.numerator === null) return 'skipped';
  return c.numerator >= c.denominator ? 'passed' : 'failed';
}

/** A criterion's score from 0 to 1, or null when it does not count (skipped, or no application). */
export function criterionScore(c: CriterionScore): number | null {
  if (c.numerator === null || !(c.denominator > 0)) return null;
  return Math.min(1, Math.max(0, c.numerator / c.denominator));
}

/** Mean score over non-skipped criteria, or null when every criterion was skipped. */
export function passRate(results: readonly CriterionScore[]): number | null {
  let sum = 0;
  let n = 0;
  for (const c of results) {
    const s = criterionScore(c);
    if (s === null) continue;
    sum += s;
    n++;
  }
  return n === 0 ? null : sum / n;
}

export const LEVEL_THRESHOLDS = [0, 0.2, 0.4, 0.6, 0.8] as const;
export const TOP_LEVEL = 5;
/** A tiny epsilon keeps 0.6 computed as 0.59999… on level 4. */
const EPSILON = 1e-9;

/** 1 below 20 %, 2 from 20 %, 3 from 40 %, 4 from 60 %, 5 from 80 %. */
export function levelFor(rate: number | null): number {
  if (rate === null) return 1;
  const r = rate + EPSILON;
  let level = 1;
  for (let i = 1; i < LEVEL_THRESHOLDS.length; i++) if (r >= LEVEL_THRESHOLDS[i]!) level = i + 1;
  return level;
}

/** Share of the way from the current level's threshold to the next (1 at level 5). */
export function progressToNext(rate: number | null): number {
  const level = levelFor(rate);
  if (level >= TOP_LEVEL || rate === null) return level >= TOP_LEVEL ? 1 : 0;
  const lo = LEVEL_THRESHOLDS[level - 1]!;
  const hi = LEVEL_THRESHOLDS[level]!;
  return Math.min(1, Math.max(0, (rate - lo) / (hi - lo)));
}

/** The usual target for a repository (service-facts.md: "Level 3 is the usual target for a repository"). */
export const TARGET_LEVEL = 3;

/** What puts a repository at a level, by the rule above: "pass rate from 40 % to under 60 %". */
export function levelRule(level: number): string {
  // A no-break space keeps a figure and its % on one line.
  const pct = (x: number) => `${Math.round(x * 100)}\u00a0%`;
  const lo = LEVEL_THRESHOLDS[level - 1];
  if (lo === undefined) return 'not a level';
  if (level === 1) return `pass rate below ${pct(LEVEL_THRESHOLDS[1])}`;
  if (level >= TOP_LEVEL) return `pass rate ${pct(lo)} or more`;
  return `pass rate from ${pct(lo)} to under ${pct(LEVEL_THRESHOLDS[level]!)}`;
}

/** How repositories spread over the levels, and how many stand at the target level or above. */
export interface LevelSpread {
  /** Repositories at levels 1 to 5 (index 0 is level 1). */
  counts: number[];
  total: number;
  /** Each level's share of the repositories (all 0 with none). */
  shares: number[];
  /** Repositories at TARGET_LEVEL or above, and their share (null with none). */
  atTarget: number;
  atTargetShare: number | null;
  /** Whether every repository is at the target level or above; null with no repository. */
  met: boolean | null;
}

/** The spread of the given levels (each repository's, 1 to 5). */
export function levelSpread(levels: Iterable<number>): LevelSpread {
  const counts = [0, 0, 0, 0, 0];
  for (const l of levels) counts[Math.min(TOP_LEVEL, Math.max(1, l)) - 1]!++;
  const total = counts.reduce((a, b) => a + b, 0);
  const atTarget = counts.slice(TARGET_LEVEL - 1).reduce((a, b) => a + b, 0);
  return {
    counts,
    total,
    shares: counts.map((n) => (total ? n / total : 0)),
    atTarget,
    atTargetShare: total ? atTarget / total : null,
    met: total ? atTarget === total : null,
  };
}

/** The target in one plain sentence: whether it is met and, if not, how many repositories fall short. */
export function targetSentence(s: Pick<LevelSpread, 'total' | 'atTarget'>, targetName: string): string {
  const target = `level ${TARGET_LEVEL} · ${targetName}`;
  if (s.total === 0) return `Target ${target}: no repository evaluated yet.`;
  const below = s.total - s.atTarget;
  const of = (n: number) => `${n} of ${s.total} ${s.total === 1 ? 'repository' : 'repositories'}`;
  if (below === 0)
    return `Target met: ${s.total === 1 ? 'the repository is' : `all ${s.total} repositories are`} at ${target} or above.`;
  return `Target not met: ${of(below)} ${below === 1 ? 'is' : 'are'} below ${target}.`;
}

export interface ReportScore {
  passRate: number | null;
  level: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Completion of each level's known criteria (null when all were skipped or absent). */
  perLevel: Record<number, number | null>;
}

/**
 * A report's score; `levelOf` gives a known criterion's level (an unknown one counts in no level section).
 * Its criteria are read by their keys, here and below: a report's some 80 criteria are a record built key by key,
 * and reading it with `Object.entries` (an array per criterion) and `Object.values` made scoring the 6,052 reports
 * of 500 repositories take 170 ms instead of 70.
 */
export function scoreReport(report: ScoredReportLike, levelOf: (id: string) => number | undefined): ReportScore {
  const results: CriterionScore[] = [];
  const byLevel: Record<number, CriterionScore[]> = { 1: [], 2: [], 3: [], 4: [], 5: [] };
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const id of Object.keys(report.report)) {
    const c = report.report[id]!;
    results.push(c);
    const s = criterionState(c);
    if (s === 'passed') passed++;
    else if (s === 'failed') failed++;
    else skipped++;
    const level = levelOf(id);
    if (level !== undefined) byLevel[level]?.push(c);
  }
  const rate = passRate(results);
  const perLevel: Record<number, number | null> = {};
  for (const l of [1, 2, 3, 4, 5]) perLevel[l] = passRate(byLevel[l]!);
  return { passRate: rate, level: levelFor(rate), passed, failed, skipped, perLevel };
}

/**
 * How many whole days old a report made at `createdAt` (ms) is, counted in UTC days to the day after `latestDay`
 * (the latest complete day): today's report is 0 days old, yesterday's 1. The alerts and the pages count alike.
 */
export function reportAgeDays(createdAt: number, latestDay: Day): number {
  return daysBetween(msToDay(createdAt), addDays(latestDay, 1));
}

/** Whether a report of that age is stale: older than `staleAfter` days. */
export const isStale = (ageDays: number, staleAfter: number): boolean => ageDays > staleAfter;

/** "owner/repo" for display. */
export function repoName(normalized: string): string {
  return normalized.replace(/^https:\/\/[^/]+\//, '') || normalized;
}

/** Only http(s) URLs may become links. */
export function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

// ---- What to fix next -------------------------------------------------------------------------

/** A known criterion's level (1 to 5); undefined for one outside the known list. */
export type LevelOf = (id: string) => number | undefined;

/** Where a criterion stands among equally good fixes: by its level, one outside the known list after every level. */
const rankOf = (levelOf: LevelOf, id: string) => levelOf(id) ?? TOP_LEVEL + 1;

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A failing criterion of a report, and what fixing it (numerator raised to denominator) is worth. */
export interface FixStep {
  id: string;
  numerator: number;
  denominator: number;
  /** Applications still failing it: denominator − numerator (1 for a repository-scope criterion). */
  failingApps: number;
  /** What fixing it adds to the pass rate: (1 − numerator/denominator) / criteria counted. */
  gain: number;
}

export interface NextLevelPlan {
  level: number;
  passRate: number;
  /** The criteria to fix, in the order of the rule below: the lowest levels first. */
  steps: FixStep[];
  /** The level the report reaches with every step fixed (the next one, or above when a step overshoots). */
  reaches: number;
  passRateAfter: number;
}

/**
 * The failing criteria that take a report to its next level soonest, by the level rule (fixing a
 * criterion moves its score to 1; the pass rate is the mean over non-skipped criteria):
 *
 * 1. fewest criteria: the plan has as few criteria as any set that reaches the next level;
 * 2. among the sets of that size, those of the lowest levels (`levelOf`; a criterion outside the known
 *    list last): a plan from level 2 to 3 takes a level-4 criterion only when no plan as short does
 *    without it; then those failing in the fewest applications (denominator − numerator: one app of a
 *    monorepo before four), then the smallest share failing (2/3 before 1/2), then by id: the set is
 *    chosen criterion by criterion in that order, each taken when the rest can still be completed to a
 *    plan of that size. The steps come in that order, so by level.
 *
 * Null at level 5 (no next level) or when every criterion was skipped (no pass rate to raise).
 */
export function nextLevelPlan(report: ScoredReportLike, levelOf: LevelOf): NextLevelPlan | null {
  const p = planning(report);
  if (!p) return null;
  const { n, sum, need, failing, size, worth } = p;
  // Among the plans of that size, the lowest levels and the easiest criteria first.
  const order = [...failing].sort(
    (a, b) =>
      rankOf(levelOf, a.id) - rankOf(levelOf, b.id) ||
      a.failingApps - b.failingApps ||
      b.numerator / b.denominator - a.numerator / a.denominator ||
      byId(a.id, b.id),
  );
  const steps: FixStep[] = [];
  let got = 0;
  for (let i = 0; i < order.length && steps.length < size; i++) {
    const f = order[i]!;
    // Whether a plan of `size` is still possible with f: with the best of the criteria after it.
    const best = bestGains(order.slice(i + 1), size - steps.length - 1, worth);
    if (got + worth(f) + best >= need) {
      steps.push(f);
      got += worth(f);
    }
  }
  const after = (sum + got) / n;
  return { level: p.level, passRate: sum / n, steps, reaches: levelFor(after), passRateAfter: after };
}

/** The sum of the `k` largest gains of `fs`. */
const bestGains = (fs: readonly FixStep[], k: number, worth: (f: FixStep) => number) =>
  fs
    .map(worth)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((a, x) => a + x, 0);

/**
 * What a plan to level `to` (by default the report's next) starts from: the criteria counted (n), their
 * score sum, the gain (in criteria) that level needs, the failing criteria, and the fewest of them that
 * reach it (the largest gains first). Null when the report is at that level or above, or every criterion
 * was skipped.
 */
function planning(report: ScoredReportLike, to?: number) {
  const scores: { id: string; c: CriterionScore; s: number }[] = [];
  for (const id of Object.keys(report.report)) {
    const c = report.report[id]!;
    const s = criterionScore(c);
    if (s !== null) scores.push({ id, c, s });
  }
  if (scores.length === 0) return null;
  const n = scores.length;
  const sum = scores.reduce((a, x) => a + x.s, 0);
  const level = levelFor(sum / n);
  const target = Math.min(TOP_LEVEL, to ?? level + 1);
  if (level >= target) return null;
  const need = LEVEL_THRESHOLDS[target - 1]! * n - sum - EPSILON * n;
  const failing: FixStep[] = scores
    .filter((x) => x.s < 1)
    .map(({ id, c, s }) => ({
      id,
      numerator: c.numerator!,
      denominator: c.denominator,
      failingApps: Math.max(1, Math.ceil(c.denominator - c.numerator!)),
      gain: (1 - s) / n,
    }));
  const worth = (f: FixStep) => f.gain * n;
  const byGain = [...failing].sort((a, b) => worth(b) - worth(a));
  let size = 0;
  for (let acc = 0; size < byGain.length && acc < need; size++) acc += worth(byGain[size]!);
  return { n, sum, level, need, failing, byGain, size, worth };
}

/** A repository's latest report under its key. */
export interface RepoReport {
  key: string;
  report: ScoredReportLike;
}

/** A criterion whose fix brings repositories of a set below the target level up to it. */
export interface SetFix {
  id: string;
  /** The criterion's level (null outside the known list): what orders fixes helping as many repositories. */
  level: number | null;
  /**
   * The repositories below the target it is one of the fewest fixes to bring there (sorted); `lifts`
   * among them.
   */
  helps: string[];
  /** The repositories that fixing this criterion alone brings to the target level (sorted). */
  lifts: string[];
}

/**
 * The criteria of a report that can each be one of the fewest fixes taking it to level `to` (by default
 * its next), with the largest gains for the rest of the plan, and whether the plan is of one criterion
 * (each does it alone). Empty at that level or above.
 */
export function planCandidates(report: ScoredReportLike, to?: number): { ids: string[]; alone: boolean } {
  const p = planning(report, to);
  if (!p) return { ids: [], alone: false };
  const { byGain, size, worth, need } = p;
  const ids = p.failing.filter((f) => {
    // The `size - 1` largest gains of the others: the first of them in `byGain` (largest first), f passed over.
    let rest = 0;
    for (let i = 0, k = 0; k < size - 1 && i < byGain.length; i++) {
      if (byGain[i] === f) continue;
      rest += worth(byGain[i]!);
      k++;
    }
    return worth(f) + rest >= need;
  });
  return { ids: ids.map((f) => f.id), alone: size === 1 };
}

/**
 * For a set of repositories (a team's, the organization's), each by its latest report: what to fix to
 * bring them to the target level (TARGET_LEVEL). Only the repositories below it count. A criterion
 * *helps* such a repository when it can be one of the fewest fixes that take it to the target (the
 * other fixes as few as can be), and *lifts* it when fixing it alone does. Sorted by the repositories
 * helped, then by the criterion's level (lowest first, one outside the known list last: `levelOf`),
 * then by those lifted alone, then by id; criteria helping none are left out.
 */
export function fixesForSet(repos: readonly RepoReport[], levelOf: LevelOf): SetFix[] {
  const by = new Map<string, { helps: string[]; lifts: string[] }>();
  for (const r of [...repos].sort((a, b) => byId(a.key, b.key))) {
    const { ids, alone } = planCandidates(r.report, TARGET_LEVEL);
    for (const id of ids) {
      let e = by.get(id);
      if (!e) by.set(id, (e = { helps: [], lifts: [] }));
      e.helps.push(r.key);
      if (alone) e.lifts.push(r.key);
    }
  }
  return [...by.entries()]
    .map(([id, e]) => ({ id, level: levelOf(id) ?? null, ...e }))
    .sort(
      (a, b) =>
        b.helps.length - a.helps.length ||
        rankOf(levelOf, a.id) - rankOf(levelOf, b.id) ||
        b.lifts.length - a.lifts.length ||
        byId(a.id, b.id),
    );
}

/** Whether fixing `id` alone takes the report to level `to` (by default its next). */
export function liftsAlone(report: ScoredReportLike, id: string, to?: number): boolean {
  const c = report.report[id];
  if (!c || criterionState(c) !== 'failed') return false;
  const rate = passRate(Object.values(report.report));
  if (rate === null) return false;
  const level = levelFor(rate);
  const target = Math.min(TOP_LEVEL, to ?? level + 1);
  if (level >= target) return false;
  const fixed = { ...report.report, [id]: { numerator: c.denominator, denominator: c.denominator } };
  return levelFor(passRate(Object.values(fixed))) >= target;
}
