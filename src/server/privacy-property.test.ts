/**
 * Privacy mode (PRIVACY_MIN_GROUP=k) as a property, for random mappings and k from 2 to 5: of whatever a manager asks
 * (the teams tree and summary, the teams' spend, the users table and its CSV, the seats' lists and counts (the people
 * the mapping names, those who never used the agent among them), the new starters in grace each list of people not
 * using the agent leaves out, the comparison's answers, the top users, the
 * highlights, the cohorts, a team's goal's progress, the funnel's starters by team and week, the alerts, the alerts'
 * preview and check now, readiness priced in friction and the delegation headroom lists of the readiness and teams
 * pages, and the MCP server's tools: the teams, users, goals and alerts tools give the pages' answers, the figures tool
 * a selection's, its teams' and its people's figures) and whatever the alerts' webhook and the digest are told,
 * - no group of people a figure is given about has 1 to k−1 people, nor does any group given less groups given
 *   within it: no two figures differ by a group of 1 to k−1 people;
 * - every team named is one the tree shows, every count of a group's people is exact, and the counts privacy mode
 *   withholds when they are 1 to k−1 (the users table's, the highlights', the cohorts') are never given so;
 * - people are named by pseudonym only (no email or user id anywhere), each under the team shown for theirs, and
 *   people of one value of a sort come in pseudonym order: no order follows what the reader does not see;
 * - friction compares the selection's outermost teams owning a repository that the tree shows, a side's figures (its
 *   teams' people's) only with enough teams on each side, and privacy mode only leaves teams out of the admin's
 *   answer: the headroom rows are the admin's of the teams shown.
 *
 * The demo organization on one dashboard per k (a mapping of the demo's people, of people the service has not seen,
 * and of the demo's repositories to teams, uploaded by the admin for each run), signed in through the test OpenID
 * provider, the webhook a real receiver. The group each figure is about is worked out here from the mapping and the
 * admin's per-person figures, and each answer's people from their pseudonyms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertPreviewSchema, alertsSchema, alertsCheckSchema } from '../api/alerts';
import { figuresAnswerSchema } from '../api/figures';
import { frictionAnswerSchema, FRICTION_PATH, type FrictionAnswer } from '../api/friction';
import { goalPath, goalSchema, goalsAnswerSchema } from '../api/goals';
import { markFiguresPath, markFiguresSchema, markSchema } from '../api/marks';
import { cohortsSchema, highlightsSchema } from '../api/insights';
import { teamsSpendSchema } from '../api/spend';
import { teamsAnswerSchema, teamsSummarySchema, topUsersSchema, UNASSIGNED, type TeamView } from '../api/teams';
import { readinessAnswerSchema } from '../api/readiness';
import { reconciliationSchema } from '../api/reconciliation';
import { usersTableSchema } from '../api/users';
import { addDays, HISTORY_START, weekStart, type Day } from '../lib/dates';
import { DEFAULT_GRACE_DAYS, inGrace } from '../lib/funnel';
import { CookieJar, request, signInEnv, signedIn, startProvider, type TestProvider } from '../test/oidc';
import { pseudonym } from './auth/privacy';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { createLogger } from './core/log';
import { postDigest } from './digest/digest';
import { readStoreConfig } from './store/config';
import type { StoreDb } from './store/db';
import { isWithin } from './teams/tree';

const KS = [2, 3, 4, 5] as const;
const RUNS = Number(process.env.PRIVACY_RUNS ?? 24);
const PRIVACY_SECRET = 'privacy-property-secret-of-at-least-32-characters';
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'c', DEMO_USERS: '45' };
const LATEST: Day = '2026-04-30';
/** The ranges a run may read: a month (nearly everyone active), a week, two days (few). */
const STARTS: Day[] = ['2026-04-01', addDays(LATEST, -6), addDays(LATEST, -1)];
const WEEK = { start: addDays(LATEST, -6), end: LATEST };
/** A mark's day with four whole weeks on each side of its week before LATEST. */
const MARK_DAY: Day = '2026-03-18';
/** A goal's date: some whole weeks after LATEST. */
const GOAL_BY: Day = '2026-06-30';
const BEFORE = { start: addDays(LATEST, -13), end: addDays(LATEST, -7) };
const QUIET = { start: addDays(LATEST, -29), end: LATEST };
const ADMIN = 'admin@acme.example';
const LEAD = 'lead@acme.example';
const PSEUDONYM = /^Person [0-9a-f]{10}$/;
const dir = mkdtempSync(join(tmpdir(), 'privacy-property-'));

/** One person of the demo as the admin sees them: what the groups' figures are made of. */
interface Person {
  id: string;
  email: string | null;
  /** Active in each of the ranges (STARTS), the week to the latest day, the week before, the 30 days to it. */
  active: boolean[];
  week: boolean;
  before: boolean;
  recent: boolean;
  /** The Monday of the week of their first active day. */
  cohort: Day | null;
  /** Their first active day: their access day, as the mapping gives none (lib/funnel.ts). */
  first: Day | null;
}

/** A dashboard with privacy mode for k, on a store of its own. */
interface Dashboard {
  k: number;
  base: string;
  hook: string;
  admin: CookieJar;
  lead: CookieJar;
  /** The manager's assistant: an MCP client of the dashboard's /mcp, with a personal API token of theirs. */
  mcp: Client;
  app: ReturnType<typeof createApp>;
}

let provider: TestProvider;
const listeners = new Map<number, { server: Server; base: string }>();
const apps = new Map<number, ReturnType<typeof createApp>>();
const dashboards = new Map<number, Promise<Dashboard>>();
const stores: StoreDb[] = [];
const clients: Client[] = [];
let receiver: Server;
let receiverAt: string;
/** The webhook's bodies as posted, by the path each dashboard posts to. */
const posted = new Map<string, string[]>();
let people: Promise<Map<string, Person>> | undefined;
let repoKeys: Promise<string[]> | undefined;
/**
 * How many of the manager's friction answers compared teams, put teams on a side, gave a side's figures, listed
 * headroom: the property is not vacuous when some did.
 */
const frictionSeen = { answers: 0, compared: 0, sides: 0, shown: 0, headroom: 0 };
/** Every email and user id of the organization, and the admin's email: none may reach a manager or a channel. */
let secrets: string[] = [];

beforeAll(async () => {
  for (const k of KS) {
    const server = createServer((req, res) => apps.get(k)!.handler(req, res, () => res.end('the page')));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    listeners.set(k, { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = req.url ?? '';
      posted.set(at, [...(posted.get(at) ?? []), Buffer.concat(chunks).toString('utf8')]);
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()));
  receiverAt = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  provider = await startProvider([...listeners.values()].map((l) => `${l.base}/auth/callback`));
  writeFileSync(
    join(dir, 'prices.json'),
    JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }),
  );
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const l of listeners.values()) l.server.close();
  receiver?.close();
  await provider?.close();
  await Promise.all([...apps.values()].map((a) => a.close()));
  await Promise.all(stores.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const api = (d: Dashboard, jar: CookieJar, path: string, method = 'GET', body?: unknown) =>
  request(jar, new URL(path, d.base), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
async function read(d: Dashboard, jar: CookieJar, path: string, method = 'GET', body?: unknown): Promise<unknown> {
  const r = await api(d, jar, path, method, body);
  expect(r.res.status, `${method} ${path}: ${r.body}`).toBeLessThan(300);
  return r.body === '' ? null : JSON.parse(r.body);
}

/** The dashboard for k, made on first use: the whole history stored, as the background sync leaves it. */
function dashboard(k: number): Promise<Dashboard> {
  let d = dashboards.get(k);
  if (!d) {
    d = (async () => {
      const { base } = listeners.get(k)!;
      const env = {
        ...DEMO,
        DATA_DIR: ':memory:',
        PRICES_FILE: join(dir, 'prices.json'),
        ALERT_WEBHOOK_URL: `${receiverAt}/k${k}`,
        ...signInEnv(provider.issuer, base),
        PRIVACY_MIN_GROUP: String(k),
        PRIVACY_SECRET,
        // The assistant's token serves every run of this k: on a quiet machine they ask more than 120 a minute.
        API_TOKEN_RATE: '100000',
      };
      const config = readServerConfig(env);
      const storeConfig = readStoreConfig(env);
      const store = (await openAppStore(config, storeConfig))!;
      stores.push(store);
      const app = createApp(config, { store, storeConfig, logger: createLogger(() => undefined) });
      apps.set(k, app);
      const admin = await signedIn(base, ADMIN);
      const lead = await signedIn(base, LEAD);
      // The manager's assistant holds a personal API token of theirs.
      const issued = await request(lead, new URL('/api/api-tokens', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'assistant', days: 30 }),
      });
      expect(issued.res.status, issued.body).toBe(201);
      const token = (JSON.parse(issued.body) as { token: string }).token;
      const mcp = new Client({ name: 'privacy-property', version: '1' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(mcp);
      const made: Dashboard = { k, base, hook: `/k${k}`, admin, lead, mcp, app };
      await read(made, admin, `/api/users?start=${HISTORY_START}&end=${LATEST}&limit=1`);
      return made;
    })();
    dashboards.set(k, d);
  }
  return d;
}

/** Everyone known, with their figures, from the admin's users table (the same demo on every dashboard). */
function everyone(d: Dashboard): Promise<Map<string, Person>> {
  people ??= (async () => {
    type Row = { userId: string; email: string | null; activeDays: number; firstDay: Day | null };
    const rows = async (start: Day, end: Day) =>
      new Map(
        usersTableSchema
          .parse(await read(d, d.admin, `/api/users?start=${start}&end=${end}&who=all&limit=1000`))
          .users.map((u) => [u.userId, u as Row]),
      );
    const [all, week, before, quiet, ...ranges] = await Promise.all([
      rows(HISTORY_START, LATEST),
      rows(WEEK.start, WEEK.end),
      rows(BEFORE.start, BEFORE.end),
      rows(QUIET.start, QUIET.end),
      ...STARTS.map((start) => rows(start, LATEST)),
    ]);
    const out = new Map<string, Person>();
    for (const [id, u] of all)
      out.set(id, {
        id,
        email: u.email,
        active: ranges.map((r) => (r.get(id)?.activeDays ?? 0) > 0),
        week: (week.get(id)?.activeDays ?? 0) > 0,
        before: (before.get(id)?.activeDays ?? 0) > 0,
        recent: (quiet.get(id)?.activeDays ?? 0) > 0,
        cohort: u.firstDay ? weekStart(u.firstDay) : null,
        first: u.firstDay,
      });
    secrets = [...[...out.values()].flatMap((p) => [p.id, p.email ?? '']), ADMIN].filter((s) => s !== '');
    return out;
  })();
  return people;
}

/** Counts a manager's friction answer in `frictionSeen`. */
function tally(a: FrictionAnswer) {
  frictionSeen.answers++;
  if (a.teams > 0) frictionSeen.compared++;
  if (a.criteria.some((c) => c.failing.teams + c.passing.teams > 0)) frictionSeen.sides++;
  if (a.criteria.some((c) => c.shown)) frictionSeen.shown++;
  if (a.headroom.room.length + a.headroom.risk.length > 0) frictionSeen.headroom++;
}

/** The demo's repositories with a report, by key (the same demo on every dashboard): the mapping's claims are of these. */
function repositories(d: Dashboard): Promise<string[]> {
  repoKeys ??= (async () => {
    const keys = readinessAnswerSchema.parse(await read(d, d.admin, '/api/readiness')).repos.map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    return keys;
  })();
  return repoKeys;
}

// ---------------------------------------------------------------------------------------------------------------
// The random mappings.

const LETTERS = 'ABCDEF';
const scenario = fc.record({
  k: fc.constantFrom(...KS),
  /** Team i's parent: an earlier team, or none (a top-level team) when it names no earlier one. */
  parents: fc.array(fc.integer({ min: -2, max: 5 }), { minLength: 2, maxLength: 6 }),
  /** People put directly in each team, taken in turn from the people in a random order; the rest Unassigned. */
  sizes: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 6, maxLength: 6 }),
  order: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  /**
   * People the mapping names whom the service has not seen (by user id), each put in a team, given access long before
   * the ranges (`since`) or not (then they are in grace: first named after the latest day).
   */
  unseen: fc.array(fc.tuple(fc.nat(5), fc.boolean()), { maxLength: 3 }),
  /** The teams the manager manages (one or two); `outer`: the first one's top-level team instead. */
  managed: fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 2 }),
  outer: fc.boolean(),
  /** The range the figures are read for (STARTS). */
  range: fc.nat(STARTS.length - 1),
  /** A users table sort with ties, to read the order of. */
  sort: fc.constantFrom('team', 'tier', 'prs', 'commits', 'activeDays', 'delegation', 'model'),
  dir: fc.constantFrom('asc', 'desc'),
  /** Top-level teams of no one the manager manages too, owning repositories: teams enough for friction's sides. */
  spare: fc.oneof(fc.constant(0), fc.integer({ min: 5, max: 9 })),
  /** Each repository's owning team (the repositories take these in turn), of the teams and the spare ones; or none. */
  repos: fc.array(fc.integer({ min: -2, max: 10 }), { minLength: 8, maxLength: 25 }),
  /** A team owning the repositories of the demo's owner no other claims, by pattern (host/owner/*), or none. */
  wildcard: fc.integer({ min: -3, max: 10 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * A run's mapping: the teams of people or of the manager (every one above those named too), each person's team,
 * each repository's owning team (null: none), the manager's teams (the spare ones among them).
 */
interface World {
  teams: string[];
  teamOf: Map<string, string>;
  ownerOf: Map<string, string | null>;
  unseen: string[];
  /** The mapping's `since` of the people it gives one. */
  since: Map<string, Day>;
  managed: string[];
  csv: string;
}

/** The access day of people the mapping gives one: before every range, so no starters of theirs. */
const LONG_AGO: Day = '2026-02-02';

let runs = 0;
function worldOf(s: Scenario, ids: readonly string[], repos: readonly string[]): World {
  // Each run's teams are named anew: the alerts and budgets of earlier runs are about other teams.
  const run = ++runs;
  const n = s.parents.length;
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = s.parents[i]!;
    paths.push(p >= 0 && p < i ? `${paths[p]}/${LETTERS[i]}` : `R${run}${LETTERS[i]}`);
  }
  // The people in the scenario's order (a seeded shuffle), dealt out to the teams.
  let seed = s.order;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const shuffled = [...ids].sort();
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const teamOf = new Map<string, string>();
  let next = 0;
  for (let i = 0; i < n; i++)
    for (let m = 0; m < s.sizes[i]! && next < shuffled.length; m++) teamOf.set(shuffled[next++]!, paths[i]!);
  if (teamOf.size === 0) teamOf.set(shuffled[0]!, paths[0]!);
  const since = new Map<string, Day>();
  const unseen = s.unseen.map(([t, long], i) => {
    const id = `usr_unseen${run}x${i}`;
    teamOf.set(id, paths[t % n]!);
    if (long) since.set(id, LONG_AGO);
    return id;
  });
  const picked = s.managed.map((i) => paths[i % n]!);
  if (s.outer) picked[0] = picked[0]!.split('/')[0]!;
  const named = [...teamOf.values(), ...picked];
  const teams = paths.filter((p) => named.some((t) => isWithin(t, p)));
  const spare = Array.from({ length: s.spare }, (_, i) => `R${run}S${i}`);
  const managed = [...new Set(picked), ...spare];
  // Each repository claimed by its team; those claimed by none left to the pattern's team, if any (lib/repos.ts).
  const owners = [...spare, ...teams];
  const claims = new Map<string, string[]>();
  const wild = s.wildcard >= 0 ? owners[s.wildcard % owners.length]! : null;
  const ownerOf = new Map<string, string | null>();
  repos.forEach((key, i) => {
    // The spare teams one repository each first: each of them is compared.
    const t = s.repos[i % s.repos.length]!;
    const team = i < spare.length ? spare[i]! : t >= 0 ? owners[t % owners.length]! : null;
    if (team !== null) claims.set(team, [...(claims.get(team) ?? []), key]);
    ownerOf.set(key, team ?? wild);
  });
  if (wild !== null) claims.set(wild, [...(claims.get(wild) ?? []), ...new Set(repos.map((k) => `${ownerPart(k)}/*`))]);
  const rows = [
    'user_id,team,manager,repos,since',
    ...managed.map((t) => `,${t},${LEAD},,`),
    ...[...claims].map(([t, keys]) => `,${t},,${keys.join(';')},`),
    ...[...teamOf].map(([id, t]) => `${id},${t},,,${since.get(id) ?? ''}`),
  ];
  return { teams, teamOf, ownerOf, unseen, since, managed, csv: `${rows.join('\n')}\n` };
}

/** A repository key's host and owner (`github.com/acme`), its pattern's fixed part. */
const ownerPart = (key: string) => key.slice(0, key.lastIndexOf('/'));

// ---------------------------------------------------------------------------------------------------------------
// What the manager is given, and the checks of it.

/**
 * The people a count is of: everyone of the group (`members`: the people the mapping names there, seen or not), the
 * people the service has seen (`known`) and those it has not (`never`), those active or not in the range, those
 * active in the week to the latest day or the week before, those known and idle for the week (`idle7`) or the 30
 * days (`idle`) to it, those first active in a week (`cohort <Monday>`); of the lists of people not using the agent,
 * those they give (`unused …`) and the new starters in grace they leave out (`grace …`).
 */
type Unused = 'inactive' | 'idle7' | 'idle' | 'never';
type Kind =
  | 'members'
  | 'known'
  | 'never'
  | 'active'
  | 'inactive'
  | 'week'
  | 'before'
  | 'idle7'
  | 'idle'
  | 'starters'
  | `unused ${Unused}`
  | `grace ${Unused}`
  | `cohort ${string}`;

/** A figure given about a group of people (by their real ids), and a count of some of them if one is given. */
interface Claim {
  where: string;
  people: ReadonlySet<string>;
  count?: { kind: Kind; n: number };
}

/** Whether a count of people may be given: none, or k or more. */
const fine = (n: number, k: number) => n === 0 || n >= k;
const keyOf = (s: ReadonlySet<string>) => [...s].sort().join(' ');
const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].every((x) => b.has(x));
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every group given of 1 to k−1 people, and every group given that, less a choice of disjoint groups given within
 * it, leaves 1 to k−1 people: the figures of such a few, worked out by difference. `size`: how many people of the
 * group are counted (all of them, or those of a kind a count is given of).
 */
function derivable(groups: readonly Claim[], k: number, size = (c: Claim) => c.people.size): string[] {
  const distinct = new Map<string, Claim>();
  for (const g of groups) if (g.people.size > 0 && !distinct.has(keyOf(g.people))) distinct.set(keyOf(g.people), g);
  const all = [...distinct.values()];
  const found: string[] = [];
  for (const a of all) {
    if (!fine(size(a), k)) found.push(`${a.where}: ${size(a)} people`);
    const within = all.filter((b) => b.people.size < a.people.size && subset(b.people, a.people));
    const walk = (from: number, less: Claim[], used: ReadonlySet<string>, left: number) => {
      for (let i = from; i < within.length && found.length < 10; i++) {
        const b = within[i]!;
        if ([...b.people].some((x) => used.has(x))) continue;
        const chosen = [...less, b];
        const rest = left - size(b);
        if (!fine(rest, k)) found.push(`${a.where} less ${chosen.map((c) => c.where).join(', ')}: ${rest} people`);
        walk(i + 1, chosen, new Set([...used, ...b.people]), rest);
      }
    };
    walk(0, [], new Set(), size(a));
  }
  return found;
}

/** A prime: the figures' combinations are worked out modulo it. */
const P = 1_000_000_007n;
const inverse = (a: bigint) => {
  let [r, x, e] = [1n, ((a % P) + P) % P, P - 2n];
  for (; e > 0n; e >>= 1n, x = (x * x) % P) if (e & 1n) r = (r * x) % P;
  return r;
};

/**
 * Every group of 1 to k−1 people whose figures are a combination (sums and differences, in any number) of the groups
 * given: the nested differences `derivable` looks for, and those of groups that overlap (a team's starters of a week
 * from the week's of everyone and the other teams'). People whom every group given holds together or leaves together
 * are one part; a group of parts is a combination of the groups given exactly when it is orthogonal to every
 * combination of the parts that the groups given all sum to nothing. Worked out modulo a large prime: a group is missed
 * never, and flagged wrongly with a chance of about one in a billion. Counts of a kind within a group are `derivable`'s.
 */
function combined(groups: readonly Claim[], k: number): string[] {
  const distinct = new Map<string, Claim>();
  for (const g of groups) if (g.people.size > 0 && !distinct.has(keyOf(g.people))) distinct.set(keyOf(g.people), g);
  const all = [...distinct.values()];
  // The parts: people by the groups they are in.
  const parts = new Map<string, string[]>();
  for (const id of new Set(all.flatMap((g) => [...g.people]))) {
    const sign = all.map((g) => (g.people.has(id) ? 1 : 0)).join('');
    parts.set(sign, [...(parts.get(sign) ?? []), id]);
  }
  const people = [...parts.values()];
  const n = people.length;
  // The groups over the parts, reduced (Gauss-Jordan): the pivots and the free parts.
  const rows = all.map((g) => people.map((ids): bigint => (g.people.has(ids[0]!) ? 1n : 0n)));
  const pivots: number[] = [];
  let r = 0;
  for (let c = 0; c < n && r < rows.length; c++) {
    const at = rows.findIndex((row, i) => i >= r && row[c] !== 0n);
    if (at < 0) continue;
    [rows[r], rows[at]] = [rows[at]!, rows[r]!];
    const inv = inverse(rows[r]![c]!);
    rows[r] = rows[r]!.map((v) => (v * inv) % P);
    for (let i = 0; i < rows.length; i++)
      if (i !== r && rows[i]![c] !== 0n) {
        const f = rows[i]![c]!;
        rows[i] = rows[i]!.map((v, j) => (((v - f * rows[r]![j]!) % P) + P) % P);
      }
    pivots.push(c);
    r++;
  }
  const free = [...Array(n).keys()].filter((c) => !pivots.includes(c));
  // A combination of the parts the groups all sum to nothing for each free part: 1 on it, minus its column at the pivots.
  const nothing = free.map((f) => {
    const y = new Array<number>(n).fill(0);
    y[f] = 1;
    pivots.forEach((c, i) => (y[c] = Number((P - rows[i]![f]!) % P)));
    return y;
  });
  const ofPart = [...Array(n).keys()].map((c) => nothing.map((y) => y[c]!));
  const found: string[] = [];
  const small = [...Array(n).keys()].filter((c) => people[c]!.length < k);
  const walk = (from: number, chosen: number[], size: number, sum: number[]) => {
    for (let i = from; i < small.length && found.length < 10; i++) {
      const c = small[i]!;
      const total = size + people[c]!.length;
      if (total >= k) continue;
      const next = sum.map((v, j) => (v + ofPart[c]![j]!) % Number(P));
      const group = [...chosen, c];
      if (next.every((v) => v === 0))
        found.push(
          `${group.flatMap((g) => people[g]!).join(', ')} (${total} of ${k}) are a combination of the groups given`,
        );
      walk(i + 1, group, total, next);
    }
  };
  walk(0, [], 0, new Array<number>(nothing.length).fill(0));
  return found;
}

const TEAM_CHARS = /[A-Za-z0-9/]/;
/** The teams of the list a text names (a team's path, not part of a longer one). */
function teamsIn(text: string, teams: readonly string[]): string[] {
  return teams.filter((t) => {
    for (let at = text.indexOf(t); at >= 0; at = text.indexOf(t, at + 1)) {
      const [before, after] = [text[at - 1], text[at + t.length]];
      if ((before === undefined || !TEAM_CHARS.test(before)) && (after === undefined || !TEAM_CHARS.test(after)))
        return true;
    }
    return false;
  });
}

/** One run: the mapping uploaded, everything the manager and the channels are told read, and checked. */
async function check(s: Scenario) {
  const d = await dashboard(s.k);
  const k = s.k;
  const known = await everyone(d);
  const w = worldOf(s, [...known.keys()], await repositories(d));
  const { teams } = w;
  await read(d, d.admin, '/api/teams/mapping', 'PUT', { format: 'csv', text: w.csv });
  expect(await read(d, d.lead, '/api/me')).toMatchObject({ role: 'manager' });
  const secret = [...secrets, ...w.unseen];

  const start = STARTS[s.range]!;
  const RANGE = `start=${start}&end=${LATEST}`;
  const DAYS = `startDate=${start}&endDate=${LATEST}`;
  const realId = new Map([...known.keys(), ...w.unseen].map((id) => [pseudonym(PRIVACY_SECRET, id), id]));
  const teamOf = (id: string) => w.teamOf.get(id) ?? UNASSIGNED;
  const everybody = [...known.keys(), ...w.unseen];
  /** A team's people (its sub-teams' too; '' the organization), seen by the service or not. */
  const of = (team: string) => new Set(everybody.filter((id) => team === '' || isWithin(teamOf(id), team)));
  const ofAll = (ts: readonly string[]) => new Set(ts.flatMap((t) => [...of(t)]));
  /**
   * In grace on the latest day every range ends on (lib/funnel.ts): access, the mapping's since, else the earlier of
   * the day first named (after the latest day: the mapping is named now) and the first day seen.
   */
  const fresh = (id: string) => {
    const access = w.since.get(id) ?? known.get(id)?.first ?? (w.teamOf.has(id) ? addDays(LATEST, 1) : null);
    return access !== null && inGrace(access, LATEST, DEFAULT_GRACE_DAYS);
  };
  const is = (id: string, kind: Kind): boolean => {
    if (kind.startsWith('unused ') || kind.startsWith('grace ')) {
      const [which, of] = kind.split(' ') as ['unused' | 'grace', Unused];
      return is(id, of) && fresh(id) === (which === 'grace');
    }
    const p = known.get(id);
    if (kind === 'members') return true;
    if (kind === 'never') return !p;
    if (!p) return false;
    if (kind === 'known') return true;
    if (kind === 'active') return p.active[s.range]!;
    if (kind === 'inactive') return !p.active[s.range];
    if (kind === 'week') return p.week;
    if (kind === 'before') return p.before;
    if (kind === 'idle') return !p.recent;
    if (kind === 'idle7') return !p.week;
    if (kind === 'starters') return p.first !== null && p.first > HISTORY_START && p.first >= start;
    return p.cohort === kind.slice('cohort '.length);
  };
  const countOf = (group: ReadonlySet<string>, kind: Kind) => [...group].filter((id) => is(id, kind)).length;

  const claims: Claim[] = [];
  const problems: string[] = [];
  /** The teams the answers name (as a team, a label, in a sentence). */
  const named = new Set<string>();
  const bodies: { where: string; body: string }[] = [];
  /** A figure about `group`; with a count of its people of a kind, which is the group's as it is. */
  const claim = (where: string, group: ReadonlySet<string>, kind?: Kind, n?: number) => {
    claims.push({ where, people: group, ...(kind !== undefined && n !== undefined && { count: { kind, n } }) });
    if (kind !== undefined && n !== undefined && n !== countOf(group, kind))
      problems.push(`${where}: ${n} ${kind} given, the group has ${countOf(group, kind)}`);
  };
  /** A count of people privacy mode withholds when it is 1 to k−1 (the users table's, the highlights', the cohorts'). */
  const kept = (where: string, n: number) => {
    if (!fine(n, k)) problems.push(`${where}: a count of ${n} people`);
  };
  /** A person as an answer names them: by the pseudonym of one of the people known or named, never by email. */
  const person = (where: string, userId: string, email: string | null) => {
    if (!PSEUDONYM.test(userId) || email !== null) problems.push(`${where}: a person named ${userId} ${email}`);
    const id = realId.get(userId);
    if (id === undefined) problems.push(`${where}: ${userId} is no one’s pseudonym`);
    return id ?? userId;
  };
  const isCsv = (path: string) => path.includes('.csv') || path.endsWith('format=csv');
  /** A manager's answer: 200, or 403 for a team privacy mode does not show (JSON, or the CSV's text). */
  const answer = async (path: string): Promise<unknown> => {
    const r = await api(d, d.lead, path);
    bodies.push({ where: path, body: r.body });
    // A CSV (or the export) of fewer than k people is refused as its table is withheld.
    if (r.res.status === 422 && isCsv(path)) {
      expect(JSON.parse(r.body).detail, path).toMatch(
        /^Privacy mode \(PRIVACY_MIN_GROUP=\d\): these (filters leave|rows are about fewer than)/,
      );
      return undefined;
    }
    if (r.res.status === 403) {
      expect(JSON.parse(r.body).detail, path).toMatch(/^Privacy mode \(PRIVACY_MIN_GROUP=\d\): /);
      return undefined;
    }
    expect(r.res.status, `${path}: ${r.body}`).toBe(200);
    return isCsv(path) ? r.body : JSON.parse(r.body);
  };
  /** The answers asked for (each once), so that a selection's are asked side by side. */
  const asked = new Map<string, Promise<unknown>>();
  const ask = (path: string) => asked.get(path) ?? asked.set(path, answer(path)).get(path)!;
  /** A tool of the MCP server as the manager's assistant calls it: its answer, or undefined for privacy mode's 403. */
  const tool = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const where = `the ${name} tool ${JSON.stringify(args)}`;
    const r = (await d.mcp.callTool({ name, arguments: args })) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    bodies.push({ where, body: text });
    if (!r.isError) return JSON.parse(text);
    expect(JSON.parse(text), where).toMatchObject({
      status: 403,
      detail: expect.stringMatching(/^Privacy mode \(PRIVACY_MIN_GROUP=\d\): /),
    });
    return undefined;
  };

  // The tree: every team privacy mode shows (the manager sees the organization's), with its members.
  const tree = teamsAnswerSchema.parse(await ask('/api/teams'));
  const shown = new Set<string>();
  const walk = (ts: readonly TeamView[]) => {
    for (const t of ts) {
      shown.add(t.path);
      claim(`the tree’s ${t.path}`, of(t.path), 'members', t.members);
      walk(t.children);
    }
  };
  walk(tree.teams);
  claim('the tree’s organization', of(''), 'known', tree.users);
  if (tree.unassigned > 0) {
    shown.add(UNASSIGNED);
    claim('the tree’s Unassigned', of(UNASSIGNED), 'members', tree.unassigned);
  }
  /** The team a person is shown in: theirs or the nearest above it shown (none: the organization, null). */
  const shownTeamOf = (id: string): string | null => {
    for (let t: string | null = teamOf(id); t !== null; t = t.includes('/') ? t.slice(0, t.lastIndexOf('/')) : null)
      if (shown.has(t)) return t;
    return null;
  };

  // The MCP server's teams tool: the tree as the page's route gives it.
  expect(await tool('teams', {}), 'the teams tool').toEqual(tree);

  // The manager's teams (each with its sub-teams) one by one, and all of them, as the pages ask without a team.
  const mine = teams.filter((t) => w.managed.some((m) => isWithin(t, m)));
  const selections = [
    { q: '', teams: w.managed, label: 'the manager’s teams' },
    ...mine.map((t) => ({ q: `&team=${encodeURIComponent(t)}`, teams: [t], label: t })),
  ];
  const one = async (sel: (typeof selections)[number]) => {
    const { label } = sel;
    const group = ofAll(sel.teams);
    const only = sel.q.replace('&', '?');
    const table = `/api/users?${RANGE}${sel.q}&who=all&limit=1000`;
    const sorted = `/api/users?${RANGE}${sel.q}&who=all&sort=${s.sort}&dir=${s.dir}&limit=1000`;
    const who = (w: string) => `/api/users?${RANGE}${sel.q}&who=${w}&limit=1000`;
    const csv = `/api/users.csv?${RANGE}${sel.q}&who=all`;
    // The seats' lists, each with the kind of the group's people it lists (the ranges all end on the latest day).
    const seats = [
      ['named', 'members'],
      ['named-active', 'active'],
      ['idle-7', 'unused idle7'],
      ['idle-30', 'unused idle'],
      ['never', 'unused never'],
    ] as const;
    const neverCsv = `/api/users.csv?${RANGE}${sel.q}&who=never`;
    const exported = `/api/export/person-days?${RANGE}${sel.q}&format=csv`;
    const friction = `${FRICTION_PATH}?${RANGE}${sel.q}`;
    const teamOnly =
      sel.q === ''
        ? []
        : [
            `/api/spend?${RANGE}${sel.q}`,
            `/api/teams/analytics/tokens?${DAYS}${sel.q}`,
            `/api/teams/analytics/activity?${DAYS}${sel.q}`,
            `/api/teams/top-users?${RANGE}${sel.q}&limit=100`,
          ];
    // Asked side by side, read below in turn.
    for (const path of [
      `/api/teams/summary?${RANGE}${sel.q}`,
      `/api/spend/teams?${RANGE}${sel.q}`,
      `/api/reconciliation?${RANGE}${sel.q}`,
      table,
      csv,
      who('active'),
      who('inactive'),
      ...seats.map(([w]) => who(w)),
      neverCsv,
      exported,
      sorted,
      `/api/highlights${only}`,
      `/api/cohorts${only}`,
      friction,
      ...teamOnly,
    ])
      void ask(path).catch(() => undefined);

    // The teams summary (the comparison's table too): each row's members and active people.
    const summary = await ask(`/api/teams/summary?${RANGE}${sel.q}`);
    if (summary)
      for (const r of teamsSummarySchema.parse(summary).rows) {
        const where = `the summary (${label})’s ${r.team || 'organization'}`;
        named.add(r.team);
        claim(where, of(r.team), 'members', r.current.members);
        claim(where, of(r.team), 'active', r.current.active);
      }
    // The teams' spend, and the comparison's other answers: a team's spend, credits and active people by day.
    const spend = await ask(`/api/spend/teams?${RANGE}${sel.q}`);
    if (spend)
      for (const r of teamsSpendSchema.parse(spend).rows) {
        named.add(r.team);
        claim(`the spend (${label})’s ${r.team || 'organization'}`, of(r.team));
      }
    // The reconciliation: the dashboard's figure is the selection's teams shown, the rest of the organization outside
    // them (a team of it privacy mode does not show with them, unnamed: only how many people it has is said).
    const reconciled = await ask(`/api/reconciliation?${RANGE}${sel.q}`);
    if (reconciled) {
      const r = reconciliationSchema.parse(reconciled);
      const where = `the reconciliation (${label})`;
      const roots = sel.teams.filter((t) => !sel.teams.some((o) => o !== t && isWithin(t, o)));
      const counted = roots.filter((t) => shown.has(t));
      for (const t of r.teams) named.add(t);
      if (keyOf(new Set(r.teams)) !== keyOf(new Set(counted))) problems.push(`${where}: teams ${r.teams.join(', ')}`);
      const withheld = roots.filter((t) => !shown.has(t));
      if (r.withheld?.people !== ofAll(withheld).size || r.withheld.groups !== withheld.length)
        problems.push(`${where}: ${JSON.stringify(r.withheld)} withheld`);
      const dashboard = ofAll(counted);
      claim(`${where}’s dashboard`, dashboard);
      claim(`${where}’s outside`, new Set([...of('')].filter((id) => !dashboard.has(id))));
    }
    if (sel.q !== '') {
      if (await ask(`/api/spend?${RANGE}${sel.q}`)) claim(`the spend of ${label}`, group);
      if (await ask(`/api/teams/analytics/tokens?${DAYS}${sel.q}`)) claim(`the credits of ${label}`, group);
      const activity = (await ask(`/api/teams/analytics/activity?${DAYS}${sel.q}`)) as { meta: { members: number } };
      if (activity) claim(`the activity of ${label}`, group, 'active', activity.meta.members);
    }

    // The users table: the selection's people each under the team shown for theirs, and its counts.
    const all = await ask(table);
    if (all) {
      const t = usersTableSchema.parse(all);
      const where = `the users table (${label})`;
      const rows = t.users.map((u) => ({ id: person(where, u.userId, u.email), team: u.team ?? null }));
      const seen = new Set([...group].filter((id) => known.has(id)));
      if (t.withheld ? t.users.length > 0 || t.total !== 0 : keyOf(new Set(rows.map((r) => r.id))) !== keyOf(seen))
        problems.push(`${where}: its people are not the selection’s`);
      if (!t.withheld) claim(where, group, 'known', t.total);
      kept(where, t.total);
      if (t.activeUsers !== null) claim(`${where}’s active people`, group, 'active', t.activeUsers);
      if (t.inactiveUsers !== null) claim(`${where}’s inactive people`, group, 'unused inactive', t.inactiveUsers);
      for (const n of [t.activeUsers, t.inactiveUsers]) if (n !== null) kept(where, n);
      // The new starters in grace each list of people not using the agent leaves out: counted as the seats are.
      const graced = [
        ['inactive', t.grace?.inactive],
        ['idle7', t.grace?.seats?.idle7],
        ['idle', t.grace?.seats?.idle30],
        ['never', t.grace?.seats?.never],
      ] as const;
      if (!t.grace?.seats) problems.push(`${where}: no counts of the new starters in grace`);
      for (const [kind, n] of graced)
        if (n != null) {
          claim(`${where}’s new starters in grace (${kind})`, group, `grace ${kind}`, n);
          kept(`${where}’s new starters in grace (${kind})`, n);
        }
      for (const r of rows) {
        if (r.team !== null) named.add(r.team);
        if (r.team !== shownTeamOf(r.id)) problems.push(`${where}: a person of ${teamOf(r.id)} under ${r.team}`);
      }
      // The people under each team shown: the team less its sub-teams shown, a group of its own.
      for (const l of new Set(rows.map((r) => r.team))) {
        const under = new Set([...group].filter((id) => shownTeamOf(id) === l));
        claim(`${where}’s people under ${l ?? 'no team'}`, under, 'known', rows.filter((r) => r.team === l).length);
      }
      // The CSV: the same people, in the same order, under the same teams.
      const text = (await ask(csv)) as string | undefined;
      if (text === undefined) expect(t.withheld, `the CSV (${label})`).toBeDefined();
      else {
        const lines = parse(text) as string[][];
        const at = ['user_id', 'user_email', 'team'].map((c) => lines[0]!.indexOf(c));
        const got = lines.slice(1).map((l) => at.map((i) => l[i] ?? ''));
        expect(got, `the CSV (${label})`).toEqual(t.users.map((u) => [u.userId, '', u.team ?? '']));
      }
      // The bulk export: the selection's active people's days, each person by pseudonym under the team the users
      // table shows them in, and the people under each team a group of its own.
      const rowsOut = (await ask(exported)) as string | undefined;
      if (rowsOut !== undefined) {
        const there = `the export (${label})`;
        const lines = parse(rowsOut) as string[][];
        const at = ['user_id', 'user_email', 'team'].map((c) => lines[0]!.indexOf(c));
        const teamIn = new Map(t.users.map((u) => [u.userId, u.team ?? '']));
        const under = new Map<string, Set<string>>();
        for (const l of lines.slice(1)) {
          const [userId, email, team] = at.map((i) => l[i] ?? '');
          const id = person(there, userId!, email || null);
          if (teamIn.get(userId!) !== team) problems.push(`${there}: ${userId} under ${team}`);
          under.set(team!, (under.get(team!) ?? new Set()).add(id));
          if (team) named.add(team);
        }
        const people = new Set([...under.values()].flatMap((x) => [...x]));
        claim(there, group, 'active', people.size);
        kept(there, people.size);
        for (const [team, ids] of under)
          claim(
            `${there}’s people under ${team || 'no team'}`,
            new Set([...group].filter((id) => (shownTeamOf(id) ?? '') === team)),
            'active',
            ids.size,
          );
      }
      // The active and the inactive people: listed, or neither they nor their count given.
      for (const [w, kind] of [
        ['active', 'active'],
        ['inactive', 'unused inactive'],
      ] as const) {
        const one = usersTableSchema.parse(await ask(who(w)));
        const ids = new Set(one.users.map((u) => person(where, u.userId, u.email)));
        if (one.withheld && (one.total !== 0 || one.users.length > 0)) problems.push(`${where}: ${kind} rows withheld`);
        if (!one.withheld) claim(`${where}’s ${kind} people`, group, kind, one.total);
        kept(`${where}, ${kind}`, one.total);
        if (ids.size !== one.users.length) problems.push(`${where}, ${kind}: a person twice`);
      }
      // The seats: each list the group's people of its kind, or neither they nor their count given; the counts.
      for (const [w, kind] of seats) {
        const one = usersTableSchema.parse(await ask(who(w)));
        const ids = new Set(one.users.map((u) => person(where, u.userId, u.email)));
        if (one.withheld && (one.total !== 0 || one.users.length > 0)) problems.push(`${where}: ${w} rows withheld`);
        if (!one.withheld) {
          claim(`${where}’s ${w} people`, group, kind, one.total);
          if (keyOf(ids) !== keyOf(new Set([...group].filter((id) => is(id, kind)))))
            problems.push(`${where}, ${w}: its people are not the group’s ${kind}`);
        }
        kept(`${where}, ${w}`, one.total);
        if (ids.size !== one.users.length) problems.push(`${where}, ${w}: a person twice`);
        for (const u of one.users)
          if (u.team !== shownTeamOf(realId.get(u.userId) ?? ''))
            problems.push(`${where}, ${w}: a person of ${teamOf(realId.get(u.userId) ?? '')} under ${u.team}`);
        if (w === 'never') {
          const text = (await ask(neverCsv)) as string | undefined;
          if (text === undefined) expect(one.withheld, `the never used CSV (${label})`).toBeDefined();
          else
            expect(
              (parse(text) as string[][]).slice(1).map((l) => l[0]),
              `the never used CSV (${label})`,
            ).toEqual(one.users.map((u) => u.userId));
        }
      }
      const counts = {
        named: 'members',
        active: 'active',
        idle7: 'unused idle7',
        idle30: 'unused idle',
        never: 'unused never',
      } as const;
      if (!t.seats) problems.push(`${where}: no seats' counts`);
      for (const [k, kind] of Object.entries(counts))
        if (t.seats?.[k as keyof typeof counts] != null) {
          claim(`${where}’s seats (${k})`, group, kind, t.seats[k as keyof typeof counts]!);
          kept(`${where}’s seats (${k})`, t.seats[k as keyof typeof counts]!);
        }
      // A sort with ties: among people of one value, by pseudonym; by team, each team's people together.
      const byValue = usersTableSchema.parse(await ask(sorted)).users;
      const value = (u: (typeof byValue)[number]) =>
        ({
          team: u.team ?? null,
          tier: u.primaryModelTier,
          prs: u.prs,
          commits: u.commits,
          activeDays: u.activeDays,
          delegation: u.delegationLevel,
          model: u.primaryModel,
        })[s.sort];
      for (let i = 1; i < byValue.length; i++)
        if (value(byValue[i]!) === value(byValue[i - 1]!) && byName(byValue[i - 1]!.userId, byValue[i]!.userId) >= 0)
          problems.push(`${where} by ${s.sort} ${s.dir}: a tie not in pseudonym order at ${i}`);
      const together = byValue.map((u) => u.team ?? '').filter((x, i, all) => i === 0 || x !== all[i - 1]);
      if (s.sort === 'team' && new Set(together).size !== together.length)
        problems.push(`${where} by team: a team’s people apart`);
    }

    // The top users: the selection's credits, its people by credits, ties by pseudonym.
    const top = sel.q === '' ? undefined : await ask(`/api/teams/top-users?${RANGE}${sel.q}&limit=100`);
    if (top) {
      const t = topUsersSchema.parse(top);
      const where = `the top users of ${label}`;
      claim(where, group);
      for (const u of t.users)
        if (!group.has(person(where, u.userId, u.email))) problems.push(`${where}: ${u.userId} is not of them`);
      for (let i = 1; i < t.users.length; i++) {
        const [a, b] = [t.users[i - 1]!, t.users[i]!];
        if (a.credits < b.credits || (a.credits === b.credits && byName(a.userId, b.userId) >= 0))
          problems.push(`${where}: not by credits, then pseudonym, at ${i}`);
      }
    }

    // A mark of the team, and its figures before and after it: the team's, or refused for a team not shown.
    if (sel.q !== '') {
      const made = await api(d, d.lead, '/api/marks', 'POST', { day: MARK_DAY, team: sel.teams[0], text: 'Training' });
      expect(made.res.status, made.body).toBe(201);
      const mark = markSchema.parse(JSON.parse(made.body));
      const figures = await answer(markFiguresPath(mark.id));
      if (figures) {
        const f = markFiguresSchema.parse(figures);
        if (f.weeks === 0) problems.push(`the mark’s figures (${label}): no whole weeks around ${MARK_DAY}`);
        claim(`the mark’s figures (${label})`, group);
        named.add(f.team);
      } else if (shown.has(sel.teams[0]!)) problems.push(`the mark’s figures (${label}): refused for a team shown`);
      await read(d, d.lead, `/api/marks/${encodeURIComponent(mark.id)}`, 'DELETE');
    }

    // A goal of the team, and its progress: the team's shares, or none (asked by name: refused) for a team not shown.
    if (sel.q !== '') {
      const team = sel.teams[0]!;
      const kind = s.range % 2 === 0 ? 'weekly-active' : 'moderate-or-above';
      const made = await api(d, d.lead, '/api/goals', 'POST', { team, kind, target: 0.8, by: GOAL_BY });
      expect(made.res.status, made.body).toBe(201);
      const goal = goalSchema.parse(JSON.parse(made.body));
      const where = `the goal’s progress (${team})`;
      const listed = await answer(`/api/goals?team=${encodeURIComponent(team)}`);
      expect(await tool('goals', { teams: [team] }), `the goals tool (${team})`).toEqual(listed);
      if (listed) {
        const [g] = goalsAnswerSchema.parse(listed).goals;
        if (!g?.progress) problems.push(`${where}: none for a team shown`);
        claim(where, of(team));
        named.add(team);
      } else if (shown.has(team)) problems.push(`${where}: refused for a team shown`);
      if (!shown.has(team) && goal.progress !== null)
        problems.push(`${where}: given as it was set, for a team not shown`);
      await read(d, d.lead, goalPath(goal.id), 'DELETE');
    }

    // From access to a first pull request: each team's starters (access in the range), the weekly and daily cohorts.
    for (const by of ['team', 'week', 'day'] as const) {
      const f = await ask(`/api/figures?${RANGE}&measure=funnelStarters&measure=funnelPrShare&by=${by}${sel.q}`);
      for (const r of f ? figuresAnswerSchema.parse(f).rows : []) {
        if (by === 'team') named.add(r.key);
        const within = by === 'team' ? of(r.key) : sel.q === '' ? of('') : group;
        const starters = new Set(
          [...within].filter(
            (id) =>
              is(id, 'starters') &&
              (by === 'team' || (by === 'week' ? weekStart(known.get(id)!.first!) : known.get(id)!.first!) === r.key),
          ),
        );
        if (r.current.funnelStarters !== null)
          claim(`the funnel (${label}) of ${r.key}`, starters, 'starters', r.current.funnelStarters);
      }
    }

    // The highlights: the teams they name, their people by pseudonym, and the counts of people they give.
    const h = await ask(`/api/highlights${only}`);
    if (h) {
      const hs = highlightsSchema.parse(h);
      const where = `the highlights (${label})`;
      for (const x of hs.highlights) {
        const text = `${x.title}\n${x.detail}`;
        for (const p of text.match(/Person [0-9a-f]{10}/g) ?? []) person(where, p, null);
        for (const t of teamsIn(text, [...teams, UNASSIGNED])) named.add(t);
        const drop = /^(.+): (\d+) (?:people|person) active this week, down from (\d+)$/.exec(x.title);
        if (x.kind === 'drop') {
          expect(drop, x.title).not.toBeNull();
          claim(`${where}’s drop of ${drop![1]}`, of(drop![1]!), 'week', Number(drop![2]));
          claim(`${where}’s drop of ${drop![1]}`, of(drop![1]!), 'before', Number(drop![3]));
        }
        if (x.kind === 'inactive') {
          claim(`${where}’s idle people`, group, 'idle', Number(/^(\d+) /.exec(x.title)?.[1]));
          for (const part of x.detail.replace(/\.$/, '').split('; ')) {
            const m = /^(.+?): (.+)$/.exec(part);
            if (!m || m[1]!.startsWith('and ')) continue;
            const l = m[1] === 'the organization' ? null : m[1]!;
            const more = Number(/ and (\d+) more$/.exec(m[2]!)?.[1] ?? 0);
            const under = new Set([...group].filter((id) => shownTeamOf(id) === l));
            claim(`${where}’s idle people of ${l}`, under, 'idle', (m[2]!.match(/Person /g) ?? []).length + more);
          }
        }
        // A spike is one person's, by pseudonym; the others count groups of people.
        if (x.kind !== 'spike') for (const c of x.title.matchAll(/(\d+) (?:people|person)/g)) kept(where, Number(c[1]));
      }
      for (const note of hs.notes) {
        for (const t of teamsIn(note, [...teams, UNASSIGNED])) named.add(t);
        if (!/more people had a day far above/.test(note))
          for (const c of note.matchAll(/(\d+) (?:people|person)/g)) kept(`${where}: “${note}”`, Number(c[1]));
      }
    }

    // The MCP tools, as the manager's assistant asks them (server/mcp): the users tool gives the users table's answer,
    // and the figures tool the runner's figures of the selection, of each team shown in it and of its people.
    const range = { start, end: LATEST, ...(sel.q !== '' && { teams: sel.teams }) };
    expect(await tool('users', { ...range, who: 'all', limit: 1000 }), `the users tool (${label})`).toEqual(
      await ask(table),
    );
    const figures = async (args: Record<string, unknown>) => {
      const a = await tool('figures', { ...range, ...args });
      return a === undefined ? undefined : figuresAnswerSchema.parse(a);
    };
    const counted = ['members', 'active'] as const;
    const whole = await figures({ measures: counted });
    if (whole)
      for (const c of counted)
        claim(`the figures tool (${label})`, sel.q === '' ? of('') : group, c, whole.rows[0]!.current[c]!);
    const byTeam = await figures({ measures: counted, by: 'team' });
    if (byTeam)
      for (const r of byTeam.rows) {
        named.add(r.key);
        for (const c of counted) claim(`the figures tool (${label}) by team: ${r.key}`, of(r.key), c, r.current[c]!);
      }
    const byPerson = await figures({ measures: ['credits'], by: 'person' });
    if (byPerson) {
      const where = `the figures tool (${label}) by person`;
      const rows = byPerson.rows;
      for (const r of rows)
        if (!group.has(person(where, r.key, null))) problems.push(`${where}: ${r.key} is not of them`);
      if (byPerson.withheld && rows.length > 0) problems.push(`${where}: rows withheld`);
      if (!byPerson.withheld) claim(where, group, 'active', rows.length);
      kept(where, rows.length);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1]!, rows[i]!];
        if (
          a.current.credits! < b.current.credits! ||
          (a.current.credits === b.current.credits && byName(a.key, b.key) >= 0)
        )
          problems.push(`${where}: not by credits, then pseudonym, at ${i}`);
      }
    }

    // The cohorts: each week's new people of the selection (without a team, the organization's).
    const c = await ask(`/api/cohorts${only}`);
    if (c)
      for (const x of cohortsSchema.parse(c).cohorts) {
        claim(`the cohorts (${label}) of ${x.week}`, sel.q === '' ? of('') : group, `cohort ${x.week}`, x.size);
        kept(`the cohorts (${label}) of ${x.week}`, x.size);
      }

    // Readiness priced in friction and the headroom lists: the selection's outermost teams owning a repository, of
    // those the tree shows; a side's figures are its teams' people's, given only with enough teams on each side; a
    // headroom row is its team's people's. Privacy mode leaves teams out of the admin's answer for the same teams and
    // changes no figure of those it keeps: the headroom rows are the admin's of the teams shown, and so are the sides'
    // teams, with the admin's figures where the admin's side is the same.
    const f = await ask(friction);
    if (f) {
      const a = frictionAnswerSchema.parse(f);
      const where = `the friction (${label})`;
      const owners = [
        ...new Set(
          [...w.ownerOf.values()].filter((o): o is string => o !== null && sel.teams.some((t) => isWithin(o, t))),
        ),
      ];
      const compared = owners.filter((t) => !owners.some((o) => o !== t && isWithin(t, o)) && shown.has(t));
      if (a.teams !== compared.length) problems.push(`${where}: ${a.teams} teams compared, not ${compared.join(', ')}`);
      const teamsQ = sel.teams.map((t) => `&team=${encodeURIComponent(t)}`).join('');
      const asAdmin =
        a.teams === 0
          ? undefined
          : frictionAnswerSchema.parse(await read(d, d.admin, `${FRICTION_PATH}?${RANGE}${teamsQ}`));
      for (const list of ['room', 'risk'] as const) {
        expect(a.headroom[list], `${where}’s ${list}`).toEqual(
          (asAdmin?.headroom[list] ?? []).filter((r) => shown.has(r.team)),
        );
        for (const r of a.headroom[list]) {
          named.add(r.team);
          if (!compared.includes(r.team)) problems.push(`${where}’s ${list}: ${r.team} is not compared`);
          claim(`${where}’s ${list}: ${r.team}`, of(r.team));
        }
      }
      for (const c of a.criteria) {
        const full = asAdmin?.criteria.find((x) => x.id === c.id);
        if (c.shown !== (c.failing.teams >= a.minTeams && c.passing.teams >= a.minTeams))
          problems.push(`${where}: ${c.id} shown ${c.shown} with ${c.failing.teams} and ${c.passing.teams} teams`);
        for (const side of ['failing', 'passing'] as const) {
          const x = c[side];
          const at = `${where}: ${c.id} ${side}`;
          const admins = full?.[side];
          expect(x.names, at).toEqual((admins?.names ?? []).filter((t) => shown.has(t)));
          if (c.shown && full?.shown && keyOf(new Set(admins!.names)) === keyOf(new Set(x.names)))
            expect(x, at).toEqual(admins);
          if (x.teams !== x.names.length) problems.push(`${at}: ${x.teams} teams, ${x.names.length} named`);
          for (const t of x.names) {
            named.add(t);
            if (!compared.includes(t)) problems.push(`${at}: ${t} is not compared`);
          }
          const figures = [x.activePeople, x.toolCallsPerTurn, x.creditsPerPr, x.manualShare, x.spendPerActiveMonth];
          if (c.shown) claim(at, ofAll(x.names), 'active', x.activePeople!);
          else if (figures.some((v) => v !== null)) problems.push(`${at}: figures of a side not shown`);
        }
        if (!c.shown && c.spendDifference !== null) problems.push(`${where}: ${c.id}’s spend difference not shown`);
      }
      tally(a);
    }
  };
  await Promise.all(selections.map(one));

  // The alerts: rules the manager may make on their teams, the admin's on every team; then the manager's alerts
  // page, and what the webhook and the digest are told.
  const ruleOn = (jar: CookieJar, scope: string, kind: string, threshold?: number) =>
    api(d, jar, '/api/alert-rules', 'POST', { kind, scope, ...(threshold && { threshold }) });
  // The manager's are refused on a team not shown.
  for (const t of mine)
    for (const [kind, threshold] of [['active-drop', 1], ['person-day']] as const) {
      const r = await ruleOn(d.lead, t, kind, threshold);
      expect(r.res.status, `${kind} on ${t}: ${r.body}`).toBe(shown.has(t) ? 201 : 403);
    }
  // The admin's are made on every team but those the manager has one of that kind on.
  for (const t of teams) {
    const r = await ruleOn(d.admin, t, 'active-drop', 1);
    expect(r.res.status, `active-drop on ${t}: ${r.body}`).toBe(mine.includes(t) && shown.has(t) ? 400 : 201);
  }
  const before = posted.get(d.hook)?.length ?? 0;
  // The manager's preview and check now: their rules' alerts, worded as the alerts page words them.
  const preview = alertPreviewSchema.parse(await ask('/api/alerts/preview'));
  const checked = alertsCheckSchema.parse(await read(d, d.lead, '/api/alerts/check', 'POST'));
  bodies.push({ where: 'the check now', body: JSON.stringify(checked) });
  const worded = [
    ...preview.rules.flatMap((r) => [...r.holding, ...r.resolving]).map((a) => ({ where: 'the preview', ...a })),
    ...[...checked.opened, ...checked.resolved].map((a) => ({ where: 'the check now', ...a })),
  ];
  await read(d, d.admin, '/api/alerts/check', 'POST');
  await postDigest(
    new URL(`${receiverAt}${d.hook}`),
    await d.app.digest!(),
    createLogger(() => undefined),
  );
  const told = (posted.get(d.hook) ?? []).slice(before);
  expect(told.length).toBeGreaterThan(0);
  const alerts = alertsSchema.parse(await ask('/api/alerts'));
  expect(await tool('alerts', {}), 'the alerts tool').toEqual({ open: alerts.open });
  for (const body of told) if (body.toLowerCase().includes(LEAD)) problems.push(`the webhook is told ${LEAD}`);
  for (const { where, body } of [
    ...told.map((body, i) => ({ where: `the webhook’s post ${i + 1}`, body })),
    ...[...alerts.open, ...worded].map((a) => ({
      where: `${'where' in a ? a.where : 'the alert'} on ${a.scope}`,
      body: `${a.scope}\n${a.summary}`,
    })),
  ]) {
    bodies.push({ where, body });
    for (const t of teamsIn(body, [...teams, UNASSIGNED])) named.add(t);
    for (const p of body.match(/Person [0-9a-f]{10}/g) ?? []) person(where, p, null);
    for (const m of body.matchAll(/([^\s"\\]+): (\d+) (?:people|person) active [^,]*, down \d+ % from (\d+)/g))
      if (teams.includes(m[1]!)) {
        claim(`${where}: ${m[1]}`, of(m[1]!), 'week', Number(m[2]));
        claim(`${where}: ${m[1]}`, of(m[1]!), 'before', Number(m[3]));
      }
  }
  // This run's rules go: the next run's mapping has other teams.
  const rules = ((await read(d, d.admin, '/api/alert-rules')) as { rules: { id: string }[] }).rules;
  for (const r of rules) expect((await api(d, d.admin, `/api/alert-rules/${r.id}`, 'DELETE')).res.status).toBe(204);

  // No one's email or user id, anywhere.
  for (const { where, body } of bodies) {
    const b = body.toLowerCase();
    const found = secret.filter((x) =>
      new RegExp(`(^|[^a-z0-9_.-])${x.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_-]|$)`).test(b),
    );
    if (found.length > 0) problems.push(`${where}: names ${found.join(', ')}`);
  }
  // Every team named is one the tree shows, of none or k people or more; its figures are among those given.
  named.delete('');
  for (const t of named) {
    if (!shown.has(t)) problems.push(`${t} is named, not shown in the tree`);
    claims.push({ where: `${t} named`, people: of(t) });
  }
  // No group of 1 to k−1 people is given, nor the difference of groups given.
  problems.push(...derivable(claims, k));
  // Nor any combination of them: the funnel's starters by team and by week are a grid, checked whole (funnel-privacy.ts).
  problems.push(...combined(claims, k));

  const mapping = [...new Set(teams)].map((t) => `${t}: ${of(t).size} (${countOf(of(t), 'known')} seen)`);
  expect(problems, `k=${k}, range from ${start}, ${mapping.join(', ')}; managed: ${w.managed.join(', ')}`).toEqual([]);
}

describe('the check of the groups given', () => {
  const group = (where: string, ids: number[]) => ({ where, people: new Set(ids.map((i) => `u${i}`)) });
  it('works out a group from overlapping ones, which no nested difference gives', () => {
    // (A + B − C) ÷ 2 is {4, 5, 6}, and likewise each third: three people, under k = 5.
    const given = [group('A', [1, 2, 3, 4, 5, 6]), group('B', [4, 5, 6, 7, 8, 9]), group('C', [1, 2, 3, 7, 8, 9])];
    expect(derivable(given, 5)).toEqual([]);
    expect(combined(given, 5)).toEqual(
      ['u1, u2, u3', 'u4, u5, u6', 'u7, u8, u9'].map((g) => `${g} (3 of 5) are a combination of the groups given`),
    );
    // A + B − D is {1, 2, 13, 14}: the parts {1, 2} and {13, 14}, neither a combination alone.
    const apart = [
      group('A', [1, 2, 3, 4, 5, 6, 7]),
      group('B', [8, 9, 10, 11, 12, 13, 14]),
      group('D', [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    ];
    expect(derivable(apart, 5)).toEqual([]);
    expect(combined(apart, 5)).toEqual(['u1, u2, u13, u14 (4 of 5) are a combination of the groups given']);
    // With two more people in C, no group under k follows.
    expect(combined([...given.slice(0, 2), group('C', [1, 2, 3, 7, 8, 9, 10, 11])], 5)).toEqual([]);
  });
});

describe('privacy mode, for random mappings and k', () => {
  it('gives a manager no figure from which a group of 1 to k−1 people can be worked out', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(s)),
      {
        numRuns: RUNS,
        endOnFailure: true,
        // A week's starters of everyone less a team's of the range (all of that week) told one person's (funnel.ts).
        examples: [
          [
            {
              k: 2,
              parents: [3, 0],
              sizes: [6, 5, 2, 2, 5, 5],
              order: 0,
              unseen: [
                [1, false],
                [5, false],
              ],
              managed: [4, 3],
              outer: false,
              range: 1,
              sort: 'prs',
              dir: 'desc',
              spare: 0,
              repos: [-1, 3, 7, 5, 3, -1, -1, 2, -1, 4, 10, 2, 8, 3, -2, 2, 4, 2, 4, 5],
              wildcard: 2,
            } as unknown as Scenario,
          ],
          // A day's starters of the manager's teams less a team's of the range told one person's (funnel.ts).
          [
            {
              k: 2,
              parents: [1, 5, 1, 3, -1, 3],
              sizes: [6, 0, 1, 4, 1, 1],
              order: 1644777783,
              unseen: [[0, true]],
              managed: [3],
              outer: false,
              range: 0,
              sort: 'team',
              dir: 'desc',
              spare: 0,
              repos: [0, 1, 4, 3, 1, 5, 3, 2, 8, -2, 10, 0, 6, 10, 2, 3],
              wildcard: -2,
            } as unknown as Scenario,
          ],
          // A team's members in the tree less its starters of the range told 4 people, with k = 5 (funnel.ts).
          [
            {
              k: 5,
              parents: [0, -1, 1],
              sizes: [5, 6, 1, 2, 0, 5],
              order: 2147483641,
              unseen: [
                [3, true],
                [5, true],
                [1, false],
              ],
              managed: [0, 1],
              outer: true,
              range: 0,
              sort: 'activeDays',
              dir: 'desc',
              spare: 0,
              repos: [8, 2, 8, 7, 0, 1, 1, 2, -2, 8, -2, 8, 5, -2, 0],
              wildcard: 9,
            } as unknown as Scenario,
          ],
          // A week's cohort of the manager's teams, less a day's, less a team's starters of the range, plus its
          // sub-team's told one person's (funnel.ts withheld teams and cohorts apart; funnel-privacy.ts, together).
          [
            {
              k: 2,
              parents: [5, -1, 0, 2, 1],
              sizes: [5, 6, 5, 5, 0, 1],
              order: 30,
              unseen: [[3, true]],
              managed: [2, 5],
              outer: false,
              range: 0,
              sort: 'delegation',
              dir: 'desc',
              spare: 9,
              repos: [7, -1, 7, 1, 8, 7, 2, 5, 10, 10, 5, 3, -2, 9, 6, 10, 6, 0, 3, 10],
              wildcard: 10,
            } as unknown as Scenario,
          ],
        ],
      },
    );
    // Friction is asked of teams that own repositories: some answers compare teams, put them on a side, and give a
    // side's figures.
    const seen = JSON.stringify(frictionSeen);
    expect(frictionSeen.compared, seen).toBeGreaterThan(0);
    expect(frictionSeen.sides, seen).toBeGreaterThan(0);
    expect(frictionSeen.shown, seen).toBeGreaterThan(0);
  }, 600_000);
});
