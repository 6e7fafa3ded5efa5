/**
 * From access to a first pull request (issue #47): each person's access day, then their first day with a session,
 * with a commit and with a pull request through the agent, and whether they were still active four weeks later. The
 * server counts it (server/analytics/funnel.ts, as measures of lib/measures.ts); the rules both sides read are here.
 *
 * - **Access**: the mapping's `since` for the person when it gives one; otherwise the earlier of the first day the
 *   mapping named them and the first day they were seen in the usage (a `/users` day).
 * - **Starters**: the people whose access day is after the history's first day (`HISTORY_START`): those there on it
 *   were there before the history and are no starters. A cohort is the starters whose access is in a week (or range).
 * - **Steps**: first session, commit and pull request count when they come within `STEP_DAYS` days of access (a step
 *   before access counts on the access day); "still active" is a session in the `RETAINED_DAYS` days from
 *   `RETAINED_FROM` days after access. A step's share and median days are over the starters whose window for it has
 *   ended (a person who started three days ago is not counted as not reaching it).
 * - **Grace**: a starter within `graceDays` of access is new, not lagging behind: counted apart until it ends, and
 *   kept out of the lists of people not using the agent (the users page's not active, inactive and never used).
 */
import { addDays, HISTORY_START, type Day } from './dates';

/** The steps after access, in order. */
export const STEPS = ['session', 'commit', 'pr', 'retained'] as const;
export type Step = (typeof STEPS)[number];

/** First session, commit and pull request count within the access day and the 27 days after it. */
export const STEP_DAYS = 28;
/** Still active: a session in the seven days from the 28th day after access. */
export const RETAINED_FROM = 28;
export const RETAINED_DAYS = 7;
/** Days of grace after access, unless ONBOARDING_GRACE_DAYS says otherwise. */
export const DEFAULT_GRACE_DAYS = 14;

/**
 * Whether a person whose access day is `access` is in grace on `asOf` (a range's end): a starter with fewer than
 * `graceDays` days from access to then, or whose access comes after it. The server's SQL says the same
 * (server/analytics/grace.ts).
 */
export const inGrace = (access: Day, asOf: Day, graceDays: number): boolean =>
  access > HISTORY_START && addDays(access, graceDays) > asOf;

/** What the funnel counts of a group: starters, those in grace, those whose windows ended, those reaching each step. */
export type FunnelCount = 'starters' | 'grace' | 'due' | 'retainedDue' | Step;
