/**
 * Team figures from the per-user facts (facts.ts): the service's day rows for a selection of users
 * (the four day-based endpoints, without the fields the service gives for the whole organization
 * only), and each team's figures for the teams page. Pure functions of the facts and a mask of the
 * selected users: one pass over the typed arrays per answer.
 *
 * The rules are the service's own, applied to fewer people: sums are sums; daily, weekly and monthly
 * active users are distinct users active on the day, the trailing 7 and 30 days; the autonomy
 * average and percentiles are over the selected users' own ratios of the day, as the service's are
 * over everyone's. So the top-level teams and Unassigned add up to the organization for every sum
 * and every count of users (reconcile.property.test.ts).
 */
import type { Day } from '../../lib/dates';
import type { Facts } from './facts';

/** One byte per user of the facts: 1 when the user is in the selection. */
export type Mask = Uint8Array;

const round2 = (x: number) => Math.round(x * 100) / 100;

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The day indices of [start, end] within the facts (which must hold them). */
function window(f: Facts, start: Day, end: Day): [number, number] {
  const a = f.dayIndex.get(start);
  const b = f.dayIndex.get(end);
  if (a === undefined || b === undefined)
    throw new Error(`the facts hold ${f.days[0]}…${f.days.at(-1)}, not ${start}…${end}`);
  return [a, b];
}

/** Per-day sums of a `/users` column over the selected users, for every day of the facts. */
function daySums(f: Facts, mask: Mask, col: keyof Facts['rows']['cols']): Float64Array {
  const out = new Float64Array(f.days.length);
  const { user, day } = f.rows;
  const values = f.rows.cols[col];
  for (let i = 0; i < user.length; i++) if (mask[user[i]!]) out[day[i]!]! += values[i]!;
  return out;
}

/** Selected users with a `/users` row or a `/tokens` split element in [start, end]. */
export function activeIn(f: Facts, mask: Mask, start: Day, end: Day): number {
  const [a, b] = window(f, start, end);
  const seen = new Uint8Array(f.userIds.length);
  let n = 0;
  for (const { user, day } of [f.rows, f.tokens]) {
    for (let i = 0; i < user.length; i++) {
      const u = user[i]!;
      if (mask[u] && !seen[u] && day[i]! >= a && day[i]! <= b) {
        seen[u] = 1;
        n++;
      }
    }
  }
  return n;
}

/**
 * `/tokens` day rows (no grouping): credits, input and output, and per model, for the selection; with
 * `perUser`, each user's split too (`by_user`, as the service gives it: large for a big team, so the
 * team answers leave it out and the top users come from {@link topUsers}).
 */
export function tokenDays(f: Facts, mask: Mask, start: Day, end: Day, perUser = false) {
  const [a, b] = window(f, start, end);
  const out = [];
  const t = f.tokens;
  const m = f.models;
  // Elements are in day order (the bodies were read by day): find each day's run once.
  let i = 0;
  while (i < t.day.length && t.day[i]! < a) i++;
  for (let d = a; d <= b; d++) {
    let billable = 0;
    let input = 0;
    let output = 0;
    const perModel = new Map<number, { tier: number; billable: number; input: number; output: number }>();
    const byUser = [];
    for (; i < t.day.length && t.day[i] === d; i++) {
      const u = t.user[i]!;
      if (!mask[u]) continue;
      billable += t.billable[i]!;
      const models: {
        model_id: string;
        model_tier: string;
        billable_tokens: number;
        input_tokens: number;
        output_tokens: number;
      }[] = [];
      for (let k = t.modelsFrom[i]!; k < t.modelsFrom[i + 1]!; k++) {
        input += m.input[k]!;
        output += m.output[k]!;
        const agg = perModel.get(m.model[k]!) ?? { tier: m.tier[k]!, billable: 0, input: 0, output: 0 };
        agg.billable += m.billable[k]!;
        agg.input += m.input[k]!;
        agg.output += m.output[k]!;
        perModel.set(m.model[k]!, agg);
        if (perUser)
          models.push({
            model_id: f.modelIds[m.model[k]!]!,
            model_tier: f.tiers[m.tier[k]!]!,
            billable_tokens: m.billable[k]!,
            input_tokens: m.input[k]!,
            output_tokens: m.output[k]!,
          });
      }
      if (perUser)
        byUser.push({
          user_id: f.userIds[u]!,
          user_email: f.emails[u] ?? null,
          billable_tokens: t.billable[i]!,
          by_model: models,
        });
    }
    out.push({
      date: f.days[d]!,
      billable_tokens: billable,
      input_tokens: input,
      output_tokens: output,
      by_model: [...perModel.entries()]
        .map(([k, v]) => ({
          model_id: f.modelIds[k]!,
          model_tier: f.tiers[v.tier]!,
          billable_tokens: v.billable,
          input_tokens: v.input,
          output_tokens: v.output,
        }))
        .sort((x, y) => y.billable_tokens - x.billable_tokens),
      ...(perUser ? { by_user: byUser.sort((x, y) => y.billable_tokens - x.billable_tokens) } : {}),
    });
  }
  return out;
}

/** `/tokens?group_by=model` rows of the selection: one per day and model, largest first. */
export function tokenModelRows(f: Facts, mask: Mask, start: Day, end: Day) {
  return tokenDays(f, mask, start, end).flatMap((d) =>
    d.by_model.map((m) => ({
      date: d.date,
      group_key: m.model_id,
      billable_tokens: m.billable_tokens,
      input_tokens: m.input_tokens,
      output_tokens: m.output_tokens,
    })),
  );
}

/**
 * The selection's users with the most credits over [start, end], with their credits per model
 * (largest first) and their share of the selection's credits, from the `/tokens` split.
 */
export function topUsers(f: Facts, mask: Mask, start: Day, end: Day, n: number) {
  const [a, b] = window(f, start, end);
  const t = f.tokens;
  const m = f.models;
  const credits = new Float64Array(f.userIds.length);
  let total = 0;
  for (let i = 0; i < t.day.length; i++) {
    const u = t.user[i]!;
    if (!mask[u] || t.day[i]! < a || t.day[i]! > b) continue;
    credits[u]! += t.billable[i]!;
    total += t.billable[i]!;
  }
  const top = [...credits.keys()]
    .filter((u) => mask[u] && credits[u]! > 0)
    .sort((x, y) => credits[y]! - credits[x]! || (f.userIds[x]! < f.userIds[y]! ? -1 : 1))
    .slice(0, n);
  const perModel = new Map(top.map((u) => [u, new Map<number, number>()]));
  for (let i = 0; i < t.day.length; i++) {
    const models = perModel.get(t.user[i]!);
    if (!models || t.day[i]! < a || t.day[i]! > b) continue;
    for (let k = t.modelsFrom[i]!; k < t.modelsFrom[i + 1]!; k++) {
      models.set(m.model[k]!, (models.get(m.model[k]!) ?? 0) + m.billable[k]!);
    }
  }
  return {
    total,
    users: top.map((u) => ({
      userId: f.userIds[u]!,
      email: f.emails[u] ?? null,
      credits: credits[u]!,
      share: total > 0 ? credits[u]! / total : 0,
      models: [...perModel.get(u)!.entries()]
        .map(([k, c]) => ({ model: f.modelIds[k]!, credits: c }))
        .sort((x, y) => y.credits - x.credits),
    })),
  };
}

/**
 * Distinct selected users active on each day and in the trailing 7 and 30 days, for every day of
 * the facts (the trailing windows are whole only from the 30th day loaded: load 29 days before).
 */
export function activeUsers(f: Facts, mask: Mask) {
  const n = f.days.length;
  const dau = new Int32Array(n);
  const wauDiff = new Int32Array(n + 31);
  const mauDiff = new Int32Array(n + 31);
  const { user, day } = f.rows;
  // Rows come by user then day: each user's active days in order.
  let prevUser = -1;
  let prevDay = -1000;
  for (let i = 0; i < user.length; i++) {
    const u = user[i]!;
    if (!mask[u]) continue;
    const d = day[i]!;
    if (u !== prevUser) prevDay = -1000;
    if (d === prevDay) continue;
    dau[d]!++;
    // The user counts in the windows ending on d…d+6 (d…d+29), except those an earlier day already covers.
    const wFrom = Math.max(d, prevDay + 7);
    if (wFrom < d + 7) {
      wauDiff[wFrom]!++;
      wauDiff[d + 7]!--;
    }
    const mFrom = Math.max(d, prevDay + 30);
    if (mFrom < d + 30) {
      mauDiff[mFrom]!++;
      mauDiff[d + 30]!--;
    }
    prevUser = u;
    prevDay = d;
  }
  const wau = new Int32Array(n);
  const mau = new Int32Array(n);
  let w = 0;
  let m = 0;
  for (let d = 0; d < n; d++) {
    w += wauDiff[d]!;
    m += mauDiff[d]!;
    wau[d] = w;
    mau[d] = m;
  }
  return { dau, wau, mau };
}

/** `/activity` day rows of the selection (no per-client split). */
export function activityDays(f: Facts, mask: Mask, start: Day, end: Day) {
  const [a, b] = window(f, start, end);
  const { dau, wau, mau } = activeUsers(f, mask);
  const sessions = daySums(f, mask, 'sessions');
  const messages = daySums(f, mask, 'messages');
  const userMessages = daySums(f, mask, 'user_messages');
  const out = [];
  for (let d = a; d <= b; d++) {
    out.push({
      date: f.days[d]!,
      daily_active_users: dau[d]!,
      weekly_active_users: wau[d]!,
      monthly_active_users: mau[d]!,
      sessions: sessions[d]!,
      messages: messages[d]!,
      user_messages: userMessages[d]!,
    });
  }
  return out;
}

/** `/tools` day rows of the selection (no per-tool, per-server or per-name splits, no autonomy levels). */
export function toolDays(f: Facts, mask: Mask, start: Day, end: Day) {
  const [a, b] = window(f, start, end);
  const calls = daySums(f, mask, 'tool_calls');
  const skills = daySums(f, mask, 'skill_calls');
  const slash = daySums(f, mask, 'slash_commands');
  const hooks = daySums(f, mask, 'hooks');
  const sessions = daySums(f, mask, 'sessions');
  const userMessages = daySums(f, mask, 'user_messages');
  const mcpUsers = new Int32Array(f.days.length);
  const ratios: number[][] = f.days.map(() => []);
  const { user, day, cols } = f.rows;
  for (let i = 0; i < user.length; i++) {
    if (!mask[user[i]!]) continue;
    if (cols.mcp_calls[i]! > 0) mcpUsers[day[i]!]!++;
    // Tool calls per user turn, from the counts when there are turns (the row's ratio is rounded).
    const turns = cols.user_messages[i]!;
    ratios[day[i]!]!.push(turns > 0 ? cols.tool_calls[i]! / turns : cols.autonomy_ratio[i]!);
  }
  const out = [];
  for (let d = a; d <= b; d++) {
    const r = ratios[d]!.sort((x, y) => x - y);
    const mean = r.length ? r.reduce((s, x) => s + x, 0) / r.length : 0;
    out.push({
      date: f.days[d]!,
      tool_calls: calls[d]!,
      mcp_users_with_mcp: mcpUsers[d]!,
      skills_invocations: skills[d]!,
      slash_commands_invocations: slash[d]!,
      hooks_invocations: hooks[d]!,
      autonomy_ratio_avg: round2(mean),
      autonomy_ratio_p50: round2(percentile(r, 0.5)),
      autonomy_ratio_p90: round2(percentile(r, 0.9)),
      tool_calls_per_session_avg: sessions[d]! ? round2(calls[d]! / sessions[d]!) : 0,
      user_turns_per_session_avg: sessions[d]! ? round2(userMessages[d]! / sessions[d]!) : 0,
    });
  }
  return out;
}

/** `/productivity` day rows of the selection (no per-extension or per-language split). */
export function productivityDays(f: Facts, mask: Mask, start: Day, end: Day) {
  const [a, b] = window(f, start, end);
  const created = daySums(f, mask, 'files_created');
  const edited = daySums(f, mask, 'files_edited');
  const commits = daySums(f, mask, 'git_commits');
  const prs = daySums(f, mask, 'git_prs_created');
  const out = [];
  for (let d = a; d <= b; d++) {
    out.push({
      date: f.days[d]!,
      files_created: created[d]!,
      files_edited: edited[d]!,
      git_commits: commits[d]!,
      git_prs_created: prs[d]!,
    });
  }
  return out;
}

/** The additive figures of a group of users over a window of days; `trend` is its daily credits. */
export interface GroupSums {
  active: number;
  credits: number;
  toolCalls: number;
  userMessages: number;
  sessions: number;
  commits: number;
  prs: number;
  trend: number[];
}

export const zeroSums = (days: number): GroupSums => ({
  active: 0,
  credits: 0,
  toolCalls: 0,
  userMessages: 0,
  sessions: 0,
  commits: 0,
  prs: 0,
  trend: new Array<number>(days).fill(0),
});

/** Adds two groups' sums (disjoint groups: active users add up too). */
export function addSums(x: GroupSums, y: GroupSums): GroupSums {
  return {
    active: x.active + y.active,
    credits: x.credits + y.credits,
    toolCalls: x.toolCalls + y.toolCalls,
    userMessages: x.userMessages + y.userMessages,
    sessions: x.sessions + y.sessions,
    commits: x.commits + y.commits,
    prs: x.prs + y.prs,
    trend: x.trend.map((v, i) => v + y.trend[i]!),
  };
}

/**
 * Each group's sums over [start, end], with users put in groups by `groupOf` (an index per user of
 * the facts; every user is in exactly one group, so groups are disjoint).
 */
export function sumsByGroup(f: Facts, groupOf: Int32Array, groups: number, start: Day, end: Day): GroupSums[] {
  const [a, b] = window(f, start, end);
  const days = b - a + 1;
  const out = Array.from({ length: groups }, () => zeroSums(days));
  const seen = new Uint8Array(f.userIds.length);
  const { user, day, cols } = f.rows;
  for (let i = 0; i < user.length; i++) {
    const d = day[i]!;
    if (d < a || d > b) continue;
    const u = user[i]!;
    const g = out[groupOf[u]!]!;
    if (!seen[u]) {
      seen[u] = 1;
      g.active++;
    }
    const credits = cols.billable_tokens[i]!;
    g.credits += credits;
    g.trend[d - a]! += credits;
    g.toolCalls += cols.tool_calls[i]!;
    g.userMessages += cols.user_messages[i]!;
    g.sessions += cols.sessions[i]!;
    g.commits += cols.git_commits[i]!;
    g.prs += cols.git_prs_created[i]!;
  }
  return out;
}
