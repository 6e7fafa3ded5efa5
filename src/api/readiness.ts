/**
 * The dashboard server's readiness endpoints (beside the service's documented readiness path, which
 * knows no teams). They exist when the server keeps a store.
 *
 *   GET /api/readiness[?team=A[&team=B]]
 *       { ownership, repos: [{ key, team, staleAfter }], reports }: every repository of the stored reports
 *       (`key` is `host/owner/name`, lib/repos.ts) with its owning team by the mapping's rules (the most
 *       specific claim; null: Unowned) and the days after which its latest report is stale, and every
 *       stored report of those repositories in the service's own shape,
 *       oldest first. `ownership` says whether the mapping in force names repositories at all. With
 *       `team`: only the repositories those teams (or their sub-teams) own; `team=Unassigned` names the
 *       repositories no team owns. Without `team`: every repository, owned or not.
 *   GET /api/readiness/fixes.csv[?team=…]
 *       the same repositories' "what to fix next": one row per criterion that is one of the fewest fixes
 *       bringing one of those below level 3 up to it (lib/readiness.ts, fixesForSet), under the same rules
 *       of who may ask for what.
 */
import * as z from 'zod/mini';
import { readinessReportSchema } from './schemas';

export const READINESS_PATH = '/api/readiness';
export const READINESS_FIXES_CSV_PATH = '/api/readiness/fixes.csv';

/** A report older than this many days is called stale, unless a `readiness-stale` alert rule says fewer. */
export const READINESS_STALE_DAYS = 30;

export const readinessRepoSchema = z.object({
  key: z.string(),
  /** The owning team's path; null when no team owns it (Unowned). */
  team: z.nullable(z.string()),
  /**
   * Days after which its latest report is stale: the fewest of the enabled `readiness-stale` alert rules that
   * cover it (the organization's, its owning team's or one above it), else READINESS_STALE_DAYS.
   */
  staleAfter: z.optional(z.number()),
});

export const readinessAnswerSchema = z.object({
  ownership: z.boolean(),
  repos: z.array(readinessRepoSchema),
  reports: z.array(readinessReportSchema),
});

export type ReadinessRepo = z.infer<typeof readinessRepoSchema>;
export type ReadinessAnswer = z.infer<typeof readinessAnswerSchema>;

/** What the pages call the repositories no team owns. */
export const UNOWNED = 'Unowned';
