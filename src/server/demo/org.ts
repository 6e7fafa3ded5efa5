/**
 * The simulated organization: its users (persona.ts) and their facts of each
 * day (user-day.ts), aggregated per day in one pass. Every endpoint is built
 * from those facts, so the numbers reconcile: org totals, `by_user`, `/users`
 * rows, grouped rows and breakdowns all agree.
 */
import { HISTORY_START, addDays, daysBetween, eachDay, isWeekend, type Day } from '../../lib/dates';
import { CLIENT_KEYS } from './catalog';
import { makePersona, type Persona } from './persona';
import { userDay, type UserDay } from './user-day';

interface OrgOptions {
  seed: string;
  users: number;
  /** First day with no data (the demo's "today"). */
  today: Day;
}

const CLIENT_COUNT = CLIENT_KEYS.length;

/** A user's day's figures that a day's aggregate sums, under the same names. */
const SUMMED = [
  ...['sessions', 'userMessages', 'assistantMessages', 'toolCalls', 'filesCreated', 'filesEdited', 'commits', 'prs'],
  ...['billable', 'input', 'output', 'cacheRead', 'cacheWrite'],
] as const satisfies readonly (keyof UserDay)[];

/** Aggregates of one day over all users. */
export interface DayAgg extends Pick<UserDay, (typeof SUMMED)[number]> {
  day: Day;
  active: number;
  wau: number;
  mau: number;
  byClient: number[];
  /** Per model index: billable, input, output. */
  models: Map<number, [number, number, number]>;
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
    ...(Object.fromEntries(SUMMED.map((k) => [k, 0])) as Pick<UserDay, (typeof SUMMED)[number]>),
    day,
    active: 0,
    wau: 0,
    mau: 0,
    byClient: [0, 0, 0],
    models: new Map(),
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

/** The organization's days: from the history's start to the day before "today". */
function daysOf(today: Day): Day[] {
  const lastDay = addDays(today, -1);
  return lastDay >= HISTORY_START ? eachDay(HISTORY_START, lastDay) : [];
}

/** The organization's people, sorted by id, without their days, made one at a time (see `orgParts`). */
export function* personaParts(opts: OrgOptions): Generator<void, Persona[]> {
  const D = daysOf(opts.today).length;
  const personas: Persona[] = [];
  for (let i = 0; i < opts.users; i++) {
    yield;
    personas.push(makePersona(opts.seed, i, Math.max(D, 1)));
  }
  return personas.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Builds the organization and every day's aggregates in one pass. */
export function buildOrg(opts: OrgOptions): Org {
  return finish(orgParts(opts));
}

/** Runs a builder's parts (orgParts, worldParts) to the end at once. */
export function finish<T>(parts: Generator<void, T>): T {
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
  }
}

/**
 * Builds the organization a person at a time, pausing after each (its people given, or made first): a server
 * that embeds the demo lets its event loop go between parts, as it would while a real service answered.
 */
export function* orgParts(opts: OrgOptions & { personas?: Persona[] }): Generator<void, Org> {
  const days = daysOf(opts.today);
  const D = days.length;
  // Whether each day is a Saturday or Sunday, worked out once (userDay is asked millions of times).
  const weekend = days.map(isWeekend);
  const personas = opts.personas ?? (yield* personaParts(opts));
  const aggs = days.map(emptyAgg);
  const activeCount: Uint16Array[] = [];

  // For WAU/MAU: per day, how many users have their latest active day within the window.
  const wauDiff = new Int32Array(D + 8);
  const mauDiff = new Int32Array(D + 31);

  for (const p of personas) {
    yield;
    const counts = new Uint16Array(D + 1);
    let lastActive = -1_000_000;
    for (let d = 0; d < D; d++) {
      const f = userDay(opts.seed, p, d, weekend[d]!);
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
      for (const k of SUMMED) a[k] += f[k];
      for (const m of f.models) {
        const t = a.models.get(m.model) ?? [0, 0, 0];
        t[0] += m.billable;
        t[1] += m.input;
        t[2] += m.output;
        a.models.set(m.model, t);
      }
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
    // A day's ratios are one per active person: sorting a year of them at once held the event loop half a second.
    yield;
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
    userDay: (u, d) => userDay(opts.seed, personas[u]!, d, weekend[d]!),
  };
}
