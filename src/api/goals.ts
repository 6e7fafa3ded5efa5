/**
 * The dashboard server's goals per team (with a store): a share to reach by a date, set for a team ('' the
 * organization), with its progress per whole ISO week against a straight line to the goal (lib/goals.ts).
 *
 *   GET    /api/goals[?team=A…]            the goals the reader may see (of those teams), each with its progress
 *   POST   /api/goals {team, kind, target, by}   sets a team's goal (one per team)
 *   PUT    /api/goals/:id {kind, target, by}     changes it: set anew, from the latest whole week
 *   DELETE /api/goals/:id                  removes it
 *
 * Admins set any team's goal and the organization's; a manager their teams' and sub-teams'; a viewer none. A team's
 * goal is read by whoever reads its figures; in privacy mode a team the mode does not show has no progress.
 */
import * as z from 'zod/mini';
import { DEFINITIONS, type Definition } from '../lib/definitions';

export const GOALS_PATH = '/api/goals';
/** The path of one goal. */
export const goalPath = (id: string) => `${GOALS_PATH}/${encodeURIComponent(id)}`;

/**
 * What a goal is a share of: its members weekly active, or its people active in the four whole weeks to each week's
 * Sunday whose intensity there is Moderate or Heavy (lib/intensity.ts).
 */
export const GOAL_KINDS = ['weekly-active', 'moderate-or-above'] as const;
export type GoalKind = (typeof GOAL_KINDS)[number];

/** Each kind's figure (lib/definitions.ts): its label, and what the share counts. */
export const GOAL_KIND_INFO: Record<GoalKind, Definition> = {
  'weekly-active': DEFINITIONS.membersWeeklyActive,
  'moderate-or-above': DEFINITIONS.activeModerateOrAbove,
};

export const GOAL_STATUSES = ['on-course', 'off-course', 'met', 'missed', 'unknown'] as const;

/** How far ahead a goal's date may be, in days after the latest day with data. */
export const GOAL_AHEAD_DAYS = 366;
/** How soon a goal's date may be: a whole week after the latest day with data, so that one whole week lies between. */
export const GOAL_SOONEST_DAYS = 7;

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const share = z.nullable(z.number());

export const goalWeekSchema = z.object({
  /** The week's Monday. */
  week: day,
  /** Its share, once the week is over; none with nothing to divide by, or a group too small to band. */
  actual: share,
  /** The straight line to the goal. */
  line: share,
  /** The projection (the least-squares line of the last whole weeks), from the weeks it is fitted on. */
  projection: share,
});

export const goalProgressSchema = z.object({
  /** The Monday of the week the line starts from: the last whole week when the goal was set. */
  startWeek: day,
  startValue: share,
  /** The Monday of the last whole week ending on or before the target date: the week the goal is read in. */
  targetWeek: day,
  current: z.nullable(z.object({ week: day, value: z.number() })),
  projected: share,
  /** Whole weeks the projection is fitted over (0: too few to fit). */
  fitted: z.number(),
  status: z.enum(GOAL_STATUSES),
  /** The scope's members now (the denominator of a share of members weekly active). */
  members: z.number(),
  weeks: z.array(goalWeekSchema),
});
export type GoalProgressAnswer = z.infer<typeof goalProgressSchema>;

export const goalSchema = z.object({
  id: z.string(),
  /** '' for the organization, else a team's path. */
  team: z.string(),
  kind: z.enum(GOAL_KINDS),
  /** The share to reach, 0 to 1. */
  target: z.number(),
  /** The target date. */
  by: day,
  startWeek: day,
  /** Who set it, told to those who may change it (in privacy mode, to a reader who is not an admin, only their own). */
  author: z.nullable(z.string()),
  updatedAt: z.string(),
  /** Whether the reader may change or remove it. */
  editable: z.boolean(),
  /** Its progress; none when it cannot be shown (`reason` says why). */
  progress: z.nullable(goalProgressSchema),
  reason: z.nullable(z.string()),
});
export type Goal = z.infer<typeof goalSchema>;

export const goalsAnswerSchema = z.object({
  /** The latest day with data: the weeks are read to it. */
  latest: day,
  goals: z.array(goalSchema),
});
export type GoalsAnswer = z.infer<typeof goalsAnswerSchema>;

/** What `POST /api/goals` takes. */
export const goalInputSchema = z.object({
  team: z.string(),
  kind: z.enum(GOAL_KINDS),
  target: z.number(),
  by: day,
});
export type GoalInput = z.infer<typeof goalInputSchema>;

/** What `PUT /api/goals/:id` takes: a goal stays with its team. */
export const goalChangeSchema = z.object({ kind: z.enum(GOAL_KINDS), target: z.number(), by: day });
export type GoalChange = z.infer<typeof goalChangeSchema>;

/** What `DELETE /api/goals/:id` answers. */
export const goalRemovedSchema = z.object({ removed: z.string() });
