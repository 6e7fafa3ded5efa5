/**
 * The figures about people, each declared once: what it is (its definition, lib/definitions.ts), its unit, which
 * way its change is good news, and how it combines over a group of people and a range. The server's figures runner
 * (server/analytics/figures.ts) computes every one of them the same way for any scope and grouping; a page that
 * lists figures takes them by name. A new figure is one entry here.
 *
 * How a measure combines:
 * - `sum`: the sum of a per-person, per-day fact (`column` of the source's day table: `/users` rows, `/tokens`'
 *   split per person, or spend, the latter priced by the price list);
 * - `people`: distinct people, active ones (a `/users` day in the range) or members (the mapping's, seen or not);
 * - `ratio`: a ratio of two other measures' sums over the whole range and group (never an average of ratios), none
 *   when there is nothing to divide by;
 * - `intensity` (lib/intensity.ts): each person's credits over the four whole ISO weeks to the range's end (to each
 *   day's or week's end, by day or week), placed in a band by the quarter's frozen thresholds; the people in a band,
 *   none for a group of fewer active people in those weeks than it takes (`MIN_ACTIVE`, or privacy mode's k), the
 *   people active in them, or their credits.
 * - `funnel` (lib/funnel.ts): the group's starters (access in the range) counted, or those reaching a step, or the
 *   median days to a step among them; none for a group of fewer starters than privacy mode's k.
 */
import { DEFINITIONS, type Better, type Definition } from './definitions';
import type { FunnelCount, Step } from './funnel';
import type { Band } from './intensity';

export type MeasureSource = 'users' | 'tokens' | 'spend';

export type Combine =
  | { sum: string; source: MeasureSource }
  | { people: 'active' | 'members' }
  | { ratio: readonly [string, string] }
  | { intensity: Band | 'active' | 'credits' }
  | { funnel: FunnelCount }
  | { funnelDays: Exclude<Step, 'retained'> };

export interface Measure {
  definition: Definition;
  unit: 'people' | 'credits' | 'count' | 'money' | 'share' | 'ratio' | 'days';
  combine: Combine;
}

const plain = (label: string, meaning: string, better?: Better): Definition => ({
  label,
  meaning,
  ...(better && { better }),
});

export const MEASURES = {
  members: { definition: DEFINITIONS.members, unit: 'people', combine: { people: 'members' } },
  active: { definition: DEFINITIONS.activePeople, unit: 'people', combine: { people: 'active' } },
  adoption: { definition: DEFINITIONS.adoption, unit: 'share', combine: { ratio: ['active', 'members'] } },
  credits: {
    definition: plain('Credits', 'Standard credits of the range, as the service reports them per person and day.'),
    unit: 'credits',
    combine: { sum: 'billable_tokens', source: 'users' },
  },
  creditsPerActive: {
    definition: DEFINITIONS.creditsPerActivePerson,
    unit: 'credits',
    combine: { ratio: ['credits', 'active'] },
  },
  toolCalls: {
    definition: plain('Tool calls', 'Tool calls the agent made in the range.'),
    unit: 'count',
    combine: { sum: 'tool_calls', source: 'users' },
  },
  userMessages: {
    definition: plain('User messages', 'Messages people sent the agent in the range.'),
    unit: 'count',
    combine: { sum: 'user_messages', source: 'users' },
  },
  toolCallsPerTurn: {
    definition: DEFINITIONS.toolCallsPerTurn,
    unit: 'ratio',
    combine: { ratio: ['toolCalls', 'userMessages'] },
  },
  // Tool calls by the primary mode of each person-day they were made on (the service gives no finer split per person).
  manualToolCalls: {
    definition: plain('Tool calls on manual days', 'Tool calls of the person-days whose primary mode was manual.'),
    unit: 'count',
    combine: { sum: 'manual_tool_calls', source: 'users' },
  },
  lowAutonomyToolCalls: {
    definition: plain(
      'Tool calls on manual or auto-low days',
      'Tool calls of the person-days whose primary mode was manual or auto-low.',
    ),
    unit: 'count',
    combine: { sum: 'low_autonomy_tool_calls', source: 'users' },
  },
  highAutonomyToolCalls: {
    definition: plain(
      'Tool calls on auto-high or auto-medium days',
      'Tool calls of the person-days whose primary mode was auto-high or auto-medium.',
    ),
    unit: 'count',
    combine: { sum: 'high_autonomy_tool_calls', source: 'users' },
  },
  manualShare: {
    definition: DEFINITIONS.manualShare,
    unit: 'share',
    combine: { ratio: ['manualToolCalls', 'toolCalls'] },
  },
  lowAutonomyShare: {
    definition: DEFINITIONS.lowAutonomyShare,
    unit: 'share',
    combine: { ratio: ['lowAutonomyToolCalls', 'toolCalls'] },
  },
  highAutonomyShare: {
    definition: DEFINITIONS.highAutonomyShare,
    unit: 'share',
    combine: { ratio: ['highAutonomyToolCalls', 'toolCalls'] },
  },
  sessions: {
    definition: plain('Sessions', 'Sessions with the agent in the range.'),
    unit: 'count',
    combine: { sum: 'sessions', source: 'users' },
  },
  commits: {
    definition: plain('Commits', 'Commits made through the agent in the range.'),
    unit: 'count',
    combine: { sum: 'git_commits', source: 'users' },
  },
  prs: {
    definition: plain('Pull requests', 'Pull requests created through the agent in the range.'),
    unit: 'count',
    combine: { sum: 'git_prs_created', source: 'users' },
  },
  creditsPerCommit: {
    definition: DEFINITIONS.creditsPerCommit,
    unit: 'credits',
    combine: { ratio: ['credits', 'commits'] },
  },
  creditsPerPr: {
    definition: DEFINITIONS.creditsPerPullRequest,
    unit: 'credits',
    combine: { ratio: ['credits', 'prs'] },
  },
  /** Credits as `/tokens` splits them per person: what spend is priced from. */
  billedCredits: {
    definition: plain('Credits', 'Standard credits of the range, as the service splits its daily total per person.'),
    unit: 'credits',
    combine: { sum: 'credits', source: 'tokens' },
  },
  spend: {
    definition: plain('Spend', 'Credits of the range at the price list’s price for each day, model and tier.'),
    unit: 'money',
    combine: { sum: 'spend', source: 'spend' },
  },
  spendPerActive: {
    definition: DEFINITIONS.spendPerActivePerson,
    unit: 'money',
    combine: { ratio: ['spend', 'active'] },
  },
  spendPerCommit: { definition: DEFINITIONS.spendPerCommit, unit: 'money', combine: { ratio: ['spend', 'commits'] } },
  spendPerPr: { definition: DEFINITIONS.spendPerPullRequest, unit: 'money', combine: { ratio: ['spend', 'prs'] } },
  intensityActive: {
    definition: plain(
      'Active in the four weeks',
      'People with a day of activity in the four whole weeks a band is of.',
    ),
    unit: 'people',
    combine: { intensity: 'active' },
  },
  intensityCredits: {
    definition: plain('Credits over the four weeks', 'Standard credits of the four whole weeks a band is of.'),
    unit: 'credits',
    combine: { intensity: 'credits' },
  },
  intensityHeavy: { definition: DEFINITIONS.intensityHeavy, unit: 'people', combine: { intensity: 'heavy' } },
  intensityModerate: { definition: DEFINITIONS.intensityModerate, unit: 'people', combine: { intensity: 'moderate' } },
  intensityLight: { definition: DEFINITIONS.intensityLight, unit: 'people', combine: { intensity: 'light' } },
  intensityMinimal: { definition: DEFINITIONS.intensityMinimal, unit: 'people', combine: { intensity: 'minimal' } },
  intensityNone: { definition: DEFINITIONS.intensityNone, unit: 'people', combine: { intensity: 'none' } },
  // Each band's share of the members (each member is in one band: the shares add up to 1).
  intensityHeavyShare: {
    definition: DEFINITIONS.intensityHeavy,
    unit: 'share',
    combine: { ratio: ['intensityHeavy', 'members'] },
  },
  intensityModerateShare: {
    definition: DEFINITIONS.intensityModerate,
    unit: 'share',
    combine: { ratio: ['intensityModerate', 'members'] },
  },
  intensityLightShare: {
    definition: DEFINITIONS.intensityLight,
    unit: 'share',
    combine: { ratio: ['intensityLight', 'members'] },
  },
  intensityMinimalShare: {
    definition: DEFINITIONS.intensityMinimal,
    unit: 'share',
    combine: { ratio: ['intensityMinimal', 'members'] },
  },
  intensityNoneShare: {
    definition: DEFINITIONS.intensityNone,
    unit: 'share',
    combine: { ratio: ['intensityNone', 'members'] },
  },
  funnelStarters: { definition: DEFINITIONS.funnelStarters, unit: 'people', combine: { funnel: 'starters' } },
  funnelGrace: { definition: DEFINITIONS.funnelGrace, unit: 'people', combine: { funnel: 'grace' } },
  funnelDue: { definition: DEFINITIONS.funnelDue, unit: 'people', combine: { funnel: 'due' } },
  funnelRetainedDue: { definition: DEFINITIONS.funnelRetainedDue, unit: 'people', combine: { funnel: 'retainedDue' } },
  funnelSession: { definition: DEFINITIONS.funnelSession, unit: 'people', combine: { funnel: 'session' } },
  funnelCommit: { definition: DEFINITIONS.funnelCommit, unit: 'people', combine: { funnel: 'commit' } },
  funnelPr: { definition: DEFINITIONS.funnelPr, unit: 'people', combine: { funnel: 'pr' } },
  funnelRetained: { definition: DEFINITIONS.funnelRetained, unit: 'people', combine: { funnel: 'retained' } },
  funnelSessionShare: {
    definition: DEFINITIONS.funnelSession,
    unit: 'share',
    combine: { ratio: ['funnelSession', 'funnelDue'] },
  },
  funnelCommitShare: {
    definition: DEFINITIONS.funnelCommit,
    unit: 'share',
    combine: { ratio: ['funnelCommit', 'funnelDue'] },
  },
  funnelPrShare: { definition: DEFINITIONS.funnelPr, unit: 'share', combine: { ratio: ['funnelPr', 'funnelDue'] } },
  funnelRetainedShare: {
    definition: DEFINITIONS.funnelRetained,
    unit: 'share',
    combine: { ratio: ['funnelRetained', 'funnelRetainedDue'] },
  },
  funnelSessionDays: { definition: DEFINITIONS.funnelSession, unit: 'days', combine: { funnelDays: 'session' } },
  funnelCommitDays: { definition: DEFINITIONS.funnelCommit, unit: 'days', combine: { funnelDays: 'commit' } },
  funnelPrDays: { definition: DEFINITIONS.funnelPr, unit: 'days', combine: { funnelDays: 'pr' } },
} as const satisfies Record<string, Measure>;

export type MeasureId = keyof typeof MEASURES;

export const measureOf = (id: MeasureId): Measure => MEASURES[id];

/** Whether a measure is an intensity band's (or a share of one): given per group or for one person, never listed by person. */
export const isIntensity = (id: MeasureId): boolean => termsOf(id).some((t) => 'intensity' in measureOf(t).combine);

/** Whether a measure is the funnel's (or a share of one): given per group, never listed by person. */
export const isFunnel = (id: MeasureId): boolean =>
  termsOf(id).some((t) => {
    const c = measureOf(t).combine;
    return 'funnel' in c || 'funnelDays' in c;
  });

/** The measures a measure is computed from, itself included for a sum or a count (a ratio's terms, recursively). */
export function termsOf(id: MeasureId): MeasureId[] {
  const c = measureOf(id).combine;
  return 'ratio' in c ? c.ratio.flatMap((t) => termsOf(t as MeasureId)) : [id];
}

/**
 * A measure's value from the values of its terms (`of`; none for a figure withheld): a sum or count as it is; a ratio
 * of sums, none over 0 or of a term withheld.
 */
export function valueOf(id: MeasureId, of: (term: MeasureId) => number | null): number | null {
  const c = measureOf(id).combine;
  if (!('ratio' in c)) return of(id);
  const n = valueOf(c.ratio[0] as MeasureId, of);
  const d = valueOf(c.ratio[1] as MeasureId, of);
  return n === null || d === null || d === 0 ? null : n / d;
}

/** The relative change from `before` to `now` (0.25: up a quarter); none without a figure before, or from 0. */
export function changeOf(now: number | null, before: number | null): number | null {
  return now === null || before === null || before === 0 ? null : (now - before) / before;
}
