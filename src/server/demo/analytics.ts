/** Turns the organization's facts into the analytics resources of §2.2–2.7. */
import type { Day } from '../../lib/dates';
import {
  ARTIFACT_TOOL,
  CLIENT_KEYS,
  DELEGATION,
  HOOKS,
  LANGUAGES,
  MCP_SERVERS,
  MODELS,
  SKILLS,
  SLASH_COMMANDS,
  TOOLS,
} from './catalog';
import type { DayAgg, Org } from './org';
import { between, hashSeed, rng, splitInteger } from './rng';

const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const byCountDesc =
  <T>(key: (t: T) => number) =>
  (a: T, b: T) =>
    key(b) - key(a);

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** A model's tokens, as a `by_model` entry gives them, largest first in a list. */
const modelRow = (mi: number, billable: number, input: number, output: number) => ({
  model_id: MODELS[mi]!.id,
  model_tier: MODELS[mi]!.tier,
  billable_tokens: billable,
  input_tokens: input,
  output_tokens: output,
});
const byBillable = byCountDesc((m: { billable_tokens: number }) => m.billable_tokens);

function modelRows(a: DayAgg) {
  return [...a.models.entries()]
    .map(([mi, [billable, input, output]]) => modelRow(mi, billable, input, output))
    .sort(byBillable);
}

function usersOfDay(org: Org, d: number) {
  const out = [];
  for (let u = 0; u < org.users.length; u++) {
    const c = org.activeCount[u]!;
    if (c[d + 1] === c[d]) continue;
    const f = org.userDay(u, d)!;
    const p = org.users[u]!;
    out.push({
      user_id: p.id,
      user_email: p.email,
      billable_tokens: f.billable,
      by_model: f.models.map((m) => modelRow(m.model, m.billable, m.input, m.output)).sort(byBillable),
    });
  }
  return out.sort(byBillable);
}

export function tokenDay(org: Org, d: number) {
  const a = org.aggs[d]!;
  return {
    date: a.day,
    billable_tokens: a.billable,
    input_tokens: a.input,
    output_tokens: a.output,
    cache_read_tokens: a.cacheRead,
    cache_write_tokens: a.cacheWrite,
    by_model: modelRows(a),
    by_user: usersOfDay(org, d),
  };
}

export function tokenModelRows(org: Org, d: number) {
  const a = org.aggs[d]!;
  return modelRows(a).map((m) => ({
    date: a.day,
    group_key: m.model_id,
    billable_tokens: m.billable_tokens,
    input_tokens: m.input_tokens,
    output_tokens: m.output_tokens,
  }));
}

/** Tool calls of a day split over tool names; weights drift a little each day. */
function toolSplit(org: Org, a: DayAgg, d: number): { tool: string; invocations: number }[] {
  const r = rng(hashSeed(org.seed, 'tools', d));
  const parts = splitInteger(
    a.toolCalls,
    TOOLS.map(([, w]) => w * between(r, 0.85, 1.15)),
  );
  const rows = TOOLS.map(([tool], i) => ({ tool, invocations: parts[i]! }));
  // About one day in 150 carries a tool name with a parsing artifact (§8).
  if (hashSeed(org.seed, 'artifact', d) % 150 === 0 && rows[0]!.invocations > 0) {
    rows[0]!.invocations -= 1;
    rows.push({ tool: ARTIFACT_TOOL, invocations: 1 });
  }
  return rows.filter((t) => t.invocations > 0).sort(byCountDesc((t) => t.invocations));
}

const entries = <T>(m: Map<number, number>, f: (k: number, v: number) => T) =>
  [...m.entries()].filter(([, v]) => v > 0).map(([k, v]) => f(k, v));

export function toolDay(org: Org, d: number) {
  const a = org.aggs[d]!;
  const calls = a.toolCalls;
  const levels = a.levelCalls;
  const frac = (x: number) => (calls > 0 ? round4(x / calls) : 0);
  const mean = a.ratios.length ? a.ratios.reduce((s, x) => s + x, 0) / a.ratios.length : 0;
  return {
    date: a.day,
    tool_calls: calls,
    by_tool: toolSplit(org, a, d),
    mcp_users_with_mcp: a.mcpUsers,
    mcp_by_server: entries(a.mcp, (k, v) => ({ server: MCP_SERVERS[k]![0], invocations: v })).sort(
      byCountDesc((x) => x.invocations),
    ),
    skills_invocations: sum(a.skills),
    skills_by_name: entries(a.skills, (k, v) => ({ name: SKILLS[k]![0], count: v })).sort(byCountDesc((x) => x.count)),
    slash_commands_invocations: sum(a.slash),
    slash_commands_by_name: entries(a.slash, (k, v) => ({ name: SLASH_COMMANDS[k]![0], count: v })).sort(
      byCountDesc((x) => x.count),
    ),
    hooks_invocations: sum(a.hooks),
    hooks_by_event: entries(a.hooks, (k, v) => ({
      event: HOOKS[k]!.event,
      matcher: HOOKS[k]!.matcher,
      command: HOOKS[k]!.command,
      count: v,
    })).sort(byCountDesc((x) => x.count)),
    web_users: a.webUsers,
    autonomy_ratio_avg: round2(mean),
    autonomy_ratio_p50: round2(percentile(a.ratios, 0.5)),
    autonomy_ratio_p90: round2(percentile(a.ratios, 0.9)),
    tool_calls_per_session_avg: a.sessions ? round2(calls / a.sessions) : 0,
    user_turns_per_session_avg: a.sessions ? round2(a.userMessages / a.sessions) : 0,
    tool_autonomy_level_ratio: {
      auto_high: frac(levels[0]),
      auto_medium: frac(levels[1]),
      auto_low: frac(levels[2]),
      manual: frac(levels[3]),
    },
  };
}

function sum(m: Map<number, number>): number {
  let s = 0;
  for (const v of m.values()) s += v;
  return s;
}

export function toolNameRows(org: Org, d: number) {
  const a = org.aggs[d]!;
  return toolSplit(org, a, d).map((t) => ({ date: a.day, group_key: t.tool, tool_calls: t.invocations }));
}

export function activityDay(org: Org, d: number) {
  const a = org.aggs[d]!;
  return {
    date: a.day,
    daily_active_users: a.active,
    weekly_active_users: a.wau,
    monthly_active_users: a.mau,
    daily_active_users_by_client: Object.fromEntries(CLIENT_KEYS.map((k, i) => [k, a.byClient[i]!])),
    sessions: a.sessions,
    messages: a.userMessages + a.assistantMessages,
    user_messages: a.userMessages,
  };
}

export function clientRows(org: Org, d: number) {
  const a = org.aggs[d]!;
  return CLIENT_KEYS.map((k, i) => ({ date: a.day, group_key: k, daily_active_users: a.byClient[i]! }))
    .filter((r) => r.daily_active_users > 0)
    .sort(byCountDesc((r) => r.daily_active_users));
}

export function productivityDay(org: Org, d: number) {
  const a = org.aggs[d]!;
  const byExt = new Map<string, number>();
  for (const [li, ops] of a.langOps) {
    const exts = LANGUAGES[li]![2];
    const parts = splitInteger(
      ops,
      exts.map(([, w]) => w),
    );
    exts.forEach(([ext], i) => byExt.set(ext, (byExt.get(ext) ?? 0) + parts[i]!));
  }
  return {
    date: a.day,
    files_created: a.filesCreated,
    files_edited: a.filesEdited,
    by_extension: [...byExt.entries()]
      .filter(([, c]) => c > 0)
      .map(([extension, count]) => ({ extension, count }))
      .sort(byCountDesc((x) => x.count)),
    by_language: entries(a.langOps, (k, v) => ({ language: LANGUAGES[k]![0], count: v })).sort(
      byCountDesc((x) => x.count),
    ),
    git_commits: a.commits,
    git_prs_created: a.prs,
  };
}

/** One `/users` row (§2.6). */
export function userRow(org: Org, u: number, d: number, day: Day) {
  const f = org.userDay(u, d);
  if (!f) return null;
  const p = org.users[u]!;
  const model = MODELS[f.primaryModel]!;
  const sumOf = (xs: [number, number][]) => xs.reduce((s, [, v]) => s + v, 0);
  return {
    user_id: p.id,
    user_email: p.email,
    date: day,
    tool_calls: f.toolCalls,
    billable_tokens: f.billable,
    primary_model: model.id,
    primary_model_tier: model.tier,
    files_created: f.filesCreated,
    files_edited: f.filesEdited,
    git_commits: f.commits,
    git_prs_created: f.prs,
    mcp_calls: sumOf(f.mcp),
    skill_calls: sumOf(f.skills),
    slash_commands: sumOf(f.slash),
    hooks: sumOf(f.hooks),
    sessions: f.sessions,
    messages: f.userMessages + f.assistantMessages,
    user_messages: f.userMessages,
    assistant_messages: f.assistantMessages,
    autonomy_ratio: round2(f.toolCalls / f.userMessages),
    delegation_level: DELEGATION[f.delegation]![0],
    languages: f.langOps.map(([li]) => LANGUAGES[li]![0]),
  };
}
