/**
 * The dashboard server's highlights and adoption cohorts (src/server/insights): computed from the
 * store's per-user facts, for the organization or the teams named.
 */
import * as z from 'zod/mini';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));

export const INSIGHTS_PATHS = { highlights: '/api/highlights', cohorts: '/api/cohorts' } as const;

export const highlightSchema = z.object({
  kind: z.enum(['spike', 'drop', 'inactive', 'new-users', 'budget']),
  severity: z.enum(['alert', 'warning', 'info']),
  title: z.string(),
  detail: z.string(),
  /** The dashboard page that shows it, and its search parameters (`team` may repeat). */
  link: z.object({ path: z.string(), query: z.record(z.string(), z.union([z.string(), z.array(z.string())])) }),
});
export type Highlight = z.infer<typeof highlightSchema>;

export const highlightsSchema = z.object({
  /** The week the highlights are about: the seven days to the latest day. */
  week: z.object({ start: day, end: day }),
  teams: z.array(z.string()),
  /** False while the store does not hold the weeks the rules read yet (the notes say how far it is). */
  complete: z.boolean(),
  /** Most pressing first; empty when nothing stands out. */
  highlights: z.array(highlightSchema),
  /** What the rules could not judge (too little history) or left out. */
  notes: z.array(z.string()),
});
export type Highlights = z.infer<typeof highlightsSchema>;

export const cohortsSchema = z.object({
  teams: z.array(z.string()),
  /** The weeks after joining each retention figure is read at. */
  offsets: z.array(z.number()),
  completeWeeks: z.number(),
  /** Days of history stored (the background sync fills the rest), and days of history there are. */
  storedDays: z.number(),
  historyDays: z.number(),
  cohorts: z.array(
    z.object({
      week: day,
      size: z.number(),
      /** Per offset: the share of the cohort active that week; null while that week has not ended. */
      retention: z.array(z.nullable(z.number())),
    }),
  ),
});
export type Cohorts = z.infer<typeof cohortsSchema>;
