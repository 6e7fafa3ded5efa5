/**
 * Privacy mode (PRIVACY_MIN_GROUP) through the dashboard's HTTP server, on the demo organization with the test
 * OpenID provider: every route that returns people or per-person figures, asked by a manager, names nobody
 * but the manager (no email or user id of anyone else in any body or CSV), shows no team under k members,
 * and keeps the organization's totals; the manager sees their own page; an admin sees names, each such view
 * written to the audit log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamsAnswerSchema, teamsSummarySchema, UNASSIGNED, type TeamView } from '../api/teams';
import { HISTORY_START } from '../lib/dates';
import { CookieJar, request, startProvider, walkSignIn, signInEnv, type TestProvider } from '../test/oidc';
import { pseudonym } from './auth/privacy';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { createLogger } from './core/log';
import { readStoreConfig } from './store/config';
import { applyAlertChanges } from './store/alerts-queries';
import type { StoreDb } from './store/db';

const K = 4;
const dir = mkdtempSync(join(tmpdir(), 'privacy-'));
const PRIVACY_SECRET = 'privacy-secret-of-at-least-32-characters!!';
let provider: TestProvider;
let base: string;
let server: Server;
let store: StoreDb;
const lines: Record<string, unknown>[] = [];
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = createServer((req, res) => app.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
  const env = {
    PRICES_FILE: prices,
    DEMO_TODAY: '2026-05-01',
    DEMO_SEED: 'insights',
    DEMO_USERS: '120',
    DATA_DIR: ':memory:',
    ...signInEnv(provider.issuer, base),
    PRIVACY_MIN_GROUP: String(K),
    PRIVACY_SECRET,
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  app = createApp(config, {
    store,
    storeConfig,
    logger: createLogger((line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
  });
}, 60_000);

afterAll(async () => {
  server.close();
  await provider.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(email: string) {
  const jar = new CookieJar();
  await walkSignIn(jar, new URL('/auth/login', base), email);
  return jar;
}
const api = (jar: CookieJar, path: string) => request(jar, new URL(path, base));
async function read<T = unknown>(jar: CookieJar, path: string): Promise<T> {
  const r = await api(jar, path);
  expect(r.res.status, `${path}: ${r.body}`).toBe(200);
  return JSON.parse(r.body) as T;
}
const RANGE = 'start=2026-04-01&end=2026-04-30';
const DAYS = 'startDate=2026-04-01&endDate=2026-04-30';
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);
const team = (t: string) => `team=${encodeURIComponent(t)}`;
interface Row {
  userId: string;
  email: string | null;
}

describe('privacy mode (PRIVACY_MIN_GROUP)', () => {
  let admin: CookieJar;
  let tree: TeamView[];
  let everyone: Row[];
  let manager: { email: string; userId: string; team: string; jar: CookieJar };
  /** Every email and user id of the organization but the manager's own, and every manager's email. */
  let secrets: string[];

  beforeAll(async () => {
    admin = await signIn('admin@acme.example');
    // The whole history stored, as the background sync leaves it: the highlights name people.
    await read(admin, `/api/users?start=${HISTORY_START}&end=2026-04-30&limit=1`);
    everyone = (await read<{ users: Row[] }>(admin, `/api/users?${RANGE}&who=all&limit=1000`)).users;
    tree = flat(teamsAnswerSchema.parse(await read(admin, '/api/teams')).teams);
    // A managed team of at least 2k members with a sub-team under k: folding shows in its own tree.
    const t = tree.find(
      (x) => x.managers.length > 0 && x.members >= 2 * K && x.children.some((c) => c.members < K && c.members > 0),
    );
    expect(t, JSON.stringify(tree.map((x) => [x.path, x.members, x.managers.length]))).toBeDefined();
    const email = t!.managers[0]!;
    const me = everyone.find((u) => u.email?.toLowerCase() === email.toLowerCase());
    manager = { email, userId: me?.userId ?? '', team: t!.path, jar: await signIn(email) };
    expect(await read(manager.jar, '/api/me')).toMatchObject({ role: 'manager' });
    const managers = tree.flatMap((x) => x.managers);
    secrets = [
      ...new Set(
        [...everyone.flatMap((u) => [u.userId, u.email ?? '']), ...managers]
          .filter((s) => s !== '' && s.toLowerCase() !== email.toLowerCase() && s !== manager.userId)
          .map((s) => s.toLowerCase()),
      ),
    ];
    expect(secrets.length).toBeGreaterThan(everyone.length);
  }, 60_000);

  /** The names of anyone but the manager found in a body (case folded). */
  const leaks = (body: string) => {
    const b = body.toLowerCase();
    return secrets.filter((s) =>
      new RegExp(`(^|[^a-z0-9_.-])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_-]|$)`).test(b),
    );
  };

  it('names nobody to a manager on any route that returns people or per-person figures', async () => {
    const mine = team(manager.team);
    // The routes whose answers name people to an admin (checked, so that their silence to the manager means something).
    const people = [
      `/api/users?${RANGE}&${mine}&limit=1000`,
      `/api/users?${RANGE}&${mine}&who=all&limit=1000`,
      `/api/users.csv?${RANGE}&${mine}&who=all`,
      `/api/teams/top-users?${RANGE}&${mine}`,
      '/api/teams',
      `/api/teams/summary?${RANGE}`,
      `/api/teams/summary?${RANGE}&${mine}`,
      `/api/highlights?${mine}`,
      '/api/v1/analytics/users?startDate=2026-04-24&endDate=2026-04-30',
      '/api/v1/analytics/tokens?startDate=2026-04-24&endDate=2026-04-30',
    ];
    // The other routes of a manager's pages: aggregates, repositories, settings.
    const others = [
      `/api/teams/analytics/tokens?${DAYS}&${mine}`,
      `/api/teams/analytics/activity?${DAYS}&${mine}`,
      `/api/cohorts?${mine}`,
      `/api/spend/teams?${RANGE}`,
      `/api/spend?${RANGE}&${mine}`,
      '/api/readiness',
      '/api/sync',
      '/api/config',
      '/api/me',
      // Their own page: their own figures and identity, and no one else's (their team's other managers).
      `/api/users/${encodeURIComponent(manager.userId)}?${RANGE}`,
    ];
    for (const path of [...people, ...others]) {
      const r = await api(manager.jar, path);
      expect([200, 202], `${path}: ${r.body.slice(0, 300)}`).toContain(r.res.status);
      expect(leaks(r.body), path).toEqual([]);
      if (people.includes(path)) expect(leaks((await api(admin, path)).body).length, path).toBeGreaterThan(0);
    }
    // The highlights say the same things, of pseudonyms, and link to the users table, not to a person's page.
    const told = await read<{ highlights: { kind: string; title: string; detail: string; link: { path: string } }[] }>(
      manager.jar,
      `/api/highlights?${mine}`,
    );
    const truth = await read<{ highlights: { kind: string; title: string }[] }>(admin, `/api/highlights?${mine}`);
    // The counts of people a highlight gives ("3 people active this week, down from 6").
    const counts = (title: string) =>
      [...title.matchAll(/(\d+) (?:people|person)\b|down from (\d+)/g)].map((m) => Number(m[1] ?? m[2]));
    const small = (h: { title: string }) => counts(h.title).some((n) => n > 0 && n < K);
    // The admin's, less those describing fewer than k people: the same kinds in the same order.
    expect(told.highlights.map((h) => h.kind)).toEqual(truth.highlights.filter((h) => !small(h)).map((h) => h.kind));
    for (const h of told.highlights) expect(small(h), h.title).toBe(false);
    // (The team's week has such a group: what is left out is left out indeed, and the note says so.)
    expect(truth.highlights.some(small), JSON.stringify(truth.highlights.map((h) => h.title))).toBe(true);
    const notes = (await read<{ notes: string[] }>(manager.jar, `/api/highlights?${mine}`)).notes;
    expect(notes).toContain(`Privacy mode: what would describe fewer than ${K} people is not shown.`);
    for (const h of told.highlights) expect(h.link.path).not.toMatch(/^\/users\//);
    // The digest, posted to a channel, names people so too.
    const digest = JSON.stringify(await app.digest!());
    expect(leaks(digest)).toEqual([]);
    expect(digest).toMatch(/Person [0-9a-f]{10}/);
    // The rows are there, under pseudonyms: the same person, the same one, in the table and the CSV.
    const table = await read<{ users: Row[] }>(manager.jar, `/api/users?${RANGE}&${mine}&who=all&limit=1000`);
    expect(table.users.length).toBeGreaterThanOrEqual(K);
    for (const u of table.users) {
      expect(u.userId).toMatch(/^Person [0-9a-f]{10}$/);
      expect(u.email).toBeNull();
    }
    const csv = (await api(manager.jar, `/api/users.csv?${RANGE}&${mine}&who=all`)).body;
    for (const u of table.users) expect(csv).toContain(u.userId);
    const named = everyone.find((u) => table.users.some((p) => p.userId === pseudonym(PRIVACY_SECRET, u.userId)));
    expect(named).toBeDefined();
    const top = await read<{ users: Row[] }>(manager.jar, `/api/teams/top-users?${RANGE}&${mine}`);
    expect(top.users.length).toBeGreaterThan(0);
    for (const u of top.users) expect(u.userId).toMatch(/^Person [0-9a-f]{10}$/);
  });

  it('names the person of a person-day alert by their pseudonym to a manager, by name to an admin', async () => {
    // An alert of the manager's team about someone in it, as the check stores it.
    const theirs = await read<{ users: Row[] }>(admin, `/api/users?${RANGE}&${team(manager.team)}&limit=1`);
    const who = theirs.users[0]!;
    expect(who.email).not.toBeNull();
    await applyAlertChanges(
      store.db,
      '2026-04-30',
      [
        {
          ruleId: 'rule-privacy',
          kind: 'person-day',
          scope: manager.team,
          key: who.userId,
          summary: `${who.email} used 3.1× their usual credits on 30 April 2026 (9,000 against a usual 2,900).`,
          link: `/users/${encodeURIComponent(who.userId)}?start=2026-04-03&end=2026-04-30`,
        },
      ],
      [],
    );
    const shown = await api(manager.jar, '/api/alerts');
    expect(shown.res.status, shown.body).toBe(200);
    expect(leaks(shown.body)).toEqual([]);
    const alert = (JSON.parse(shown.body) as { open: { key: string; summary: string; link: string }[] }).open.find(
      (a) => a.key === pseudonym(PRIVACY_SECRET, who.userId),
    );
    expect(alert).toMatchObject({
      summary: `${pseudonym(PRIVACY_SECRET, who.userId)} used 3.1× their usual credits on 30 April 2026 (9,000 against a usual 2,900).`,
      // Their team's page over the same days, not the person's own.
      link: `/teams/${manager.team.split('/').map(encodeURIComponent).join('/')}?start=2026-04-03&end=2026-04-30`,
    });
    const told = await api(admin, '/api/alerts');
    expect(told.body).toContain(who.email!);
    // An alert of the manager's sub-team under k members is not shown them (as the team is not), the admin sees it.
    const little = tree.find((x) => x.path.startsWith(`${manager.team}/`) && x.members > 0 && x.members < K)!;
    expect(little).toBeDefined();
    const summary = `${little.path}: 1 person active Apr 24, 2026 – Apr 30, 2026, down 50 % from 2 the week before.`;
    await applyAlertChanges(
      store.db,
      '2026-04-30',
      [{ ruleId: 'rule-small', kind: 'active-drop', scope: little.path, key: '', summary, link: '/' }],
      [],
    );
    expect((await api(manager.jar, '/api/alerts')).body).not.toContain(little.path);
    expect((await api(admin, '/api/alerts')).body).toContain(summary);
  });

  it('shows a manager no team under k members, refuses one asked alone, and keeps the totals exact', async () => {
    const small = tree.find((t) => t.members > 0 && t.members < K)!;
    expect(small).toBeDefined();
    const own = flat(teamsAnswerSchema.parse(await read(manager.jar, '/api/teams')).teams);
    expect(own.every((t) => t.members >= K && t.managers.length === 0)).toBe(true);
    expect(own.map((t) => t.path)).not.toContain(small.path);
    // A shown team's count is the admin's: its folded sub-teams stay counted in it.
    for (const t of own) expect(t.members).toBe(tree.find((a) => a.path === t.path)!.members);
    for (const path of [
      `/api/users?${RANGE}&${team(small.path)}`,
      `/api/teams/analytics/tokens?${DAYS}&${team(small.path)}`,
      `/api/spend?${RANGE}&${team(small.path)}`,
    ]) {
      // Within the manager's teams, or not: refused either way, by privacy or by scope, naming nobody.
      const r = await api(manager.jar, path);
      expect(r.res.status, path).toBe(403);
      expect(leaks(r.body)).toEqual([]);
    }
    const mineSmall = tree.find((t) => t.path.startsWith(`${manager.team}/`) && t.members > 0 && t.members < K)!;
    // Readiness priced in friction is about the teams' people, not only their repositories: refused too.
    for (const path of [`/api/teams/summary?${RANGE}`, `/api/readiness/friction?${RANGE}`]) {
      const refused = await api(manager.jar, `${path}&${team(mineSmall.path)}`);
      expect(refused.res.status, path).toBe(403);
      expect(JSON.parse(refused.body), path).toMatchObject({
        detail: expect.stringContaining(`PRIVACY_MIN_GROUP=${K}`),
      });
    }

    // Totals: the organization's row is the admin's, and the admin's top-level teams and Unassigned add up to it.
    type Summary = { rows: { team: string; current: { members: number; credits: number; active: number } }[] };
    const theirs = teamsSummarySchema.parse(await read(manager.jar, `/api/teams/summary?${RANGE}`)) as Summary;
    const truth = teamsSummarySchema.parse(await read(admin, `/api/teams/summary?${RANGE}`)) as Summary;
    const org = (s: Summary) => s.rows.find((r) => r.team === '')!.current;
    expect(org(theirs)).toEqual(org(truth));
    const tops = truth.rows.filter((r) => r.team !== '' && !r.team.includes('/'));
    expect(tops.reduce((n, r) => n + r.current.credits, 0)).toBeCloseTo(org(truth).credits, 6);
    expect(tops.reduce((n, r) => n + r.current.members, 0)).toBe(org(truth).members);
    expect(theirs.rows.every((r) => r.team === '' || r.current.members >= K)).toBe(true);
    for (const r of theirs.rows) expect(r.current).toEqual(truth.rows.find((t) => t.team === r.team)!.current);
    expect(theirs.rows.map((r) => r.team)).not.toContain(small.path);
    expect(truth.rows.map((r) => r.team)).toContain(small.path);
    expect(truth.rows.map((r) => r.team)).toContain(UNASSIGNED);

    // Spend by team and the adoption cohorts leave out the groups under k, as the admin's show them.
    const members = new Map(truth.rows.map((r) => [r.team, r.current.members]));
    const spendOf = async (jar: CookieJar) =>
      (await read<{ rows: { team: string; spend: number }[] }>(jar, `/api/spend/teams?${RANGE}`)).rows;
    const spent = await spendOf(manager.jar);
    expect(spent.length).toBeGreaterThan(1);
    for (const r of spent) expect(r.team === '' || members.get(r.team)! >= K, r.team).toBe(true);
    expect((await spendOf(admin)).some((r) => r.team !== '' && members.get(r.team)! < K)).toBe(true);
    const sizes = async (jar: CookieJar) =>
      (await read<{ cohorts: { size: number }[] }>(jar, `/api/cohorts?${team(manager.team)}`)).cohorts.map(
        (c) => c.size,
      );
    expect((await sizes(manager.jar)).every((n) => n >= K)).toBe(true);
    expect((await sizes(admin)).some((n) => n > 0 && n < K)).toBe(true);
  });

  it('lists the seats to a manager by pseudonym, never used included; no list or count of 1 to k−1 people', async () => {
    type Answer = { users: (Row & { team?: string })[]; total: number; seats: Record<string, number> | null };
    // The people the mapping names who never used the agent are secrets too: none of the service's people.
    const never = await read<Answer>(admin, `/api/users?${RANGE}&who=never&limit=1000`);
    const unseen = never.users.flatMap((u) => [u.userId, u.email ?? '']).filter((x) => x !== '');
    const named = (body: string) => [
      ...leaks(body),
      ...unseen.filter((x) => body.toLowerCase().includes(x.toLowerCase())),
    ];
    // The pseudonym of each person the admin is shown (by email when the mapping names them by email alone).
    const pseudonymOf = (u: Row) => pseudonym(PRIVACY_SECRET, u.userId !== '' ? u.userId : `email:${u.email}`);
    // The manager's team, and a managed team with k people or more who never used the agent.
    const within = (t: string, p: string) => t === p || t.startsWith(`${p}/`);
    const unused = tree.find(
      (x) => x.managers.length > 0 && never.users.filter((u) => within(u.team!, x.path)).length >= K,
    );
    expect(unused, 'a managed team with k people who never used the agent').toBeDefined();
    let [shown, withheld] = [0, 0];
    for (const [path, jar] of [
      [manager.team, manager.jar],
      [unused!.path, await signIn(unused!.managers[0]!)],
    ] as const)
      for (const who of ['named', 'named-active', 'idle-7', 'idle-30', 'never']) {
        const q = `${RANGE}&${team(path)}&who=${who}`;
        const truth = await read<Answer>(admin, `/api/users?${q}&limit=1000`);
        const told = await api(jar, `/api/users?${q}&limit=1000`);
        expect(told.res.status, told.body).toBe(200);
        expect(named(told.body), who).toEqual([]);
        const t = JSON.parse(told.body) as Answer;
        const csv = await api(jar, `/api/users.csv?${q}`);
        expect(named(csv.body), who).toEqual([]);
        if (truth.total > 0 && truth.total < K) {
          withheld++;
          expect(t, who).toMatchObject({ users: [], total: 0, withheld: { minGroup: K } });
          expect(csv.res.status, who).toBe(422);
        } else {
          shown++;
          expect(t.users.map((u) => u.userId).sort(), `${path}: ${who}`).toEqual(truth.users.map(pseudonymOf).sort());
          for (const u of t.users) expect(u.email).toBeNull();
          expect(csv.res.status, who).toBe(200);
          for (const u of t.users) expect(csv.body).toContain(u.userId);
        }
        // The seats' counts: the admin's, but those of 1 to k−1 people.
        for (const [k, n] of Object.entries(truth.seats!))
          expect(t.seats![k], `${path}: ${who}: ${k}`).toBe(n > 0 && n < K ? null : n);
      }
    // Both kinds were seen: lists shown, never used among them, and one withheld.
    expect([shown > 0, withheld > 0]).toEqual([true, true]);
  });

  it('says a users filter leaving under k people is withheld, and refuses a search by email', async () => {
    const mine = team(manager.team);
    // A filter (a model tier, a language, a delegation level) few people of the team match: it leaves under k.
    const { facets } = await read<{ facets: Record<string, string[]> }>(admin, `/api/users?${RANGE}&${mine}&limit=1`);
    let withheld: { users: Row[]; total: number; withheld?: { minGroup: number } } | undefined;
    const filters = Object.entries(facets).flatMap(([k, vs]) => vs.map((v) => `${k}=${encodeURIComponent(v)}`));
    for (const f of filters) {
      const q = `${RANGE}&${mine}&${f}`;
      const truth = await read<{ total: number }>(admin, `/api/users?${q}&limit=1`);
      if (truth.total > 0 && truth.total < K) {
        withheld = await read(manager.jar, `/api/users?${q}`);
        const csv = await api(manager.jar, `/api/users.csv?${q}`);
        expect(csv.res.status).toBe(422);
        expect(leaks(csv.body)).toEqual([]);
        break;
      }
    }
    expect(withheld, 'a filter matching fewer than k of the team').toBeDefined();
    expect(withheld).toMatchObject({ users: [], total: 0, withheld: { minGroup: K } });
    const search = await api(manager.jar, `/api/users?${RANGE}&${mine}&q=${encodeURIComponent('@acme')}`);
    expect(search.res.status).toBe(400);
    expect(search.body).toContain('cannot be searched by email');
  });

  it('shows a manager their own page, not another person’s; an admin names people and is audited', async () => {
    expect(manager.userId).not.toBe('');
    const mineAgain = await read<{ userId: string }>(
      manager.jar,
      `/api/users/${encodeURIComponent(manager.userId)}?${RANGE}`,
    );
    expect(mineAgain.userId).toBe(manager.userId);
    const other = everyone.find((u) => u.userId !== manager.userId)!;
    const refused = await api(manager.jar, `/api/users/${encodeURIComponent(other.userId)}?${RANGE}`);
    expect(refused.res.status).toBe(403);
    expect(refused.body).toContain('Privacy mode');
    expect((await api(manager.jar, `/api/spend?${RANGE}&user=${encodeURIComponent(other.userId)}`)).res.status).toBe(
      403,
    );

    lines.length = 0;
    const seen = await read<{ users: Row[] }>(admin, `/api/users?${RANGE}&limit=1000`);
    expect(seen.users.some((u) => u.email?.endsWith('@acme.example'))).toBe(true);
    await read(admin, `/api/users/${encodeURIComponent(other.userId)}?${RANGE}`);
    // The figures endpoint's person and people, as their pages are.
    const figures = `/api/figures?${RANGE}&measure=credits`;
    await read(admin, `${figures}&user=${encodeURIComponent(other.userId)}`);
    await read(admin, `${figures}&by=person`);
    const audit = lines.filter((l) => l.msg === 'audit');
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'view people', who: 'admin@acme.example', path: '/api/users' }),
        expect.objectContaining({ event: 'view user', who: 'admin@acme.example', user: other.userId }),
        expect.objectContaining({ event: 'view user', path: '/api/figures', user: other.userId }),
        expect.objectContaining({ event: 'view people', path: '/api/figures' }),
      ]),
    );
    const theirs = await api(manager.jar, `${figures}&user=${encodeURIComponent(other.userId)}`);
    expect([theirs.res.status, JSON.parse(theirs.body).detail]).toEqual([403, expect.stringMatching(/^Privacy mode/)]);
  });
});
