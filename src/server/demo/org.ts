/**
 * The simulated organization: users with personas, and for each user and day
 * one fact record produced by a pure function of (seed, user, day). Every
 * endpoint is aggregated from those facts, so the numbers reconcile: org
 * totals, `by_user`, `/users` rows, grouped rows and breakdowns all agree.
 */
import { HISTORY_START, addDays, daysBetween, eachDay, isWeekend, type Day } from '../../lib/dates';
import {
  CLIENT_KEYS,
  DELEGATION,
  FIRST_NAMES,
  HOOKS,
  LANGUAGES,
  LAST_NAMES,
  MCP_SERVERS,
  MODELS,
  SKILLS,
  SLASH_COMMANDS,
} from './catalog';
import { between, hashSeed, normal, rng, splitInteger, weighted, type Rng } from './rng';

export interface Persona {
  index: number;
  id: string;
  email: string | null;
  /** Day index (from history start) of joining, and of leaving (exclusive). */
  join: number;
  leave: number;
  intensity: number;
  weekdayP: number;
  weekendP: number;
  clientP: readonly [number, number, number];
  primaryModel: number;
  secondaryModel: number;
  primaryShare: number;
  languages: readonly number[];
  delegation: number;
  autonomy: number;
  mcpServers: readonly number[];
  skillP: number;
  slashP: number;
  hooks: readonly number[];
}

export interface ModelSlice {
  model: number;
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
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

export interface OrgOptions {
  seed: string;
  users: number;
  /** First day with no data (the demo's "today"). */
  today: Day;
}

const weightsOf = (xs: readonly (readonly [unknown, number, ...unknown[]])[]) => xs.map((x) => x[1]);
const MODEL_W = MODELS.map((m) => m.popularity);
const LANG_W = weightsOf(LANGUAGES);
const DELEG_W = weightsOf(DELEGATION);
const MCP_W = weightsOf(MCP_SERVERS);
const SKILL_W = weightsOf(SKILLS);
const SLASH_W = weightsOf(SLASH_COMMANDS);

function distinctPicks(r: Rng, weights: readonly number[], n: number): number[] {
  const out: number[] = [];
  for (let guard = 0; out.length < n && guard < 50; guard++) {
    const i = weighted(r, weights);
    if (!out.includes(i)) out.push(i);
  }
  return out;
}

export function makePersona(seed: string, index: number, totalDays: number): Persona {
  const r = rng(hashSeed(seed, 'persona', index));
  const id = `usr_${hashSeed(seed, 'id', index).toString(36).padStart(7, '0')}${index.toString(36)}`;
  const first = FIRST_NAMES[Math.floor(r() * FIRST_NAMES.length)]!;
  const last = LAST_NAMES[Math.floor(r() * LAST_NAMES.length)]!;
  const email = r() < 0.04 ? null : `${first}.${last}${index}@acme.example`;
  // A third were there from the start; the rest joined over the year (growth).
  const join = r() < 0.35 ? 0 : Math.floor(totalDays * Math.sqrt(r()) * 0.95);
  const leave = r() < 0.1 ? join + 14 + Math.floor(r() * Math.max(1, totalDays - join)) : Number.MAX_SAFE_INTEGER;
  const intensity = Math.exp(normal(r) * 0.7);
  // Many light users and a core of daily ones (published DAU/MAU is about a quarter).
  const weekdayP = 0.04 + 0.86 * r() ** 2;
  const weekendP = weekdayP * between(r, 0.05, 0.4);
  const clientP: [number, number, number] = [
    r() < 0.9 ? between(r, 0.6, 1) : 0,
    r() < 0.35 ? between(r, 0.2, 0.7) : 0,
    r() < 0.22 ? between(r, 0.2, 0.8) : 0,
  ];
  const primaryModel = weighted(r, MODEL_W);
  let secondaryModel = weighted(r, MODEL_W);
  if (secondaryModel === primaryModel) secondaryModel = (primaryModel + 1) % MODELS.length;
  const primaryShare = between(r, 0.6, 0.97);
  const languages = distinctPicks(r, LANG_W, 1 + Math.floor(r() * 3));
  const delegation = weighted(r, DELEG_W);
  const autonomy = DELEGATION[delegation]![2] * Math.exp(normal(r) * 0.25);
  const mcpServers = r() < 0.4 ? distinctPicks(r, MCP_W, 1 + Math.floor(r() * 3)) : [];
  const skillP = r() < 0.45 ? between(r, 0.1, 0.8) : 0;
  const slashP = r() < 0.7 ? between(r, 0.2, 0.9) : 0;
  const hooks = HOOKS.map((_, i) => i).filter(() => r() < 0.35);
  return {
    index,
    id,
    email,
    join,
    leave,
    intensity,
    weekdayP,
    weekendP,
    clientP,
    primaryModel,
    secondaryModel,
    primaryShare,
    languages,
    delegation,
    autonomy,
    mcpServers,
    skillP,
    slashP,
    hooks,
  };
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
 * The facts for one user on one day, or null when the user was not active.
 * Pure: the same (seed, persona, day) always gives the same record.
 */
export function userDay(seed: string, p: Persona, d: number, day: Day): UserDay | null {
  if (d < p.join || d >= p.leave) return null;
  const r = rng(hashSeed(seed, 'ud', p.index, d));
  const activeP = (isWeekend(day) ? p.weekendP : p.weekdayP) * adoption(d);
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

export const CLIENT_COUNT = CLIENT_KEYS.length;

/** Aggregates of one day over all users. */
export interface DayAgg {
  day: Day;
  active: number;
  wau: number;
  mau: number;
  byClient: number[];
  sessions: number;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Per model index: billable, input, output. */
  models: Map<number, [number, number, number]>;
  filesCreated: number;
  filesEdited: number;
  commits: number;
  prs: number;
  langOps: Map<number, number>;
  mcp: Map<number, number>;
  mcpUsers: number;
  skills: Map<number, number>;
  slash: Map<number, number>;
  hooks: Map<number, number>;
  webUsers: number;
  ratios: number[];
  levelCalls: [number, number, number, number];
}

function emptyAgg(day: Day): DayAgg {
  return {
    day,
    active: 0,
    wau: 0,
    mau: 0,
    byClient: [0, 0, 0],
    sessions: 0,
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    billable: 0,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    models: new Map(),
    filesCreated: 0,
    filesEdited: 0,
    commits: 0,
    prs: 0,
    langOps: new Map(),
    mcp: new Map(),
    mcpUsers: 0,
    skills: new Map(),
    slash: new Map(),
    hooks: new Map(),
    webUsers: 0,
    ratios: [],
    levelCalls: [0, 0, 0, 0],
  };
}

const bump = (m: Map<number, number>, k: number, v: number) => m.set(k, (m.get(k) ?? 0) + v);

export interface Org {
  seed: string;
  days: Day[];
  /** Sorted by id: the stable order of `/users` pages. */
  users: Persona[];
  usersById: Map<string, number>;
  aggs: DayAgg[];
  /** activeCount[u][d+1] - activeCount[u][lo] = active days of user u in [lo, d]. */
  activeCount: Uint16Array[];
  dayIndex(day: Day): number;
  userDay(u: number, d: number): UserDay | null;
}

/** Builds the organization and every day's aggregates in one pass. */
export function buildOrg(opts: OrgOptions): Org {
  const lastDay = addDays(opts.today, -1);
  const days = lastDay >= HISTORY_START ? eachDay(HISTORY_START, lastDay) : [];
  const D = days.length;
  const personas = Array.from({ length: opts.users }, (_, i) => makePersona(opts.seed, i, Math.max(D, 1)));
  personas.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const aggs = days.map(emptyAgg);
  const activeCount: Uint16Array[] = [];

  // For WAU/MAU: per day, how many users have their latest active day within the window.
  const wauDiff = new Int32Array(D + 8);
  const mauDiff = new Int32Array(D + 31);

  for (const p of personas) {
    const counts = new Uint16Array(D + 1);
    let lastActive = -1_000_000;
    for (let d = 0; d < D; d++) {
      const f = userDay(opts.seed, p, d, days[d]!);
      counts[d + 1] = counts[d]! + (f ? 1 : 0);
      if (!f) continue;
      // The user counts in WAU on days [max(d, lastActive+7), d+6] — each day once.
      const wFrom = Math.max(d, lastActive + 7);
      if (wFrom <= d + 6) {
        wauDiff[wFrom]! += 1;
        wauDiff[d + 7]! -= 1;
      }
      const mFrom = Math.max(d, lastActive + 30);
      if (mFrom <= d + 29) {
        mauDiff[mFrom]! += 1;
        mauDiff[d + 30]! -= 1;
      }
      lastActive = d;
      const a = aggs[d]!;
      a.active++;
      for (let c = 0; c < CLIENT_COUNT; c++) if (f.clients & (1 << c)) a.byClient[c]!++;
      if (f.clients & 2) a.webUsers++;
      a.sessions += f.sessions;
      a.userMessages += f.userMessages;
      a.assistantMessages += f.assistantMessages;
      a.toolCalls += f.toolCalls;
      a.billable += f.billable;
      a.input += f.input;
      a.output += f.output;
      a.cacheRead += f.cacheRead;
      a.cacheWrite += f.cacheWrite;
      for (const m of f.models) {
        const t = a.models.get(m.model) ?? [0, 0, 0];
        t[0] += m.billable;
        t[1] += m.input;
        t[2] += m.output;
        a.models.set(m.model, t);
      }
      a.filesCreated += f.filesCreated;
      a.filesEdited += f.filesEdited;
      a.commits += f.commits;
      a.prs += f.prs;
      for (const [k, v] of f.langOps) bump(a.langOps, k, v);
      let mcpAny = 0;
      for (const [k, v] of f.mcp) {
        bump(a.mcp, k, v);
        mcpAny += v;
      }
      if (mcpAny > 0) a.mcpUsers++;
      for (const [k, v] of f.skills) bump(a.skills, k, v);
      for (const [k, v] of f.slash) bump(a.slash, k, v);
      for (const [k, v] of f.hooks) bump(a.hooks, k, v);
      a.ratios.push(f.toolCalls / f.userMessages);
      for (let k = 0; k < 4; k++) a.levelCalls[k]! += f.levelCalls[k]!;
    }
    activeCount.push(counts);
  }
  let w = 0,
    m = 0;
  for (let d = 0; d < D; d++) {
    w += wauDiff[d]!;
    m += mauDiff[d]!;
    aggs[d]!.wau = w;
    aggs[d]!.mau = m;
    aggs[d]!.ratios.sort((x, y) => x - y);
  }

  const usersById = new Map(personas.map((p, i) => [p.id, i]));
  const start = days[0];
  return {
    seed: opts.seed,
    days,
    users: personas,
    usersById,
    aggs,
    activeCount,
    dayIndex: (day) => (start ? daysBetween(start, day) : -1),
    userDay: (u, d) => userDay(opts.seed, personas[u]!, d, days[d]!),
  };
}
