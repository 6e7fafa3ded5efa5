/**
 * Repository histories and organization views over readiness reports. All pure
 * but `addReports`, which adds to the map it is given (the streaming walk adds
 * each page to what it has, instead of copying every earlier page).
 */
import { CRITERIA_BY_ID, criterionName, KNOWN_CRITERIA } from '../../api/criteria';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';
import { addDays, dayToMs, eachDay, type Day } from '../../lib/dates';
import {
  criterionState,
  levelSpread,
  passRate,
  progressToNext,
  repoName,
  scoreReport,
  type LevelSpread,
  type ReportScore,
} from '../../lib/readiness';
import { normalizeRepoUrl } from '../../lib/repos';

/** A report's score by the level rule (lib/readiness.ts), with the known criteria's levels. */
export const scoreOf = (report: ReadinessReport): ReportScore =>
  scoreReport(report, (id) => CRITERIA_BY_ID.get(id)?.level);

export interface ScoredReport {
  report: ReadinessReport;
  score: ReportScore;
}

export interface RepoHistory {
  key: string;
  /** Oldest first. */
  reports: ScoredReport[];
  latest: ScoredReport;
}

/** Scores reports and files them under their normalized repository URL, in the given map. */
export function addReports(
  byRepo: Map<string, ScoredReport[]>,
  reports: readonly ReadinessReport[],
): Map<string, ScoredReport[]> {
  for (const report of reports) {
    const k = normalizeRepoUrl(report.repoUrl);
    const scored = { report, score: scoreOf(report) };
    const list = byRepo.get(k);
    if (list) list.push(scored);
    else byRepo.set(k, [scored]);
  }
  return byRepo;
}

/** Groups reports by normalized repository URL; order of the input does not matter. */
export function groupByRepo(reports: readonly ReadinessReport[]): RepoHistory[] {
  return histories(addReports(new Map(), reports));
}

/** Repository histories from scored reports grouped by repository, each sorted oldest first. */
export function histories(byRepo: ReadonlyMap<string, readonly ScoredReport[]>): RepoHistory[] {
  return [...byRepo.entries()].map(([key, list]) => {
    const sorted = [...list].sort(
      (a, b) => a.report.createdAt - b.report.createdAt || a.report.reportId.localeCompare(b.report.reportId),
    );
    return { key, reports: sorted, latest: sorted.at(-1)! };
  });
}

/** How the repositories' latest levels spread over levels 1–5 (lib/readiness.ts, levelSpread). */
export const latestSpread = (repos: readonly RepoHistory[]): LevelSpread =>
  levelSpread(repos.map((r) => r.latest.score.level));

/** One day of the spread over time: each level's share (`level1`…`level5`, for a 100 % stacked chart). */
export interface SpreadDay {
  date: Day;
  level1: number;
  level2: number;
  level3: number;
  level4: number;
  level5: number;
  spread: LevelSpread;
}

/**
 * The spread of levels on each day from `from` to `to`: each repository by its latest report as of that
 * day's end (UTC), over the repositories evaluated by then (days before the first report are left out).
 */
export function spreadSeries(repos: readonly RepoHistory[], from: Day, to: Day): SpreadDay[] {
  const events = repos
    .flatMap((r, i) => r.reports.map((s) => ({ repo: i, level: s.score.level, at: s.report.createdAt })))
    .sort((a, b) => a.at - b.at);
  const current = new Map<number, number>();
  let k = 0;
  // The reports up to the day's end: before the next day's first instant.
  const apply = (until: Day) => {
    const end = dayToMs(addDays(until, 1));
    while (k < events.length && events[k]!.at < end) {
      const e = events[k++]!;
      current.set(e.repo, e.level);
    }
  };
  apply(addDays(from, -1));
  const out: SpreadDay[] = [];
  for (const date of eachDay(from, to)) {
    apply(date);
    if (current.size === 0) continue;
    const spread = levelSpread(current.values());
    const [level1, level2, level3, level4, level5] = spread.shares as [number, number, number, number, number];
    out.push({ date, level1, level2, level3, level4, level5, spread });
  }
  return out;
}

export const OTHER_PILLAR = 'Other';

export function pillarOf(id: string): string {
  return CRITERIA_BY_ID.get(id)?.pillar ?? OTHER_PILLAR;
}

/**
 * Pass rate per pillar over the given reports (every repository's latest, or one report), weakest first:
 * each report-criterion weighs the same; `passed` of `evaluated` criteria pass (skipped ones are left out).
 */
export function pillarPassRates(
  reports: readonly ReadinessReport[],
): { pillar: string; passRate: number; passed: number; evaluated: number }[] {
  const by = new Map<string, CriterionResult[]>();
  for (const r of reports) {
    for (const id of Object.keys(r.report)) {
      const p = pillarOf(id);
      const list = by.get(p);
      if (list) list.push(r.report[id]!);
      else by.set(p, [r.report[id]!]);
    }
  }
  return [...by.entries()]
    .map(([pillar, list]) => ({
      pillar,
      passRate: passRate(list) ?? 0,
      passed: list.filter((c) => criterionState(c) === 'passed').length,
      evaluated: list.filter((c) => c.numerator !== null).length,
    }))
    .filter((p) => p.evaluated > 0)
    .sort((a, b) => a.passRate - b.passRate || a.pillar.localeCompare(b.pillar));
}

export interface FailingCriterion {
  id: string;
  name: string;
  level: number | null;
  pillar: string;
  failing: number;
  evaluated: number;
}

/** Criteria failing in the most repositories' latest reports; skipped or absent criteria do not count. */
export function failingCriteria(repos: readonly RepoHistory[]): FailingCriterion[] {
  const m = new Map<string, FailingCriterion>();
  for (const r of repos) {
    const report = r.latest.report.report;
    for (const id of Object.keys(report)) {
      const s = criterionState(report[id]!);
      if (s === 'skipped') continue;
      const known = CRITERIA_BY_ID.get(id);
      const f = m.get(id) ?? {
        id,
        name: criterionName(id),
        level: known?.level ?? null,
        pillar: pillarOf(id),
        failing: 0,
        evaluated: 0,
      };
      f.evaluated++;
      if (s === 'failed') f.failing++;
      m.set(id, f);
    }
  }
  return [...m.values()].filter((f) => f.failing > 0).sort((a, b) => b.failing - a.failing || a.id.localeCompare(b.id));
}

export interface RepoSummary {
  key: string;
  name: string;
  url: string;
  level: number;
  passRate: number | null;
  progress: number;
  lastEvaluated: number;
  reports: number;
  /** Pass-rate change against the previous report, or null for a first report. */
  change: number | null;
  levelChange: number | null;
}

export function summarize(r: RepoHistory): RepoSummary {
  const prev = r.reports.at(-2);
  const s = r.latest.score;
  return {
    key: r.key,
    name: repoName(r.key),
    url: r.latest.report.repoUrl,
    level: s.level,
    passRate: s.passRate,
    progress: progressToNext(s.passRate),
    lastEvaluated: r.latest.report.createdAt,
    reports: r.reports.length,
    change: prev && s.passRate !== null && prev.score.passRate !== null ? s.passRate - prev.score.passRate : null,
    levelChange: prev ? s.level - prev.score.level : null,
  };
}

export interface ReportDiff {
  started: string[];
  stopped: string[];
  /** Same state, different score (e.g. 2/4 → 3/4). */
  changed: { id: string; before: CriterionResult; after: CriterionResult }[];
  added: string[];
  removed: string[];
}

/** What changed from one report to the next. Criteria absent from either side are listed, never counted as failures. */
export function diffReports(before: ReadinessReport, after: ReadinessReport): ReportDiff {
  const d: ReportDiff = { started: [], stopped: [], changed: [], added: [], removed: [] };
  for (const [id, a] of Object.entries(after.report)) {
    const b = before.report[id];
    if (!b) {
      d.added.push(id);
      continue;
    }
    const sb = criterionState(b);
    const sa = criterionState(a);
    if (sa === 'passed' && sb !== 'passed') d.started.push(id);
    else if (sb === 'passed' && sa !== 'passed') d.stopped.push(id);
    else if (a.numerator !== b.numerator || a.denominator !== b.denominator)
      d.changed.push({ id, before: b, after: a });
  }
  for (const id of Object.keys(before.report)) if (!(id in after.report)) d.removed.push(id);
  for (const k of ['started', 'stopped', 'added', 'removed'] as const) d[k].sort();
  return d;
}

export interface CriterionRow {
  id: string;
  name: string;
  level: number | null;
  pillar: string;
  result: CriterionResult;
}

/** What the pages call a criterion (the alerts too, so it is the contract's: api/criteria.ts). */
export { criterionName };

/** The report's criteria in the known order, unknown ids last (under Other). */
export function criterionRows(report: ReadinessReport): CriterionRow[] {
  const order = new Map(KNOWN_CRITERIA.map((c, i) => [c.id, i]));
  return Object.entries(report.report)
    .map(([id, result]) => {
      const k = CRITERIA_BY_ID.get(id);
      return { id, name: criterionName(id), level: k?.level ?? null, pillar: k?.pillar ?? OTHER_PILLAR, result };
    })
    .sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9) || a.id.localeCompare(b.id));
}

/** The address segment of a repository page. */
export const repoPath = (key: string) => `/readiness/${encodeURIComponent(key.replace(/^https:\/\//, ''))}`;
/** Keys of https repositories travel without their scheme; any other key travels whole. */
export const keyFromParam = (param: string) => (/^[a-z][a-z0-9+.-]*:/i.test(param) ? param : `https://${param}`);
