/**
 * Outcome figures of a group of people week by week: credits (and spend) per commit, per pull request and
 * per active person, with the sums behind them, from the day rows the service's endpoints give (or a team's
 * answers, in the same shapes). Weekly because a day's ratio is noise: a day with one commit and a day with
 * none swing it from a number to nothing. Weeks are UTC ISO weeks, labelled by their Monday; a week the
 * range cuts (or the history's start) is `partial`, and its sums hold only the range's days.
 */
import { HISTORY_START, eachDay, maxDay, weekStart, type Day, type DayRange } from './dates';
import {
  creditsPerActivePerson,
  perCommit,
  perPullRequest,
  spendPerActivePerson,
  toolCallsPerTurn,
} from './definitions';

/** The day rows of the four endpoints, by the service's field names (only the fields read here). */
export interface OutcomeDays {
  tokens: readonly { date: string; billable_tokens: number }[];
  productivity: readonly { date: string; git_commits: number; git_prs_created: number }[];
  tools: readonly { date: string; tool_calls: number }[];
  activity: readonly { date: string; user_messages: number; weekly_active_users: number }[];
  /** Each day's spend, with a price list; null without one. */
  spend: readonly { date: string; spend: number }[] | null;
}

/** The additive figures of a week and its active people: what the weekly ratios and the payoff read. */
export interface WeekFigures {
  /** The week's Monday. */
  week: Day;
  /** Days of the week inside the range (7 for a whole week). */
  days: number;
  credits: number;
  commits: number;
  prs: number;
  toolCalls: number;
  userMessages: number;
  /**
   * Distinct people active in the week: the weekly active people of its Sunday (the trailing 7 days are
   * then the week itself). Null for a partial week: the people of part of a week are not in the day rows.
   */
  active: number | null;
}

export interface OutcomeWeek extends WeekFigures {
  partial: boolean;
  /** Null without a price list. */
  spend: number | null;
  creditsPerCommit: number | null;
  creditsPerPr: number | null;
  creditsPerActive: number | null;
  spendPerCommit: number | null;
  spendPerPr: number | null;
  spendPerActive: number | null;
  toolCallsPerTurn: number | null;
}

const byDate = <T extends { date: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.date, r]));

/** Each ISO week of the range (from the history's start), with its sums and ratios. */
export function outcomeWeeks(range: DayRange, d: OutcomeDays): OutcomeWeek[] {
  const start = maxDay(range.start, HISTORY_START);
  if (start > range.end) return [];
  const tokens = byDate(d.tokens);
  const productivity = byDate(d.productivity);
  const tools = byDate(d.tools);
  const activity = byDate(d.activity);
  const spend = d.spend ? byDate(d.spend) : null;
  const weeks: OutcomeWeek[] = [];
  let cur: OutcomeWeek | undefined;
  for (const day of eachDay(start, range.end)) {
    const week = weekStart(day);
    if (cur?.week !== week) {
      if (cur) weeks.push(finish(cur));
      cur = { ...EMPTY, week, spend: spend ? 0 : null };
    }
    cur.days++;
    cur.credits += tokens.get(day)?.billable_tokens ?? 0;
    cur.commits += productivity.get(day)?.git_commits ?? 0;
    cur.prs += productivity.get(day)?.git_prs_created ?? 0;
    cur.toolCalls += tools.get(day)?.tool_calls ?? 0;
    cur.userMessages += activity.get(day)?.user_messages ?? 0;
    if (cur.spend !== null) cur.spend += spend?.get(day)?.spend ?? 0;
    // The Sunday closes the week: its trailing 7 days are the week.
    if (cur.days === 7) cur.active = activity.get(day)?.weekly_active_users ?? 0;
  }
  if (cur) weeks.push(finish(cur));
  return weeks;
}

const EMPTY: Omit<OutcomeWeek, 'week' | 'spend'> = {
  days: 0,
  partial: true,
  credits: 0,
  commits: 0,
  prs: 0,
  toolCalls: 0,
  userMessages: 0,
  active: null,
  creditsPerCommit: null,
  creditsPerPr: null,
  creditsPerActive: null,
  spendPerCommit: null,
  spendPerPr: null,
  spendPerActive: null,
  toolCallsPerTurn: null,
};

function finish(w: OutcomeWeek): OutcomeWeek {
  const partial = w.days < 7;
  const active = partial ? null : w.active;
  const money = (f: (amount: number) => number | null) => (w.spend === null ? null : f(w.spend));
  return {
    ...w,
    partial,
    active,
    creditsPerCommit: perCommit(w.credits, w.commits),
    creditsPerPr: perPullRequest(w.credits, w.prs),
    creditsPerActive: active === null ? null : creditsPerActivePerson(w.credits, active),
    spendPerCommit: money((s) => perCommit(s, w.commits)),
    spendPerPr: money((s) => perPullRequest(s, w.prs)),
    spendPerActive: money((s) => (active === null ? null : spendPerActivePerson(s, active))),
    toolCallsPerTurn: toolCallsPerTurn(w.toolCalls, w.userMessages),
  };
}
