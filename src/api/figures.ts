/**
 * The dashboard server's figures endpoint: any of the figures about people (lib/measures.ts) for a scope, a range
 * and a grouping, with the previous period and the change. It exists when the server keeps a store; every figure
 * is the figures runner's (server/analytics/figures.ts), the one the teams page, spend, the highlights and the
 * digest ask, so the same question gets the same numbers as those pages.
 *
 *   GET /api/figures?measure=<id>[&measure=…][&by=total|day|week|team|person][&start&end][&team=A…][&user=<id>]
 *                    [&compare=previous|none][&top=N]
 *       `team`: the teams' people (each with its sub-teams); `user`: one person; neither: everyone. `by=team`: one
 *       row per team of the scope (each rolled up with its sub-teams); `by=person`: one row per person with any day
 *       in the range, the first measure's largest first (`top`: only the first N). A manager asking without a team
 *       is answered for their teams (`by=team`, `by=person`) or the organization (the others, as the pages).
 *       Intensity's measures (lib/intensity.ts) are by total, day, week or team, or for one person, never by person;
 *       their answer carries the thresholds of each quarter its rows are of. The funnel's measures (lib/funnel.ts:
 *       from access to a first pull request) are of the starters whose access is in a row's range, day or week (a
 *       weekly cohort), never by person; their answer carries the days of grace.
 *
 *   POST /api/intensity/thresholds  {"quarter": "2026-Q2"}
 *       An admin's refresh of a quarter's thresholds: computed again from the four whole weeks to the latest day
 *       (a quarter past: its last four) and kept in place of those kept.
 */
import * as z from 'zod/mini';
import { MEASURES, type MeasureId } from '../lib/measures';

export const FIGURES_PATH = '/api/figures';
export const INTENSITY_THRESHOLDS_PATH = '/api/intensity/thresholds';

export const FIGURE_GROUPINGS = ['total', 'day', 'week', 'team', 'person'] as const;
export type FigureGrouping = (typeof FIGURE_GROUPINGS)[number];

/** Every measure's id, as `measure=` takes it. */
export const MEASURE_IDS = Object.keys(MEASURES) as [MeasureId, ...MeasureId[]];

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const rangeSchema = z.object({ start: day, end: day });
/** A row's value of each measure asked; null where there is nothing to divide by (or no figure before). */
const valuesSchema = z.record(z.string(), z.nullable(z.number()));

export const figureRowSchema = z.object({
  /** '' for the total; the team's path; the day or the week's Monday; the person's id (a pseudonym in privacy mode). */
  key: z.string(),
  current: valuesSchema,
  previous: z.nullable(valuesSchema),
  /** Each measure's relative change from the previous period (0.25: up a quarter); null without a figure before, or from 0. */
  change: z.nullable(valuesSchema),
});

/** A quarter's frozen intensity thresholds, in standard credits over four whole weeks (lib/intensity.ts). */
export const thresholdsSchema = z.object({
  quarter: z.string(),
  p25: z.number(),
  p50: z.number(),
  p75: z.number(),
  /** The active people they were computed over. */
  people: z.number(),
  /** The four whole weeks they were computed from. */
  basis: rangeSchema,
  computedAt: z.string(),
  /** Whether an admin refreshed them (false: computed on the quarter's first need). */
  refreshed: z.boolean(),
});

/** What a refresh of a quarter's thresholds takes. */
export const thresholdsInputSchema = z.object({ quarter: z.string().check(z.regex(/^\d{4}-Q[1-4]$/)) });

export const figuresAnswerSchema = z.object({
  measures: z.array(z.string()),
  by: z.enum(FIGURE_GROUPINGS),
  range: rangeSchema,
  /** The period compared with (as long as the range, just before it); null with `compare=none`. */
  previous: z.nullable(rangeSchema),
  teams: z.array(z.string()),
  user: z.nullable(z.string()),
  /** The price list's currency, when a spend measure is asked. */
  currency: z.optional(z.string()),
  rows: z.array(figureRowSchema),
  /**
   * With an intensity measure: the thresholds of each quarter its rows are of (none kept for a quarter of fewer than
   * 8 active people), and the fewest active people a group's bands are shown for (8, or privacy mode's k).
   */
  intensity: z.optional(z.object({ thresholds: z.array(thresholdsSchema), minActive: z.number() })),
  /**
   * With a funnel measure: the days of grace after access (ONBOARDING_GRACE_DAYS), and the fewest starters a group's
   * funnel is given for (privacy mode's k, else 1).
   */
  funnel: z.optional(z.object({ graceDays: z.number(), minStarters: z.number() })),
  /** Privacy mode: people left out because they were fewer than the smallest group (`by=person`). */
  withheld: z.optional(z.object({ minGroup: z.number(), detail: z.string() })),
});
export type FiguresAnswer = z.infer<typeof figuresAnswerSchema>;
