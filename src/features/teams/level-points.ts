/**
 * Reports to level points (`{repo, day, level}`), the plain input of lib/payoff.ts. The one place the teams
 * pages read the readiness level rule: it moves to src/lib with the readiness pages, and this import with it.
 */
import type { ReadinessReport } from '../../api/schemas';
import { msToDay } from '../../lib/dates';
import type { LevelPoint } from '../../lib/payoff';
import { repoKey } from '../../lib/repos';
// eslint-disable-next-line import-x/no-restricted-paths -- the level rule's one home until it moves to src/lib/readiness.ts
import { scoreReport } from '../readiness/levels';

/** Each report's repository (its `host/owner/name` key), UTC day and level, by repository and time. */
export function levelPoints(reports: readonly ReadinessReport[]): LevelPoint[] {
  return [...reports]
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((r) => ({ repo: repoKey(r.repoUrl), day: msToDay(r.createdAt), level: scoreReport(r).level }));
}
