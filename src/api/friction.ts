/**
 * Readiness priced in friction and delegation headroom (issue #47; the rules: lib/definitions.ts, docs/reading.md):
 *
 *   GET /api/readiness/friction[?start&end][&team=…]
 *       the outermost teams owning repositories with a report (of the teams asked for, with their sub-teams), each
 *       criterion's teams failing it against those passing it on their figures of the range, and the teams whose
 *       readiness level and autonomy leave room to delegate more or are a risk to look at. A side's figures are
 *       none unless each side has `minTeams` teams or more. Managers and admins; in privacy mode a team the mode does
 *       not show is on no side and in no list, and a manager's comparison is over their own teams.
 */
import * as z from 'zod/mini';

export const FRICTION_PATH = '/api/readiness/friction';

const share = z.nullable(z.number());

export const frictionSideSchema = z.object({
  /** The teams on the side (their paths, and how many), and their repositories evaluated on the criterion. */
  names: z.array(z.string()),
  teams: z.number(),
  repositories: z.number(),
  /** None unless both sides have `minTeams` teams or more. */
  activePeople: z.nullable(z.number()),
  toolCallsPerTurn: share,
  creditsPerPr: share,
  manualShare: share,
  /** With a price list: the side's spend ÷ its active people, per 30 days. */
  spendPerActiveMonth: share,
});

export const frictionCriterionSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Its level in the known criteria; null for one outside them. */
  level: z.nullable(z.number()),
  /** Whether both sides have `minTeams` teams or more: only then are the sides' figures given. */
  shown: z.boolean(),
  failing: frictionSideSchema,
  passing: frictionSideSchema,
  /** Failing's spend per active person per month minus passing's (a price list, both shown). */
  spendDifference: share,
});

export const headroomRowSchema = z.object({
  team: z.string(),
  /** The team readiness level: the lower median of its repositories' latest levels. */
  level: z.number(),
  repositories: z.number(),
  toolCalls: z.number(),
  lowAutonomyShare: share,
  highAutonomyShare: share,
});

export const frictionAnswerSchema = z.object({
  range: z.object({ start: z.string(), end: z.string() }),
  minTeams: z.number(),
  /** The price list's currency, null without one (no spend then). */
  currency: z.nullable(z.string()),
  /** The teams compared (outermost teams owning repositories with a report, among those the reader may see). */
  teams: z.number(),
  criteria: z.array(frictionCriterionSchema),
  headroom: z.object({
    /** At level 3 or above with more than half of their tool calls manual or auto-low: room to delegate more. */
    room: z.array(headroomRowSchema),
    /** At level 1 or 2 with more than half auto-high or auto-medium: a risk to look at. */
    risk: z.array(headroomRowSchema),
  }),
});

export type FrictionSide = z.infer<typeof frictionSideSchema>;
export type FrictionCriterion = z.infer<typeof frictionCriterionSchema>;
export type HeadroomRow = z.infer<typeof headroomRowSchema>;
export type FrictionAnswer = z.infer<typeof frictionAnswerSchema>;
