/**
 * Readiness by team, from the repositories' histories and their owners (`/api/readiness`): one row per
 * team that owns a repository, and the Unowned row. Pure.
 */
import { UNOWNED } from '../../api/readiness';
import { fixesForSet, type SetFix } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import type { RepoHistory } from './history';

/** A repository's owning team (null: Unowned; undefined: owners not known). */
export const ownerOf = (owners: ReadonlyMap<string, string | null> | undefined, historyKey: string) =>
  owners ? (owners.get(repoKey(historyKey)) ?? null) : undefined;

export interface TeamReadinessRow {
  /** The team's path; null for the repositories no team owns. */
  team: string | null;
  name: string;
  repositories: number;
  /** Repositories at levels 1 to 5 (index 0 is level 1), by their latest reports. */
  distribution: number[];
  /** Mean of the latest levels, unrounded; null with no repository. */
  meanLevel: number | null;
  /** Mean of the latest pass rates (repositories with one). */
  meanPassRate: number | null;
}

/** Each owning team's repositories (sorted by path), then Unowned (always, so nothing is dropped). */
export function teamReadiness(
  list: readonly RepoHistory[],
  owners: ReadonlyMap<string, string | null>,
): TeamReadinessRow[] {
  const by = new Map<string | null, RepoHistory[]>();
  for (const r of list) {
    const t = ownerOf(owners, r.key) ?? null;
    by.set(t, [...(by.get(t) ?? []), r]);
  }
  const teams = [...by.keys()].filter((t): t is string => t !== null).sort();
  return [...teams, null].map((team) => {
    const repos = by.get(team) ?? [];
    const distribution = [0, 0, 0, 0, 0];
    for (const r of repos) distribution[r.latest.score.level - 1]!++;
    const rates = repos.flatMap((r) => (r.latest.score.passRate === null ? [] : [r.latest.score.passRate]));
    return {
      team,
      name: team ?? UNOWNED,
      repositories: repos.length,
      distribution,
      meanLevel: repos.length ? repos.reduce((s, r) => s + r.latest.score.level, 0) / repos.length : null,
      meanPassRate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null,
    };
  });
}

/** What to fix next over repositories (lib/readiness.ts, fixesForSet), each by its latest report. */
export const fixesOf = (list: readonly RepoHistory[]): SetFix[] =>
  fixesForSet(list.map((r) => ({ key: r.key, report: r.latest.report })));

/** "2.6 (1: 1 · 2: 0 · 3: 4 · 4: 0 · 5: 0)": the unrounded mean with the distribution behind it. */
export function meanWithDistribution(row: Pick<TeamReadinessRow, 'meanLevel' | 'distribution'>): string {
  if (row.meanLevel === null) return '–';
  const parts = row.distribution.map((n, i) => `${i + 1}: ${n}`).join(' · ');
  return `${row.meanLevel.toFixed(1)} (${parts})`;
}
