import { describe, expect, it } from 'vitest';
import type { ToolDay } from '../../api/schemas';
import { activityDay } from '../../test/analytics-fixtures';
import { byHook, byServer, byTool, rangeToolCallsPerTurn, toolDailyPoints, toolTotals, userTurns } from './shaping';

const day = (date: string, over: Partial<ToolDay>): ToolDay => ({
  date,
  tool_calls: 100,
  by_tool: [
    { tool: 'Read', invocations: 60 },
    { tool: 'Edit', invocations: 40 },
  ],
  mcp_users_with_mcp: 2,
  mcp_by_server: [
    { server: 'axiom', invocations: 5 },
    { server: 'Axiom', invocations: 3 },
    { server: 'github', invocations: 10 },
  ],
  skills_invocations: 1,
  skills_by_name: [{ name: 'browser', count: 1 }],
  slash_commands_invocations: 2,
  slash_commands_by_name: [{ name: 'review', count: 2 }],
  hooks_invocations: 4,
  hooks_by_event: [{ event: 'Stop', matcher: '', command: 'npm test', count: 4 }],
  web_users: 1,
  autonomy_ratio_avg: 8,
  autonomy_ratio_p50: 6,
  autonomy_ratio_p90: 18,
  tool_calls_per_session_avg: 30,
  user_turns_per_session_avg: 4,
  tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.25, auto_low: 0.25, manual: 0 },
  ...over,
});

const days = [day('2026-02-01', {}), day('2026-02-02', { tool_calls: 0, autonomy_ratio_avg: 0, by_tool: [] })];

describe('tools shaping', () => {
  it('totals', () => {
    expect(toolTotals(days)).toEqual({ toolCalls: 100, mcpCalls: 36, skills: 2, slash: 4, hooks: 8 });
  });
  it('tool calls per user turn over the range: the sum of tool calls over the sum of user messages', () => {
    const tools = [day('2026-02-01', { tool_calls: 10 }), day('2026-02-02', { tool_calls: 90 })];
    const activity = [
      activityDay({ date: '2026-02-01', user_messages: 1 }),
      activityDay({ date: '2026-02-02', user_messages: 30 }),
    ];
    // 100 / 31, never the mean of the days' averages (the fixture's 8, whatever the counts).
    expect(rangeToolCallsPerTurn(tools, activity)).toBeCloseTo(100 / 31, 12);
    expect(userTurns(activity)).toBe(31);
    expect(rangeToolCallsPerTurn(tools, [])).toBeNull();
  });
  it('tools ranked with shares', () => {
    expect(byTool(days)).toEqual([
      { name: 'Read', value: 60, share: 0.6 },
      { name: 'Edit', value: 40, share: 0.4 },
    ]);
  });
  it('merges case variants of tool servers unless asked to split', () => {
    const merged = byServer(days, false);
    expect(merged.rows.map((r) => [r.name, r.value])).toEqual([
      ['github', 20],
      ['axiom', 16],
    ]);
    expect(merged.merged.get('axiom')).toEqual(['axiom', 'Axiom']);
    expect(byServer(days, true).rows.map((r) => r.name)).toEqual(['github', 'axiom', 'Axiom']);
  });
  it('hooks add up per event, matcher and command', () => {
    expect(byHook(days)).toEqual([{ event: 'Stop', matcher: '', command: 'npm test', count: 8 }]);
  });
  it('a day without a session has no average per session or per person: a gap, not a 0', () => {
    const quiet = {
      ...days[0]!,
      date: '2026-02-02',
      tool_calls: 0,
      tool_calls_per_session_avg: 0,
      user_turns_per_session_avg: 0,
    };
    const [busy, none, missing] = toolDailyPoints({ start: '2026-02-01', end: '2026-02-03' }, [days[0]!, quiet]);
    expect(busy!.callsPerSession).toBeGreaterThan(0);
    for (const p of [none!, missing!]) {
      expect(p).toMatchObject({ callsPerSession: null, turnsPerSession: null, ratioAvg: null, ratioP50: null });
      expect(p.toolCalls).toBe(0);
    }
  });
  it('autonomy shares become estimated calls for weighting', () => {
    const [p] = toolDailyPoints({ start: '2026-02-01', end: '2026-02-01' }, days);
    expect(p).toMatchObject({ autoHigh: 50, autoMedium: 25, autoLow: 25, manual: 0 });
  });
});
