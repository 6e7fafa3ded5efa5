/**
 * The dashboard server's own users endpoints (not the service's): the merged
 * per-user table of a range, sorted, filtered and paged on the server, its
 * CSV, and one user's days. They exist when the server keeps a store (it holds
 * the key); with keys brought by each reader the browser walks `/users` itself.
 */
import * as z from 'zod/mini';
import type { MergedUser } from '../lib/user-merge';
import { userRowSchema } from './schemas';

export const USERS_PATHS = {
  table: '/api/users',
  csv: '/api/users.csv',
  /** One user's days: `/api/users/<id>`. */
  user: (userId: string) => `/api/users/${encodeURIComponent(userId)}`,
} as const;

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const rangeSchema = z.object({ start: day, end: day });

export const mergedUserSchema = z.object({
  userId: z.string(),
  email: z.nullable(z.string()),
  activeDays: z.number(),
  firstDay: z.nullable(day),
  lastDay: z.nullable(day),
  credits: z.number(),
  toolCalls: z.number(),
  sessions: z.number(),
  messages: z.number(),
  userMessages: z.number(),
  assistantMessages: z.number(),
  filesCreated: z.number(),
  filesEdited: z.number(),
  commits: z.number(),
  prs: z.number(),
  mcpCalls: z.number(),
  skillCalls: z.number(),
  slashCommands: z.number(),
  hooks: z.number(),
  autonomyRatio: z.number(),
  primaryModel: z.string(),
  primaryModelTier: z.string(),
  delegationLevel: z.string(),
  languages: z.array(z.string()),
  /** The range's spend, only from a server with a price list. */
  spend: z.optional(z.number()),
  /** The person's team by the mapping in force and its managers, only from a server with a mapping. */
  team: z.optional(z.string()),
  managers: z.optional(z.array(z.string())),
  lastActiveDay: z.optional(z.nullable(day)),
});

/**
 * While the store does not hold every day of the range yet, the server walks
 * the service for them and answers 202 with `complete: false` and this; the
 * reader is asked to come back (`Retry-After`).
 */
export const fillProgressSchema = z.object({
  days: z.number(),
  storedDays: z.number(),
  /** What the walk is doing, e.g. `users 2026-03-01…2026-03-31 (page 12)`. */
  activity: z.nullable(z.string()),
  detail: z.string(),
});

export const usersTableSchema = z.object({
  /** The page: `limit` rows from `offset` of the sorted, filtered table. */
  users: z.array(mergedUserSchema),
  offset: z.number(),
  /** Rows the filters keep. */
  total: z.number(),
  /** Users active in the range, before the filters; null in privacy mode when they are 1 to `minGroup` − 1 people. */
  activeUsers: z.nullable(z.number()),
  /**
   * Known people of the same teams not active in the range, but for the new starters in grace (`grace`; listed with
   * \`who=inactive\`, and with \`all\` beside those in grace); null as `activeUsers` is.
   */
  inactiveUsers: z.nullable(z.number()),
  /**
   * The seats' counts of the same teams (the people the team mapping names: `named`, and of them those active in the
   * range, those known with no day of activity in the 7 and the 30 days to its end, and those who never used the
   * agent by then: the last three but for the new starters in grace), each listed with `who=named`, `named-active`,
   * `idle-7`, `idle-30`, `never`; null without a mapping. A count is null as `activeUsers` is.
   */
  seats: z.optional(
    z.nullable(
      z.object({
        named: z.nullable(z.number()),
        active: z.nullable(z.number()),
        idle7: z.nullable(z.number()),
        idle30: z.nullable(z.number()),
        never: z.nullable(z.number()),
      }),
    ),
  ),
  /**
   * The new starters of the same teams in their days of grace by the range's end (lib/funnel.ts: their access day
   * fewer than `days` days before it, or after it; `days` is ONBOARDING_GRACE_DAYS), whom the lists of people not
   * using the agent (`who=inactive`, `idle-7`, `idle-30`, `never`) and their counts leave out as new, not lagging
   * behind: how many each leaves out (`seats`: with a mapping, as `seats`). A count is null as `activeUsers` is.
   * Absent while the range's table is not read yet.
   */
  grace: z.optional(
    z.object({
      days: z.number(),
      inactive: z.nullable(z.number()),
      seats: z.nullable(
        z.object({ idle7: z.nullable(z.number()), idle30: z.nullable(z.number()), never: z.nullable(z.number()) }),
      ),
    }),
  ),
  /**
   * The days of history stored up to the range's end, of all of them: until they all are, the people not active in
   * the range miss those last active before the days still missing.
   */
  history: z.object({ storedDays: z.number(), days: z.number() }),
  facets: z.object({ delegation: z.array(z.string()), tier: z.array(z.string()), lang: z.array(z.string()) }),
  range: rangeSchema,
  sort: z.object({ column: z.string(), dir: z.enum(['asc', 'desc']) }),
  /**
   * False while the range is being filled from the service: `users` is then
   * empty, or the table as it was before its latest days were walked again.
   */
  complete: z.boolean(),
  progress: z.optional(fillProgressSchema),
  /** Privacy mode: the filters left fewer than `minGroup` people, so no rows and no count (`total` 0) are given. */
  withheld: z.optional(z.object({ minGroup: z.number(), detail: z.string() })),
});

export const userDaysSchema = z.object({
  userId: z.string(),
  /** The user's days merged; null when the user had no activity in the range. */
  user: z.nullable(mergedUserSchema),
  /** The service's `/users` rows of this user, by day. */
  days: z.array(userRowSchema),
  range: rangeSchema,
  complete: z.boolean(),
  progress: z.optional(fillProgressSchema),
});

export type UsersTableAnswer = z.infer<typeof usersTableSchema>;
export type UserDaysAnswer = z.infer<typeof userDaysSchema>;
export type FillProgress = z.infer<typeof fillProgressSchema>;

// The schema and the merge describe one shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof mergedUserSchema>, MergedUser> = true;
void sameShape;
