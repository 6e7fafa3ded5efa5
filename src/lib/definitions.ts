/**
 * The dashboard's definitions, decided once (issue #26): what each figure that two pages could count
 * differently means, its short label, and the formula that computes it. The SPA labels every card,
 * column and line that shows one of these with its `meaning` (components/Definition.tsx); the server
 * and the SPA compute them with the functions below, so a ratio over a range is one formula on every
 * page. Every headline card says how it is counted (issue #46): a card's figure has an entry here, its
 * meaning saying over which days it is taken and how they are combined. docs/reading.md's Glossary says
 * the same in prose, with every label below.
 *
 * One word per concept: a person is a "person" ("people"), never a "user", in every label below; the
 * service's own field names (`daily_active_users`) stay in CSV headers only.
 */
import { HISTORY_START } from './dates';
import { PROJECTION_WEEKS } from './goals';
import { LEVEL_THRESHOLDS, TARGET_LEVEL } from './readiness';

/** "20 %", as the readiness pages write a threshold: a no-break space keeps the figure and its % on one line. */
const pct = (x: number) => `${Math.round(x * 100)}\u00a0%`;

export interface Definition {
  /** The label a card, column header or line shows. */
  label: string;
  /** One sentence a manager reads to know what is counted. */
  meaning: string;
  /**
   * Which way a change of the figure is good news, coloured so beside it (green good, red bad); left out, a
   * change is neither and is shown in a neutral colour. Usage counts (credits, tokens, spend, sessions) are
   * neither: more use is what the agent is bought for, and its cost is judged against a budget, not a trend.
   */
  better?: Better;
}

/** Which way a figure's change is good news. */
export type Better = 'up' | 'down';

/** Fewer owning teams than this on either side of a criterion: its friction is not shown. */
export const FRICTION_MIN_TEAMS = 3;

export const DEFINITIONS = {
  toolCallsPerTurn: {
    label: 'Tool calls per user turn',
    meaning:
      'All tool calls in the range divided by all messages people sent in the range (a ratio of the sums, not an average of days or of people).',
  },
  serviceDailyRatio: {
    label: 'Tool calls per user turn, per day',
    meaning:
      "The service's own figure for each day: each person's tool calls per user turn that day, averaged over the day's people (and its median and 90th percentile); busy and quiet people weigh the same.",
  },
  creditsPerActivePerson: {
    label: 'Credits per active person',
    meaning: 'Standard credits of the range divided by the active people of the range.',
  },
  activePeople: {
    label: 'Active people',
    meaning:
      'Distinct people with at least one day of activity (a day the service reports for them) in the range, among the people shown.',
    better: 'up',
  },
  knownPeople: {
    label: 'Known people',
    meaning: `Everyone the service has reported a day of activity for since the history starts (${HISTORY_START}), active in the range or not.`,
  },
  lastActiveDay: {
    label: 'Last active',
    meaning:
      "A person's latest day of activity up to the range's end, in the range or before it: for people not active in the range, when they last used the agent.",
  },
  notActive: {
    label: 'Not active in the range',
    meaning:
      'Known people (a day of activity reported since the history starts, up to the range’s end) with no day of activity in the range, new starters in grace left out.',
  },
  seats: {
    label: 'Seats',
    meaning:
      'The people the team mapping names, in the teams shown: those who use the agent and those who have not yet, each count opening its list.',
  },
  idle7: {
    label: 'Inactive 7 days',
    meaning:
      'People the mapping names who used the agent before, but had no day of activity in the 7 days to the range’s end, new starters in grace left out.',
  },
  idle30: {
    label: 'Inactive 30 days',
    meaning:
      'People the mapping names who used the agent before, but had no day of activity in the 30 days to the range’s end, new starters in grace left out.',
  },
  neverUsed: {
    label: 'Never used',
    meaning:
      'People the mapping names with no day of activity and no credits by the range’s end, new starters in grace left out: they have not used the agent yet.',
  },
  newStarters: {
    label: 'New starters in grace',
    meaning:
      'People whose access day (the mapping’s since, else the earlier of the day it first named them and their first day seen) is within the grace period to the range’s end (ONBOARDING_GRACE_DAYS, 14 days by default) or after it: new, not lagging behind, so in none of the lists of people not using the agent.',
  },
  members: {
    label: 'Members',
    meaning:
      'The people the team mapping puts in the team or its sub-teams, including people it names who have not used the agent yet.',
  },
  unassigned: {
    label: 'Unassigned',
    meaning: 'Known people the team mapping names in no team.',
  },
  adoption: {
    label: 'Adoption',
    meaning: 'Active people in the range divided by members.',
    better: 'up',
  },
  dailyActivePeople: {
    label: 'Daily active people',
    meaning: 'Distinct people active on a day; the card shows the average day of the range.',
    better: 'up',
  },
  weeklyActivePeople: {
    label: 'Weekly active people',
    meaning: 'Distinct people active in the 7 days ending on a day; the card shows the range’s last day.',
    better: 'up',
  },
  monthlyActivePeople: {
    label: 'Monthly active people',
    meaning: 'Distinct people active in the 30 days ending on a day; the card shows the range’s last day.',
    better: 'up',
  },
  creditsPerCommit: {
    label: 'Credits per commit',
    meaning:
      'Standard credits of the range divided by the commits made through the agent in the range (a ratio of the sums); none when there were no such commits.',
    better: 'down',
  },
  creditsPerPullRequest: {
    label: 'Credits per pull request',
    meaning:
      'Standard credits of the range divided by the pull requests created through the agent in the range (a ratio of the sums); none when there were no such pull requests.',
    better: 'down',
  },
  spendPerCommit: {
    label: 'Spend per commit',
    meaning:
      'Spend of the range (its credits at the price list) divided by the commits made through the agent in the range; none when there were no such commits.',
    better: 'down',
  },
  spendPerPullRequest: {
    label: 'Spend per pull request',
    meaning:
      'Spend of the range (its credits at the price list) divided by the pull requests created through the agent in the range; none when there were no such pull requests.',
    better: 'down',
  },
  spendPerActivePerson: {
    label: 'Spend per active person',
    meaning: 'Spend of the range (its credits at the price list) divided by the active people of the range.',
  },
  intensity: {
    label: 'Intensity',
    meaning:
      'A person’s standard credits over the four whole ISO weeks (Monday to Sunday, UTC) to the range’s end, in a band by the quarter’s frozen thresholds (Heavy, Moderate, Light, Minimal or None): how much of the agent they used, not how well they work.',
  },
  intensityHeavy: {
    label: 'Heavy',
    meaning: 'Credits over the four weeks at or above the quarter’s 75th percentile of the active people’s credits.',
  },
  intensityModerate: {
    label: 'Moderate',
    meaning:
      'Credits over the four weeks at or above the quarter’s median (50th percentile), below its 75th percentile.',
  },
  intensityLight: {
    label: 'Light',
    meaning: 'Credits over the four weeks at or above the quarter’s 25th percentile, below its median.',
  },
  intensityMinimal: {
    label: 'Minimal',
    meaning: 'Active in the four weeks, with credits below the quarter’s 25th percentile.',
  },
  intensityNone: {
    label: 'None',
    meaning: 'Named in the team mapping or known, with no day of activity in the four weeks.',
  },
  funnelStarters: {
    label: 'Starters',
    meaning: `People whose access day is in the range: the mapping’s since for them, else the earlier of the day the mapping first named them and their first day seen; people there on ${HISTORY_START}, the history’s first day, came before it and are no starters.`,
  },
  funnelGrace: {
    label: 'In grace',
    meaning:
      'Starters still within the grace period after their access day (ONBOARDING_GRACE_DAYS, 14 days by default): new, not lagging behind, and counted apart until it ends.',
  },
  funnelDue: {
    label: 'Four weeks ended',
    meaning: 'Starters whose first four weeks (their access day and the 27 days after it) have ended.',
  },
  funnelRetainedDue: {
    label: 'Five weeks ended',
    meaning: 'Starters whose 35th day after access has passed: whether they were still active can be told.',
  },
  funnelSession: {
    label: 'First session',
    meaning:
      'Starters whose four weeks have ended with a session within them (a session before access counts on the access day): the share is of those starters, the days are the median from access.',
    better: 'up',
  },
  funnelCommit: {
    label: 'First commit',
    meaning:
      'Starters whose four weeks have ended with a commit through the agent within them: the share is of those starters, the days are the median from access.',
    better: 'up',
  },
  funnelPr: {
    label: 'First pull request',
    meaning:
      'Starters whose four weeks have ended with a pull request through the agent within them: the share is of those starters, the days are the median from access.',
    better: 'up',
  },
  funnelRetained: {
    label: 'Still active after four weeks',
    meaning:
      'Starters with a session in the seven days from the 28th day after access, among those whose 35th day has passed.',
    better: 'up',
  },
  intensityThresholds: {
    label: 'Intensity thresholds',
    meaning:
      'The 25th, 50th and 75th percentiles of the organization’s active people’s credits over four whole weeks (those to the latest day when the quarter first needed them, or when an admin refreshed them), frozen for the calendar quarter so that a band moves when the person’s own use does.',
  },
  standardCredits: {
    label: 'Standard credits',
    meaning:
      'The service’s unit of consumption, as it reports it, summed over the range’s days: computed from raw input and output tokens with cached tokens discounted and a multiplier per model; never recomputed here.',
  },
  spend: {
    label: 'Spend',
    meaning:
      'Each day’s credits of each person and model at that day’s price per million credits in the price list (for the model, else its tier, else the default), summed over the range’s days.',
  },
  tokens: {
    label: 'Tokens',
    meaning:
      'Raw counts as the service reports them, summed over the range’s days: input and output tokens, and prompt-cache reads and writes; standard credits are computed from them.',
  },
  teamReadiness: {
    label: 'Readiness level',
    meaning:
      'The mean of the latest readiness level (1–5) of each repository the team owns in the team mapping, as of the range’s last day, with how many repositories.',
  },
  creditsPerDay: {
    label: 'Credits per day',
    meaning: 'Standard credits of the range divided by its number of days, weekends and holidays included.',
  },
  creditShare: {
    label: 'Share of organization credits',
    meaning:
      'The person’s standard credits of the range divided by the whole organization’s (a ratio of the sums, from the service’s daily split of credits per person).',
  },
  activeDays: {
    label: 'Active days',
    meaning: 'Days of the range on which the service reports activity for the person.',
  },
  sessions: {
    label: 'Sessions',
    meaning: 'Sessions started with the agent, summed over the range’s days.',
  },
  messages: {
    label: 'Messages',
    meaning:
      'Messages of the sessions, those people sent and the agent’s answers together, summed over the range’s days.',
  },
  userMessages: {
    label: 'User messages',
    meaning:
      'Messages people sent the agent (their turns), summed over the range’s days; what tool calls per user turn divides by.',
  },
  toolCalls: {
    label: 'Tool calls',
    meaning: 'Every tool the agent ran (a file read, an edit, a command…), summed over the range’s days.',
  },
  externalToolServerCalls: {
    label: 'External tool-server calls',
    meaning:
      'Calls the agent made to external tool servers (MCP, such as GitHub or Linear), summed over every server and day of the range; given for the whole organization only.',
  },
  skillActivations: {
    label: 'Skill activations',
    meaning: 'Times the agent activated a skill, summed over the range’s days.',
  },
  slashCommands: {
    label: 'Slash commands',
    meaning: 'Slash commands (such as /review) people ran in their sessions, summed over the range’s days.',
  },
  hookExecutions: {
    label: 'Hook executions',
    meaning:
      'Runs of the hooks people configured (a command run on an event, such as before a tool is used), summed over the range’s days.',
  },
  filesCreated: {
    label: 'Files created',
    meaning: 'New files the agent created, summed over the range’s days.',
  },
  filesEdited: {
    label: 'Files edited',
    meaning: 'Existing files the agent modified, each day’s count summed over the range’s days.',
  },
  commits: {
    label: 'Commits',
    meaning:
      'Commits made through the agent, summed over the range’s days: not every commit of the organization, team or person.',
  },
  pullRequests: {
    label: 'Pull requests',
    meaning:
      'Pull requests created through the agent, summed over the range’s days: not every pull request of the organization, team or person.',
  },
  repoLevel: {
    label: 'Level',
    meaning: `The repository’s readiness level (1 Functional to 5 Autonomous) from the pass rate of the report shown, its latest unless an earlier one is chosen: 1 below ${pct(LEVEL_THRESHOLDS[1])}, ${LEVEL_THRESHOLDS.slice(
      1,
    )
      .map((t, i) => `${i + 2} from ${pct(t)}`)
      .join(', ')}.`,
    better: 'up',
  },
  passRate: {
    label: 'Pass rate',
    meaning:
      'The mean score of the report’s criteria not skipped, a criterion scoring the share of its sub-applications that pass it, each criterion weighing the same.',
    better: 'up',
  },
  toNextLevel: {
    label: 'To next level',
    meaning: `How far the pass rate has come from its level’s threshold to the next level’s (from ${pct(LEVEL_THRESHOLDS[2])} to ${pct(LEVEL_THRESHOLDS[3])} at level 3), as a share of that step; none at level 5.`,
    better: 'up',
  },
  passedCriteria: {
    label: 'Passed',
    meaning:
      'Criteria of the report shown that pass in every sub-application evaluated (the numerator equals the denominator).',
  },
  failedCriteria: {
    label: 'Failed',
    meaning:
      'Criteria of the report shown that fail in at least one sub-application evaluated; a partial pass still adds its share to the pass rate.',
  },
  skippedCriteria: {
    label: 'Skipped',
    meaning:
      'Criteria of the report shown that the evaluator skipped as not applicable (no numerator): left out of the pass rate, and so of the level.',
  },
  atTargetLevel: {
    label: `At level ${TARGET_LEVEL} or above`,
    meaning: `The share of the repositories tracked whose latest report is at level ${TARGET_LEVEL} (the usual target) or above; the period chosen for the charts does not change it.`,
    better: 'up',
  },
  repositoriesTracked: {
    label: 'Repositories tracked',
    meaning:
      'Repositories (told apart by their normalised URL) with at least one readiness report, those the teams chosen own when teams are chosen.',
  },
  readinessUpdated: {
    label: 'Last updated (UTC)',
    meaning: 'The UTC day of the newest readiness report of the repositories tracked.',
  },
  // A team's goal (lib/goals.ts): what its share counts, the line it is read against, and how it is projected.
  goal: {
    label: 'Goal',
    meaning:
      'The team’s goal, a share of its members weekly active or of its active people at Moderate or above to reach by a date: its latest whole week’s share of the target, and whether the projection of its last whole weeks reaches the target in time.',
  },
  membersWeeklyActive: {
    label: 'Members weekly active',
    meaning:
      'The members with at least one day of activity in a whole ISO week (Monday to Sunday, UTC), divided by the members as the team mapping stands now.',
    better: 'up',
  },
  activeModerateOrAbove: {
    label: 'Active people at Moderate or above',
    meaning:
      'Of the people with a day of activity in the four whole weeks to a week’s Sunday, those whose credits over those weeks are at Moderate or Heavy intensity (the quarter’s thresholds); none for a group of fewer than 8 such people.',
    better: 'up',
  },
  lineToTheGoal: {
    label: 'Line to the goal',
    meaning:
      'A straight line from the goal’s start (the last whole week when it was set, at its value then) to the target on the week the goal is read in: the last whole week ending by its date.',
  },
  goalProjection: {
    label: 'Projection',
    meaning: `The least-squares straight line through the last ${PROJECTION_WEEKS} whole weeks’ values, read at the week the goal is read in (held between 0 and 100\u00a0%): on course when it reaches the target, off course when it falls short; once that week is over, the goal is met or missed by its own value.`,
  },
  // The share of tool calls by primary mode (issue #47): per person-day, as the service gives no finer split per person.
  manualShare: {
    label: 'Tool calls run manually',
    meaning:
      'The tool calls of the person-days whose primary mode was manual, divided by all tool calls of the range: each person-day’s calls are counted in its primary mode, as the service splits them no finer per person.',
  },
  lowAutonomyShare: {
    label: 'Tool calls run manual or auto-low',
    meaning:
      'The tool calls of the person-days whose primary mode was manual or auto-low, divided by all tool calls of the range: each person-day’s calls are counted in its primary mode, as the service splits them no finer per person.',
  },
  highAutonomyShare: {
    label: 'Tool calls run auto-high or auto-medium',
    meaning:
      'The tool calls of the person-days whose primary mode was auto-high or auto-medium, divided by all tool calls of the range: each person-day’s calls are counted in its primary mode, as the service splits them no finer per person.',
  },
  frictionSide: {
    label: 'Teams failing, teams passing',
    meaning: `For a criterion, each outermost team owning repositories with a latest report (its repositories are those it and its sub-teams own, its figures its people and its sub-teams’) fails it when more than half of its repositories evaluated on it fail it and passes it when more than half pass, a tie or none evaluated putting it on neither side; shown with at least ${FRICTION_MIN_TEAMS} teams on each side.`,
  },
  spendPerActiveMonth: {
    label: 'Spend per active person per month',
    meaning:
      'Spend of the range at the price list’s prices divided by the active people of the range, times 30 and divided by the range’s days.',
  },
  teamReadinessLevel: {
    label: 'Team readiness level',
    meaning:
      'The highest level that at least half of the repositories the team (with its sub-teams) owns stand at or above, by each one’s latest report: the median, the lower of the two middle ones for an even count.',
  },
  delegationHeadroom: {
    label: 'Delegation headroom',
    meaning: `Teams whose readiness level is ${TARGET_LEVEL} or above while more than half of their tool calls run manual or auto-low (room to delegate more), and teams at level 1 or 2 while more than half run auto-high or auto-medium (a risk to look at).`,
  },
} as const satisfies Record<string, Definition>;

/** Said on every view of readiness priced in friction. */
export const FRICTION_CAVEAT =
  'This is a correlation across few teams, never a cause: teams differ in much more than one criterion, and a handful of teams can line up by chance.';

/**
 * Said beside every figure per commit or per pull request: the service counts only what its agent made, so
 * these ratios are not a team's cost of all its commits.
 */
export const AGENT_ONLY_CAVEAT =
  'Commits and pull requests count only those made through the agent, not every commit or pull request of the team.';

/**
 * Said on every view of intensity: it is consumption, and a ranking of it pushes people to burn credits, so no page
 * lists people by it.
 */
export const INTENSITY_CAVEAT =
  'Intensity is use, not merit: it says how much of the agent people consumed, not how well they work, and it is never ranked person by person.';

export type DefinitionId = keyof typeof DEFINITIONS;

/** A ratio of two sums over a range; null when there is nothing to divide by. */
export function ratioOfSums(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** Tool calls per user turn over a range (organization, team or person): Σ tool calls ÷ Σ user messages. */
export const toolCallsPerTurn = (toolCalls: number, userMessages: number): number | null =>
  ratioOfSums(toolCalls, userMessages);

/** Credits per active person: Σ credits ÷ active people of the range. */
export const creditsPerActivePerson = (credits: number, activePeople: number): number | null =>
  ratioOfSums(credits, activePeople);

/** Credits (or spend) per commit over a range: Σ credits ÷ Σ commits made through the agent. */
export const perCommit = (amount: number, commits: number): number | null => ratioOfSums(amount, commits);

/** Credits (or spend) per pull request over a range: Σ credits ÷ Σ pull requests created through the agent. */
export const perPullRequest = (amount: number, prs: number): number | null => ratioOfSums(amount, prs);

/** Spend per active person: Σ spend ÷ active people of the range (as credits per active person). */
export const spendPerActivePerson = (spend: number, activePeople: number): number | null =>
  ratioOfSums(spend, activePeople);

/** Adoption: active people ÷ members. */
export const adoption = (activePeople: number, members: number): number | null => ratioOfSums(activePeople, members);

/**
 * How the teams' members relate to the known people: every known person is in one team or Unassigned, and
 * the mapping may name people the service has not reported yet. So members of the top-level teams plus
 * Unassigned = known people + people named but not yet seen.
 */
export function notYetSeen(membersWithUnassigned: number, knownPeople: number): number {
  return Math.max(0, membersWithUnassigned - knownPeople);
}

/** "1 person", "4 people". */
export const people = (n: number, format: (n: number) => string = String): string =>
  `${format(n)} ${n === 1 ? 'person' : 'people'}`;

/** A column or card headed by a definition's label, carrying its definition. */
export const labelled = (d: Definition) => ({ header: d.label, definition: d });
