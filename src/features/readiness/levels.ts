/**
 * The readiness level rule of service-facts.md, in pure functions:
 * a criterion passes when numerator == denominator; a null numerator is
 * skipped; pass rate = mean of numerator/denominator over non-skipped
 * criteria (each criterion weighs the same); level thresholds 20/40/60/80 %.
 */
import { CRITERIA_BY_ID } from '../../api/criteria';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';

export type CriterionState = 'passed' | 'failed' | 'skipped';

export function criterionState(c: CriterionResult): CriterionState {
  if (c.numerator === null) return 'skipped';
  return c.numerator >= c.denominator ? 'passed' : 'failed';
}

/** Mean score over non-skipped criteria, or null when every criterion was skipped. */
export function passRate(results: readonly CriterionResult[]): number | null {
  let sum = 0;
  let n = 0;
  for (const c of results) {
    if (c.numerator === null || !(c.denominator > 0)) continue;
    sum += Math.min(1, Math.max(0, c.numerator / c.denominator));
    n++;
  }
  return n === 0 ? null : sum / n;
}

export const LEVEL_THRESHOLDS = [0, 0.2, 0.4, 0.6, 0.8] as const;

/** 1 below 20 %, 2 from 20 %, 3 from 40 %, 4 from 60 %, 5 from 80 %. */
export function levelFor(rate: number | null): number {
  if (rate === null) return 1;
  // A tiny epsilon keeps 0.6 computed as 0.59999… on level 4.
  const r = rate + 1e-9;
  let level = 1;
  for (let i = 1; i < LEVEL_THRESHOLDS.length; i++) if (r >= LEVEL_THRESHOLDS[i]!) level = i + 1;
  return level;
}

/** Share of the way from the current level's threshold to the next (1 at level 5). */
export function progressToNext(rate: number | null): number {
  const level = levelFor(rate);
  if (level >= 5 || rate === null) return level >= 5 ? 1 : 0;
  const lo = LEVEL_THRESHOLDS[level - 1]!;
  const hi = LEVEL_THRESHOLDS[level]!;
  return Math.min(1, Math.max(0, (rate - lo) / (hi - lo)));
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

export function scoreReport(report: ReadinessReport): ReportScore {
  const results = Object.values(report.report);
  const rate = passRate(results);
  const byLevel: Record<number, CriterionResult[]> = { 1: [], 2: [], 3: [], 4: [], 5: [] };
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [id, c] of Object.entries(report.report)) {
    const s = criterionState(c);
    if (s === 'passed') passed++;
    else if (s === 'failed') failed++;
    else skipped++;
    const known = CRITERIA_BY_ID.get(id);
    if (known) byLevel[known.level]?.push(c);
  }
  const perLevel: Record<number, number | null> = {};
  for (const l of [1, 2, 3, 4, 5]) perLevel[l] = passRate(byLevel[l]!);
  return { passRate: rate, level: levelFor(rate), passed, failed, skipped, perLevel };
}

// A repository's identity is the server's too (a team mapping claims repositories by it).
export { normalizeRepoUrl } from '../../lib/repos';

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
