/**
 * One user's facts for one day: a pure function of (seed, persona, day), so
 * any endpoint can recompute them and every total reconciles.
 */
import { DELEGATION, HOOKS, MODELS } from './catalog';
import { DELEG_W, LANG_W, MCP_W, SKILL_W, SLASH_W, type Persona } from './persona';
import { between, hashSeed, rng, splitInteger, weighted } from './rng';

/** One model's share of a user's day: its tokens, as the day's totals name them. */
interface ModelSlice extends Pick<UserDay, 'billable' | 'input' | 'output' | 'cacheRead' | 'cacheWrite'> {
  model: number;
}

export interface UserDay {
  sessions: number;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  models: ModelSlice[];
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  primaryModel: number;
  filesCreated: number;
  filesEdited: number;
  commits: number;
  prs: number;
  /** Calls per server index of MCP_SERVERS. */
  mcp: [number, number][];
  skills: [number, number][];
  slash: [number, number][];
  hooks: [number, number][];
  /** File operations per language index. */
  langOps: [number, number][];
  /** Bit i set: used client CLIENT_KEYS[i]. */
  clients: number;
  delegation: number;
  /** Tool calls per autonomy level: auto_high, auto_medium, auto_low, manual. */
  levelCalls: [number, number, number, number];
}

const AUTONOMY_MIX: Readonly<Record<string, readonly number[]>> = {
  'auto-high': [0.7, 0.2, 0.06, 0.04],
  'auto-medium': [0.2, 0.55, 0.15, 0.1],
  'auto-low': [0.05, 0.2, 0.55, 0.2],
  spec: [0.25, 0.4, 0.2, 0.15],
  manual: [0.02, 0.08, 0.2, 0.7],
};

/** How ramped up the organization is on day `d` (adoption grows over the year). */
function adoption(d: number): number {
  return 0.55 + 0.45 * Math.min(1, d / 200);
}

/**
 * The facts for one user on day `d` (a Saturday or Sunday: `weekend`), or null when the user was not active.
 * Pure: the same (seed, persona, day) always gives the same record.
 */
export function userDay(seed: string, p: Persona, d: number, weekend: boolean): UserDay | null {
  if (d < p.join || d >= p.leave) return null;
  const r = rng(hashSeed(seed, 'ud', p.index, d));
  const activeP = (weekend ? p.weekendP : p.weekdayP) * adoption(d);
  if (r() >= activeP) return null;

  const growth = 0.7 + 0.6 * Math.min(1, d / 250);
  const sessions = Math.max(1, Math.round(p.intensity * growth * between(r, 2, 9)));
  const userMessages = Math.max(1, Math.round(sessions * between(r, 3, 11)));
  const toolCalls = Math.max(0, Math.round(userMessages * p.autonomy * between(r, 0.7, 1.3)));
  const assistantMessages = userMessages + Math.round(toolCalls * between(r, 0.08, 0.2));

  const input = Math.round(toolCalls * between(r, 1800, 4200) + userMessages * 900);
  const output = Math.round(input * between(r, 0.05, 0.12));
  const cacheRead = Math.round(input * between(r, 2, 7));
  const cacheWrite = Math.round(input * between(r, 0.15, 0.4));
  const share = Math.min(1, p.primaryShare + (r() - 0.5) * 0.1);
  const models: ModelSlice[] = [];
  for (const [model, s] of [
    [p.primaryModel, share],
    [p.secondaryModel, 1 - share],
  ] as const) {
    if (s <= 0.005) continue;
    const mi = Math.round(input * s);
    const mo = Math.round(output * s);
    const cr = Math.round(cacheRead * s);
    const cw = Math.round(cacheWrite * s);
    // Standard credits: cached reads at a tenth, writes at 1.25, output weighs 4.
    const billable = Math.round((MODELS[model]!.multiplier * (mi + 4 * mo + 0.1 * cr + 1.25 * cw)) / 100);
    models.push({ model, billable, input: mi, output: mo, cacheRead: cr, cacheWrite: cw });
  }
  let billable = 0,
    inp = 0,
    out = 0,
    cr = 0,
    cw = 0;
  let primaryModel = models[0]!.model,
    best = -1;
  for (const m of models) {
    billable += m.billable;
    inp += m.input;
    out += m.output;
    cr += m.cacheRead;
    cw += m.cacheWrite;
    if (m.billable > best) {
      best = m.billable;
      primaryModel = m.model;
    }
  }

  const fileOps = Math.round(toolCalls * between(r, 0.05, 0.1));
  const filesCreated = Math.round(fileOps * between(r, 0.08, 0.2));
  const filesEdited = fileOps - filesCreated;
  const commits = Math.round(filesEdited * between(r, 0.04, 0.16));
  const prs = Math.round(commits * between(r, 0.1, 0.35));

  const todaysLangs = p.languages.filter((_, i) => i === 0 || r() < 0.6);
  const langParts = splitInteger(
    fileOps,
    todaysLangs.map((li, k) => LANG_W[li]! * (k === 0 ? 3 : 1)),
  );
  const langOps: [number, number][] = todaysLangs.map((li, k) => [li, langParts[k]!]);

  const mcpTotal = p.mcpServers.length ? Math.round(toolCalls * between(r, 0.02, 0.09)) : 0;
  const mcpParts = splitInteger(
    mcpTotal,
    p.mcpServers.map((i) => MCP_W[i]!),
  );
  const mcp: [number, number][] = p.mcpServers.map((s, k) => [s, mcpParts[k]!]);

  const skills: [number, number][] = [];
  if (r() < p.skillP) {
    const s = weighted(r, SKILL_W);
    skills.push([s, 1 + Math.floor(r() * 4)]);
  }
  const slash: [number, number][] = [];
  if (r() < p.slashP) {
    const s = weighted(r, SLASH_W);
    slash.push([s, 1 + Math.floor(r() * sessions * 1.5)]);
  }
  const hooks: [number, number][] = p.hooks.map((h) => {
    const cfg = HOOKS[h]!;
    const n = cfg.perToolCall ? toolCalls * cfg.perToolCall : sessions * (cfg.perSession ?? 1);
    return [h, Math.round(n * between(r, 0.8, 1.2))];
  });

  let clients = 0;
  p.clientP.forEach((cp, i) => {
    if (cp > 0 && r() < cp) clients |= 1 << i;
  });
  if (clients === 0) clients = p.clientP[0] > 0 ? 1 : p.clientP[1] > 0 ? 2 : 4;

  const delegation = r() < 0.1 ? weighted(r, DELEG_W) : p.delegation;
  const mix = AUTONOMY_MIX[DELEGATION[delegation]![0]]!;
  const lc = splitInteger(toolCalls, mix);

  return {
    sessions,
    userMessages,
    assistantMessages,
    toolCalls,
    models,
    billable,
    input: inp,
    output: out,
    cacheRead: cr,
    cacheWrite: cw,
    primaryModel,
    filesCreated,
    filesEdited,
    commits,
    prs,
    mcp,
    skills,
    slash,
    hooks,
    langOps,
    clients,
    delegation,
    levelCalls: [lc[0]!, lc[1]!, lc[2]!, lc[3]!],
  };
}
