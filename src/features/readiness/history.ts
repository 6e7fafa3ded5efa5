import type { ReadinessReport } from '../../api/schemas';
import { normalizeRepoUrl, scoreReport, type ReportScore } from './levels';

export interface RepoHistory {
  key: string;
  /** Oldest first. */
  reports: { report: ReadinessReport; score: ReportScore }[];
  latest: { report: ReadinessReport; score: ReportScore };
}

/** Groups reports by normalized repository URL; order of the input does not matter. */
export function groupByRepo(reports: readonly ReadinessReport[]): RepoHistory[] {
  const map = new Map<string, ReadinessReport[]>();
  for (const r of reports) {
    const k = normalizeRepoUrl(r.repoUrl);
    const list = map.get(k);
    if (list) list.push(r);
    else map.set(k, [r]);
  }
  return [...map.entries()].map(([key, list]) => {
    const sorted = list
      .sort((a, b) => a.createdAt - b.createdAt || a.reportId.localeCompare(b.reportId))
      .map((report) => ({ report, score: scoreReport(report) }));
    return { key, reports: sorted, latest: sorted.at(-1)! };
  });
}

/** Mean of the latest levels, rounded down; null with no repository. */
export function organizationScore(repos: readonly RepoHistory[]): number | null {
  if (repos.length === 0) return null;
  return Math.floor(repos.reduce((s, r) => s + r.latest.score.level, 0) / repos.length);
}
