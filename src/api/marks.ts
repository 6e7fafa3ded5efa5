/**
 * The dashboard server's marks on the charts: dated notes (a rollout, a training, a change in how the
 * vendor counts) for the organization or a team, kept in the store, and the price list's changes, marked
 * by themselves. They exist when the server keeps a store.
 *
 *   GET    /api/marks?start&end[&team=A…]   the marks of a chart's scope in the range: the organization's
 *          always; with teams, also those of the teams and of their parent teams; and the price changes
 *   GET    /api/marks/all                   every mark the reader may see (the settings screen)
 *   POST   /api/marks {day, team, text}     adds one ('' is the organization)
 *   PUT    /api/marks/:id {day, team, text} changes one
 *   DELETE /api/marks/:id                   removes one
 *   GET    /api/marks/:id/figures           its scope's figures over the whole weeks before and after it
 *
 * Admins write any mark; a manager their teams' (sub-teams included), not the organization's; a viewer
 * none. Without sign-in, marks are changed from the machine the dashboard runs on, as budgets are.
 */
import * as z from 'zod/mini';

export const MARKS_PATHS = { marks: '/api/marks', all: '/api/marks/all' } as const;

/** The path of a mark's figures before and after it. */
export const markFiguresPath = (id: string) => `${MARKS_PATHS.marks}/${encodeURIComponent(id)}/figures`;

/** The longest text of a mark, in characters (after trimming). */
export const MARK_TEXT_MAX = 200;

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));

export const markSchema = z.object({
  /** A stored mark's id, or `prices:<day>:<n>` for a price change (not stored). */
  id: z.string(),
  /** The UTC day it marks. */
  day,
  /** '' for the organization, else a team's path. */
  team: z.string(),
  text: z.string(),
  /** `user`: written by a reader; `prices`: a change of the price list, marked by itself (read-only). */
  source: z.enum(['user', 'prices']),
  /**
   * Who wrote it (with sign-in), told to those who may change it; in privacy mode a reader who is not an admin is
   * told only their own. Else null.
   */
  author: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
  /** Whether the reader may change or remove it. */
  editable: z.boolean(),
});
export type Mark = z.infer<typeof markSchema>;

/** What `POST /api/marks` and `PUT /api/marks/:id` take. */
export const markInputSchema = z.object({ day, team: z.string(), text: z.string() });

/** What `DELETE /api/marks/:id` answers: the id of the mark removed. */
export const markRemovedSchema = z.object({ removed: z.string() });

export const marksAnswerSchema = z.object({ marks: z.array(markSchema) });
export type MarksAnswer = z.infer<typeof marksAnswerSchema>;

/** What a reader sends to add or change a mark. */
export interface MarkInput {
  day: string;
  team: string;
  text: string;
}

const range = z.object({ start: day, end: day });
const figure = z.nullable(z.number());

/**
 * `GET /api/marks/:id/figures`: the mark's scope's figures (the organization's, or its team's with its sub-teams)
 * over the whole ISO weeks before the week of the mark and as many whole weeks after it; that week itself is left
 * out. With no whole week on one side, no figures and the reason.
 */
export const markFiguresSchema = z.object({
  id: z.string(),
  day,
  team: z.string(),
  /** The Monday of the week holding the mark (left out of both sides). */
  week: day,
  /** Whole weeks on each side (0: none, see `reason`). */
  weeks: z.number(),
  before: z.nullable(range),
  after: z.nullable(range),
  reason: z.nullable(z.string()),
  /** The price list's currency, when spend is among the figures. */
  currency: z.nullable(z.string()),
  /** Each measure (lib/measures.ts) before and after, and its relative change. */
  figures: z.array(z.object({ measure: z.string(), before: figure, after: figure, change: figure })),
});
export type MarkFigures = z.infer<typeof markFiguresSchema>;
