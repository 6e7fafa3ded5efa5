/** Reports to level points (`{repo, day, level}`), the plain input of lib/payoff.ts, by lib/readiness.ts' rule. */
import { CRITERIA_BY_ID } from '../../api/criteria';
import type { ReadinessReport } from '../../api/schemas';
import { msToDay } from '../../lib/dates';
import type { LevelPoint } from '../../lib/payoff';
import { scoreReport } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';

/** Each report's repository (its `host/owner/name` key), UTC day and level, by repository and time. */
export function levelPoints(reports: readonly ReadinessReport[]): LevelPoint[] {
  return [...reports]
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((r) => ({
      repo: repoKey(r.repoUrl),
      day: msToDay(r.createdAt),
      level: scoreReport(r, (id) => CRITERIA_BY_ID.get(id)?.level).level,
    }));
}
