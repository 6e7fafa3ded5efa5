/**
 * The dashboard server's reconciliation: per day, the service's own organization totals beside the dashboard's sum
 * over people, and the difference explained in parts that add up. It exists when the server keeps a store.
 *
 *   GET /api/reconciliation[?start&end][&team=A…]
 *       Without a team: an admin's is the organization (the dashboard's figure is the mapping's teams' sum), a
 *       manager's their teams' share; `team`: those teams' share (a manager's within theirs).
 *
 * For each day and figure: `service` = `dashboard` + `notSynced` + `outside` + `unexplained`, exactly.
 * - `notSynced`: the whole day, when the dashboard does not hold the service's per-person rows of it yet;
 * - `outside`: the people the dashboard's figure leaves out: outside the mapping (the organization's), or every
 *   other team and the people outside the mapping (a team's share), and, in privacy mode, the reader's groups of
 *   fewer than k members, whose figures are never shown on their own (`withheld` says how many people that is);
 * - `unexplained`: what is left; the service's total less its own per-person rows, none when they agree.
 */
import * as z from 'zod/mini';

export const RECONCILIATION_PATH = '/api/reconciliation';

/** The figures set beside the service's, each a measure of the figures runner (lib/measures.ts). */
export const RECONCILED = ['credits', 'active', 'sessions', 'commits', 'prs'] as const;
export type Reconciled = (typeof RECONCILED)[number];

/** Where the service gives each figure for the whole organization: an endpoint's day row, and its field. */
export const SERVICE_FIELDS: Record<Reconciled, { endpoint: 'tokens' | 'activity' | 'productivity'; field: string }> = {
  credits: { endpoint: 'tokens', field: 'billable_tokens' },
  active: { endpoint: 'activity', field: 'daily_active_users' },
  sessions: { endpoint: 'activity', field: 'sessions' },
  commits: { endpoint: 'productivity', field: 'git_commits' },
  prs: { endpoint: 'productivity', field: 'git_prs_created' },
};

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));

export const reconciledFigureSchema = z.object({
  /** The service's own total for the organization, from its day row (`SERVICE_FIELDS`). */
  service: z.number(),
  /** The dashboard's sum over the people it shows for the scope: each person once. */
  dashboard: z.number(),
  notSynced: z.number(),
  outside: z.number(),
  unexplained: z.number(),
});
export type ReconciledFigure = z.infer<typeof reconciledFigureSchema>;

export const reconciledDaySchema = z.object({
  day,
  /** Whether the dashboard holds the service's per-person rows of the day. */
  synced: z.boolean(),
  /** Whether the day is past the service's refresh window: no figure of it will change. */
  final: z.boolean(),
  figures: z.record(z.enum(RECONCILED), reconciledFigureSchema),
});
export type ReconciledDay = z.infer<typeof reconciledDaySchema>;

export const reconciliationSchema = z.object({
  range: z.object({ start: day, end: day }),
  /** The teams whose share it is (each with its sub-teams; in privacy mode, those shown); none: the organization's. */
  teams: z.array(z.string()),
  /** Whether a team mapping is in force (without one, everyone is outside it). */
  mapping: z.boolean(),
  /** Who `outside` is: the people outside the mapping (the organization's), or everyone outside `teams`. */
  outside: z.enum(['mapping', 'teams']),
  /** Privacy mode: the reader's groups of fewer than k members, counted in `outside`; never named. */
  withheld: z.nullable(z.object({ minGroup: z.number(), groups: z.number(), people: z.number() })),
  days: z.array(reconciledDaySchema),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
