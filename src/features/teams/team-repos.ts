/** A team's repositories as their readiness reports stand on a day: the team page's readiness beside its usage. */
import { CRITERIA_BY_ID } from '../../api/criteria';
import type { ReadinessAnswer } from '../../api/readiness';
import { msToDay, type Day } from '../../lib/dates';
import { scoreReport } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';

export interface TeamRepo {
  /** `host/owner/name`. */
  key: string;
  /** The sub-team that owns it (the team itself or one below). */
  team: string;
  /** Its level and pass rate by its latest report up to the day; null when it had none by then. */
  level: number | null;
  passRate: number | null;
  reported: Day | null;
}

/** Each repository the answer names, by its latest report on or before `day` (UTC), highest level first. */
export function teamRepos(answer: Pick<ReadinessAnswer, 'repos' | 'reports'>, day: Day): TeamRepo[] {
  const latest = new Map<string, ReadinessAnswer['reports'][number]>();
  for (const r of answer.reports) {
    if (msToDay(r.createdAt) > day) continue;
    const key = repoKey(r.repoUrl);
    const seen = latest.get(key);
    if (!seen || r.createdAt >= seen.createdAt) latest.set(key, r);
  }
  return answer.repos
    .map((repo) => {
      const r = latest.get(repo.key);
      const score = r ? scoreReport(r, (id) => CRITERIA_BY_ID.get(id)?.level) : null;
      return {
        key: repo.key,
        team: repo.team ?? '',
        level: score?.level ?? null,
        passRate: score?.passRate ?? null,
        reported: r ? msToDay(r.createdAt) : null,
      };
    })
    .sort((a, b) => (b.level ?? 0) - (a.level ?? 0) || a.key.localeCompare(b.key));
}
