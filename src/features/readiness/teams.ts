/**
 * Readiness by team, from the repositories' histories and their owners (`/api/readiness`): one row per
 * team that owns a repository, and the Unowned row. Pure.
 */
import { CRITERIA_BY_ID } from '../../api/criteria';
import { UNOWNED } from '../../api/readiness';
import { fixesForSet, type LevelSpread, type SetFix } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { latestSpread, type RepoHistory } from './history';

/** A repository's owning team (null: Unowned; undefined: owners not known). */
export const ownerOf = (owners: ReadonlyMap<string, string | null> | undefined, historyKey: string) =>
  owners ? (owners.get(repoKey(historyKey)) ?? null) : undefined;

export interface TeamReadinessRow {
  /** The team's path; null for the repositories no team owns. */
  team: string | null;
  name: string;
  repositories: number;
  /** How the repositories' latest levels spread, and how many are at the target level or above. */
  spread: LevelSpread;
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
    const rates = repos.flatMap((r) => (r.latest.score.passRate === null ? [] : [r.latest.score.passRate]));
    return {
      team,
      name: team ?? UNOWNED,
      repositories: repos.length,
      spread: latestSpread(repos),
      meanPassRate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null,
    };
  });
}

/** What to fix to bring repositories to level 3 (lib/readiness.ts, fixesForSet), each by its latest report. */
export const fixesOf = (list: readonly RepoHistory[]): SetFix[] =>
  fixesForSet(
    list.map((r) => ({ key: r.key, report: r.latest.report })),
    (id) => CRITERIA_BY_ID.get(id)?.level,
  );
