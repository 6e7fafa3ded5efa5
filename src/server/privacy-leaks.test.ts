/**
 * Privacy mode (PRIVACY_MIN_GROUP=3) against what a manager could work out rather than read: a small group's figures
 * as the difference of two figures shown, people ordered by what the manager does not see, a count of people
 * beside a list withheld for being too few. On the demo organization through the dashboard's HTTP server, signed
 * in with the test OpenID provider, with a mapping made of the demo's people: Eng with Eng/Big (4 people) and
 * Eng/Solo (1), Ops with 4 people of its own (one not active in the range) and Ops/Tiny (2), Data with Data/Idle
 * (3 people not active in the range) and Data/One (1), everyone else Unassigned.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamsAnswerSchema, teamsSummarySchema, type TeamView } from '../api/teams';
import { usersTableSchema } from '../api/users';
import { HISTORY_START } from '../lib/dates';
import { CookieJar, request, signInEnv, startProvider, type TestProvider, signedIn } from '../test/oidc';
import { pseudonym } from './auth/privacy';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { readDemoConfig } from './demo/config';
import { createDemoService } from './demo/service';
import { readStoreConfig } from './store/config';
import type { StoreDb } from './store/db';

const K = 3;
const dir = mkdtempSync(join(tmpdir(), 'privacy-leaks-'));
const PRIVACY_SECRET = 'privacy-leaks-secret-of-at-least-32-characters';
const START = '2026-04-01';
const END = '2026-04-30';
const RANGE = `start=${START}&end=${END}`;
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'leaks', DEMO_USERS: '90' };
const ENG_LEAD = 'eng-lead@acme.example';
const OPS_LEAD = 'ops-lead@acme.example';
const DATA_LEAD = 'data-lead@acme.example';

/** The demo's people with an email, each active in the range or only before it (from the demo's own days). */
function demoPeople() {
  const org = createDemoService(readDemoConfig(DEMO)).world().org;
  const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
  const active: { id: string; email: string }[] = [];
  const idle: { id: string; email: string }[] = [];
  org.users.forEach((u, i) => {
    const days = org.activeCount[i]!;
    if (u.email === null || days[hi + 1]! === 0) return;
    (days[hi + 1]! - days[lo]! > 0 ? active : idle).push({ id: u.id, email: u.email });
  });
  return { active, idle };
}
const { active, idle } = demoPeople();
const big = active.slice(0, 4);
const solo = active[4]!;
const ops = [...active.slice(5, 8), idle[0]!];
const tiny = active.slice(8, 10);
const dataIdle = idle.slice(1, 4);
const dataOne = active[10]!;

let provider: TestProvider;
let base: string;
let server: Server;
let store: StoreDb;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  expect(idle.length).toBeGreaterThanOrEqual(4);
  server = createServer((req, res) => app.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  const teams = join(dir, 'teams.csv');
  const rows = [
    ['', 'Eng', ENG_LEAD],
    ['', 'Ops', OPS_LEAD],
    ['', 'Data', DATA_LEAD],
    ...big.map((p) => [p.email, 'Eng/Big', '']),
    [solo.email, 'Eng/Solo', ''],
    ...ops.map((p) => [p.email, 'Ops', '']),
    ...tiny.map((p) => [p.email, 'Ops/Tiny', '']),
    ...dataIdle.map((p) => [p.email, 'Data/Idle', '']),
    [dataOne.email, 'Data/One', ''],
  ];
  writeFileSync(teams, ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n');
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
  const env = {
    ...DEMO,
    PRICES_FILE: prices,
    DATA_DIR: ':memory:',
    TEAMS_FILE: teams,
    ...signInEnv(provider.issuer, base),
    PRIVACY_MIN_GROUP: String(K),
    PRIVACY_SECRET,
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  app = createApp(config, { store, storeConfig });
}, 60_000);

afterAll(async () => {
  server.close();
  await provider.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = (email: string) => signedIn(base, email);
const api = (jar: CookieJar, path: string) => request(jar, new URL(path, base));
async function read<T = unknown>(jar: CookieJar, path: string): Promise<T> {
  const r = await api(jar, path);
  expect(r.res.status, `${path}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as T;
}
const team = (t: string) => `team=${encodeURIComponent(t)}`;
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);
/** Whether a count of people could be shown: none, or k or more. */
const fine = (n: number) => n === 0 || n >= K;
const readCsv = (text: string) => parse(text) as string[][];

describe('privacy mode against figures derived by difference, order and counts', () => {
  let admin: CookieJar;
  let eng: CookieJar;
  let opsLead: CookieJar;

  beforeAll(async () => {
    admin = await signIn('admin@acme.example');
    // The whole history stored, as the background sync leaves it: everyone is known, the counts are final.
    await read(admin, `/api/users?start=${HISTORY_START}&end=${END}&limit=1`);
    eng = await signIn(ENG_LEAD);
    opsLead = await signIn(OPS_LEAD);
    for (const jar of [eng, opsLead]) expect(await read(jar, '/api/me')).toMatchObject({ role: 'manager' });
  }, 60_000);

  it('shows no team whose figures less its sub-teams shown would single out 1 to k−1 people', async () => {
    // The admin sees the mapping as it is: Eng/Solo's one person, with credits of their own.
    const truth = teamsSummarySchema.parse(await read(admin, `/api/teams/summary?${RANGE}`)).rows;
    const of = (rows: typeof truth, t: string) => rows.find((r) => r.team === t)?.current;
    expect([of(truth, 'Eng')?.members, of(truth, 'Eng/Big')?.members, of(truth, 'Eng/Solo')?.members]).toEqual([
      5, 4, 1,
    ]);
    expect([of(truth, 'Ops')?.members, of(truth, 'Ops/Tiny')?.members]).toEqual([6, 2]);
    expect(of(truth, 'Eng/Solo')!.credits).toBeGreaterThan(0);

    // Each manager's rows (the organization's and their team's): every row shown, less the rows of its sub-teams
    // shown, leaves no one or k people or more.
    const summaries = [];
    for (const jar of [eng, opsLead]) {
      const rows = teamsSummarySchema.parse(await read(jar, `/api/teams/summary?${RANGE}`)).rows;
      summaries.push(rows);
      const shownKids = (parent: string | null) => rows.filter((r) => r.team !== '' && r.parent === parent);
      for (const r of rows) {
        expect(fine(r.current.members), r.team).toBe(true);
        const kids = shownKids(r.team === '' ? null : r.team);
        const rest = r.current.members - kids.reduce((n, k) => n + k.current.members, 0);
        expect(fine(rest), `${r.team || 'the organization'} less ${kids.map((k) => k.team).join(', ')}`).toBe(true);
      }
      expect(of(rows, '')).toEqual(of(truth, ''));
    }
    // So neither Eng/Big (Eng less it is Eng/Solo's person) nor Eng/Solo is shown; Eng and Ops are, exactly.
    const [engRows, opsRows] = summaries as [typeof truth, typeof truth];
    expect(engRows.map((r) => r.team)).toEqual(['', 'Eng']);
    expect(of(engRows, 'Eng')).toEqual(of(truth, 'Eng'));
    expect(opsRows.map((r) => r.team)).toEqual(['', 'Ops']);
    expect(of(opsRows, 'Ops')).toEqual(of(truth, 'Ops'));

    // The tree: the same teams, by the same rule.
    const tree = teamsAnswerSchema.parse(await read(eng, '/api/teams'));
    expect(flat(tree.teams).map((t) => t.path)).not.toContain('Eng/Big');
    for (const t of flat(tree.teams)) {
      expect(fine(t.members), t.path).toBe(true);
      expect(fine(t.members - t.children.reduce((n, c) => n + c.members, 0)), t.path).toBe(true);
    }
    const tops = tree.teams.reduce((n, t) => n + t.members, 0) + tree.unassigned;
    expect(fine(tree.users - tops)).toBe(true);

    // Asked for alone, Eng/Big is refused, as a team under k is, on every route that takes a team.
    for (const path of [
      `/api/teams/summary?${RANGE}&${team('Eng/Big')}`,
      `/api/users?${RANGE}&${team('Eng/Big')}`,
      `/api/users.csv?${RANGE}&${team('Eng/Big')}`,
      `/api/teams/top-users?${RANGE}&${team('Eng/Big')}`,
      `/api/teams/analytics/tokens?startDate=${START}&endDate=${END}&${team('Eng/Big')}`,
    ]) {
      const r = await api(eng, path);
      expect(r.res.status, `${path}: ${r.body}`).toBe(403);
      expect(r.body).toContain(`PRIVACY_MIN_GROUP=${K}`);
    }
    expect((await api(admin, `/api/users?${RANGE}&${team('Eng/Big')}`)).res.status).toBe(200);
  });

  it('shows no team’s spend that privacy mode does not show: Eng less Eng/Big would be one person’s', async () => {
    const truth = (await read<{ rows: { team: string }[] }>(admin, `/api/spend/teams?${RANGE}`)).rows.map(
      (r) => r.team,
    );
    expect(truth).toEqual(expect.arrayContaining(['Eng', 'Eng/Big', 'Eng/Solo']));
    const rows = (await read<{ rows: { team: string }[] }>(eng, `/api/spend/teams?${RANGE}`)).rows.map((r) => r.team);
    expect(rows).toContain('Eng');
    expect(rows).not.toContain('Eng/Big');
    expect(rows).not.toContain('Eng/Solo');
  });

  it('gives a manager none of the service’s per-person rows but their own: their people in a range may be fewer than k', async () => {
    const days = `startDate=${START}&endDate=${END}`;
    const ids = (text: string) => (text.match(/"user_id":"[^"]+"/g) ?? []).length;
    // The admin gets Ops/Tiny's two people among everyone's rows; Ops' manager, none of anyone's.
    const all = await read<{ data: { user_id: string }[] }>(admin, `/api/v1/analytics/users?${days}&limit=100`);
    expect(all.data.map((r) => r.user_id)).toEqual(expect.arrayContaining(tiny.map((p) => p.id)));
    for (const path of [`/api/v1/analytics/users?${days}&limit=100`, `/api/v1/analytics/tokens?${days}`]) {
      const r = await api(opsLead, path);
      expect(r.res.status, `${path}: ${r.body}`).toBe(200);
      expect(ids(r.body), path).toBe(0);
      for (const p of [...tiny, ...ops]) expect(r.body).not.toContain(p.email);
    }
  });

  it('names no team not shown in the highlights: its idle people are under the nearest team shown', async () => {
    type Highlights = { highlights: { kind: string; title: string; detail: string }[]; notes: string[] };
    const idleOf = (h: Highlights) => h.highlights.find((x) => x.kind === 'inactive');
    // The admin's: Data/Idle's three people, by team (Data less Data/Idle would be Data/One's one person).
    expect(idleOf(await read<Highlights>(admin, `/api/highlights?${team('Data')}`))?.detail).toMatch(/^Data\/Idle: /);
    const told = await read<Highlights>(await signIn(DATA_LEAD), '/api/highlights');
    expect(JSON.stringify(told)).not.toContain('Data/');
    expect(idleOf(told)?.detail).toMatch(/^Data: Person [0-9a-f]{10}, Person [0-9a-f]{10}, Person [0-9a-f]{10}\.$/);
  });

  it('labels each person of the users table, its CSV, with the nearest team shown: none singled out', async () => {
    const table = usersTableSchema.parse(await read(eng, `/api/users?${RANGE}&${team('Eng')}&limit=100`));
    expect(table.users.map((u) => u.userId).sort()).toEqual(
      [...big, solo].map((p) => pseudonym(PRIVACY_SECRET, p.id)).sort(),
    );
    expect(table.users.map((u) => u.team)).toEqual(table.users.map(() => 'Eng'));
    const csv = readCsv((await api(eng, `/api/users.csv?${RANGE}&${team('Eng')}`)).body);
    const at = csv[0]!.indexOf('team');
    expect(csv.slice(1).map((r) => r[at])).toEqual(table.users.map(() => 'Eng'));
    // The admin's table names each person's own team.
    const named = usersTableSchema.parse(await read(admin, `/api/users?${RANGE}&${team('Eng')}&limit=100`));
    expect(named.users.find((u) => u.userId === solo.id)?.team).toBe('Eng/Solo');
  });

  it('orders the users table by what the manager sees: the team shown, ties by pseudonym', async () => {
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    // Ops' six, its folded Ops/Tiny's two among them: all labelled Ops, so in pseudonym order.
    const q = `${RANGE}&${team('Ops')}&who=all&sort=team&dir=asc&limit=100`;
    const ops6 = usersTableSchema.parse(await read(opsLead, `/api/users?${q}`)).users;
    expect(ops6).toHaveLength(6);
    expect(ops6.map((u) => u.team)).toEqual(ops6.map(() => 'Ops'));
    expect(ops6.map((u) => u.userId)).toEqual(ops6.map((u) => u.userId).sort(byName));
    const csv = readCsv((await api(opsLead, `/api/users.csv?${q.replace(/&limit=\d+/, '')}`)).body);
    expect(csv.slice(1).map((r) => r[0])).toEqual(ops6.map((u) => u.userId));

    // By columns of few values (a model tier, pull requests): among people of one value, pseudonym order, either way.
    let ties = 0;
    for (const sort of ['tier', 'prs'] as const)
      for (const dir of ['desc', 'asc']) {
        const rows = usersTableSchema.parse(
          await read(opsLead, `/api/users?${RANGE}&${team('Ops')}&who=all&sort=${sort}&dir=${dir}&limit=100`),
        ).users;
        const value = (u: (typeof rows)[number]) => (sort === 'tier' ? u.primaryModelTier : u.prs);
        for (let i = 1; i < rows.length; i++)
          if (value(rows[i]!) === value(rows[i - 1]!)) {
            ties++;
            expect(byName(rows[i - 1]!.userId, rows[i]!.userId), `${sort} ${dir} ${i}`).toBeLessThan(0);
          }
      }
    expect(ties).toBeGreaterThanOrEqual(6);
  });

  it('gives no count of 1 to k−1 people beside the list it withholds', async () => {
    const inactive = usersTableSchema.parse(await read(opsLead, `/api/users?${RANGE}&${team('Ops')}&who=inactive`));
    expect(inactive).toMatchObject({ users: [], total: 0, withheld: { minGroup: K } });
    expect(inactive.inactiveUsers).toBeNull();
    expect(inactive.activeUsers).toBe(5);
    const listed = usersTableSchema.parse(await read(opsLead, `/api/users?${RANGE}&${team('Ops')}`));
    expect([listed.activeUsers, listed.inactiveUsers]).toEqual([5, null]);
    // The admin is told the count.
    const told = usersTableSchema.parse(await read(admin, `/api/users?${RANGE}&${team('Ops')}&who=inactive`));
    expect([told.total, told.inactiveUsers]).toEqual([1, 1]);
  });
});
