import type { ActivityDay, ToolDay } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { toolCallsPerTurn } from '../../lib/definitions';
import { fillDays, mergeCaseDuplicates, rankTotals, sumBy, totalsByName, type NamedTotal } from '../../lib/series';

export function toolTotals(days: readonly ToolDay[]) {
  return {
    toolCalls: sumBy(days, (d) => d.tool_calls),
    mcpCalls: sumBy(days, (d) => sumBy(d.mcp_by_server, (m) => m.invocations)),
    skills: sumBy(days, (d) => d.skills_invocations),
    slash: sumBy(days, (d) => d.slash_commands_invocations),
    hooks: sumBy(days, (d) => d.hooks_invocations),
  };
}

/** The user messages of a range: the denominator of tool calls per user turn (`/activity` has them, `/tools` not). */
export const userTurns = (days: readonly ActivityDay[]) => sumBy(days, (d) => d.user_messages);

/**
 * Tool calls per user turn over the range, as every page computes it (lib/definitions.ts): Σ tool calls of
 * `/tools` ÷ Σ user messages of `/activity`, of the same people (the organization, or the teams chosen).
 * Not the mean of the service's daily `autonomy_ratio_avg`: that average weighs a person with one message
 * like one with a hundred, and each day alike, so it disagreed with the teams page (7.9 against 8.6).
 */
export const rangeToolCallsPerTurn = (tools: readonly ToolDay[], activity: readonly ActivityDay[]) =>
  toolCallsPerTurn(
    sumBy(tools, (d) => d.tool_calls),
    userTurns(activity),
  );

export const byTool = (days: readonly ToolDay[]) =>
  rankTotals(totalsByName(days, (d) => d.by_tool.map((t) => ({ name: t.tool, value: t.invocations }))));
export const bySkill = (days: readonly ToolDay[]) =>
  rankTotals(totalsByName(days, (d) => d.skills_by_name.map((t) => ({ name: t.name, value: t.count }))));
export const bySlashCommand = (days: readonly ToolDay[]) =>
  rankTotals(totalsByName(days, (d) => d.slash_commands_by_name.map((t) => ({ name: t.name, value: t.count }))));

/** External tool servers; names differing only in case are merged unless `split`. */
export function byServer(
  days: readonly ToolDay[],
  split: boolean,
): { rows: NamedTotal[]; merged: Map<string, string[]> } {
  const totals = totalsByName(days, (d) => d.mcp_by_server.map((m) => ({ name: m.server, value: m.invocations })));
  if (split) return { rows: rankTotals(totals), merged: new Map() };
  const m = mergeCaseDuplicates(totals);
  return { rows: rankTotals(m.totals), merged: m.merged };
}

export interface HookTotal {
  event: string;
  matcher: string;
  command: string;
  count: number;
}

export function byHook(days: readonly ToolDay[]): HookTotal[] {
  const m = new Map<string, HookTotal>();
  for (const d of days) {
    for (const h of d.hooks_by_event) {
      const k = JSON.stringify([h.event, h.matcher, h.command]);
      const t = m.get(k) ?? { event: h.event, matcher: h.matcher, command: h.command, count: 0 };
      t.count += h.count;
      m.set(k, t);
    }
  }
  return [...m.values()];
}

/** The daily averages of a day: none without a session (no row, or no tool call nor turn per session). */
const AVERAGES = ['ratioAvg', 'ratioP50', 'ratioP90', 'callsPerSession', 'turnsPerSession'] as const;

/**
 * One point per day of the range. A day without a session has no average per session nor per person: its
 * averages are null, drawn as a gap and left out of a week's mean, not as a fall to 0.
 */
export function toolDailyPoints(range: DayRange, days: readonly ToolDay[]) {
  const sessions = new Set(
    days.filter((d) => d.tool_calls_per_session_avg > 0 || d.user_turns_per_session_avg > 0).map((d) => d.date),
  );
  const none = Object.fromEntries(AVERAGES.map((k) => [k, null])) as Record<(typeof AVERAGES)[number], null>;
  return points(range, days).map((p) => (sessions.has(p.date) ? p : { ...p, ...none }));
}

function points(range: DayRange, days: readonly ToolDay[]) {
  return fillDays(
    range,
    days,
    (d) => ({
      toolCalls: d.tool_calls,
      mcpUsers: d.mcp_users_with_mcp,
      webUsers: d.web_users,
      ratioAvg: d.autonomy_ratio_avg,
      ratioP50: d.autonomy_ratio_p50,
      ratioP90: d.autonomy_ratio_p90,
      callsPerSession: d.tool_calls_per_session_avg,
      turnsPerSession: d.user_turns_per_session_avg,
      // Shares become estimated calls so weeks weigh days by volume.
      autoHigh: d.tool_autonomy_level_ratio.auto_high * d.tool_calls,
      autoMedium: d.tool_autonomy_level_ratio.auto_medium * d.tool_calls,
      autoLow: d.tool_autonomy_level_ratio.auto_low * d.tool_calls,
      manual: d.tool_autonomy_level_ratio.manual * d.tool_calls,
    }),
    {
      toolCalls: 0,
      mcpUsers: 0,
      webUsers: 0,
      ratioAvg: 0,
      ratioP50: 0,
      ratioP90: 0,
      callsPerSession: 0,
      turnsPerSession: 0,
      autoHigh: 0,
      autoMedium: 0,
      autoLow: 0,
      manual: 0,
    },
  );
}
