/**
 * Goals per team over HTTP on the demo organization: set, listed with their progress (each week's share of members
 * active, against the people's own `/users` rows), changed, removed and kept on both store engines, each bad goal
 * refused naming its problem; and, with sign-in through the test OpenID provider, who may read and set which goals,
 * and what privacy mode leaves of them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsCheckSchema } from '../../api/alerts';
import { figuresAnswerSchema } from '../../api/figures';
import { goalPath, goalSchema, goalsAnswerSchema, type Goal } from '../../api/goals';
import { usersResponseSchema, type UserRow } from '../../api/schemas';
import { teamsAnswerSchema, type TeamView } from '../../api/teams';
import { addDays, type DayRange } from '../../lib/dates';
import { CookieJar, request, signInEnv, startProvider, walkSignIn, type TestProvider } from '../../test/oidc';
import { STORE_ENGINES } from '../../test/stores';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { parseMapping, type MappingFormat } from '../teams/mapping';
import { isWithin, teamResolver } from '../teams/tree';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

// The latest day is a Tuesday, Mar 31: the latest whole week is that of Mar 23.
const ENV = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'goals', DEMO_USERS: '40', DATA_DIR: ':memory:' };
const LATEST = '2026-03-31';

async function listen(handler: ReturnType<typeof createApp>['handler']) {
  const server = createServer((req, res) => handler(req, res, () => res.end('the page')));
  servers.push(server);
  return new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Every `/users` row of the range, as the service gives them through the dashboard (the oracle's rows). */
async function usersRows(base: string, r: DayRange): Promise<UserRow[]> {
  const rows: UserRow[] = [];
  for (let cursor: string | undefined; ;) {
    const q = new URLSearchParams({ startDate: r.start, endDate: r.end, limit: '100', ...(cursor && { cursor }) });
    const page = usersResponseSchema.parse(await (await fetch(`${base}/api/v1/analytics/users?${q}`)).json());
    rows.push(...page.data);
    if (!page.meta.has_more) return rows;
    cursor = page.meta.next_cursor!;
  }
}

describe.each(STORE_ENGINES)('goals kept in the store ($name)', ({ available, open }) => {
  it.skipIf(!available)(
    'are set with each week’s share of members active, changed, refused naming the problem, removed and kept',
    async () => {
      const opened = await open();
      try {
        const base = await listen(
          createApp(readServerConfig(ENV), { store: opened.store, storeConfig: readStoreConfig(ENV) }).handler,
        );
        const call = (path: string, init: RequestInit = {}) => fetch(base + path, init);
        const tree = flat(teamsAnswerSchema.parse(await (await call('/api/teams')).json()).teams);
        const team = [...tree].sort((a, b) => b.members - a.members)[0]!;
        const set = async (body: unknown) => {
          const r = await call('/api/goals', { method: 'POST', ...json(body) });
          expect(r.status, await r.clone().text()).toBe(201);
          return goalSchema.parse(await r.json());
        };
        const goal = await set({ team: team.path, kind: 'weekly-active', target: 0.9, by: '2026-05-31' });
        expect(goal).toMatchObject({
          team: team.path,
          kind: 'weekly-active',
          target: 0.9,
          by: '2026-05-31',
          startWeek: '2026-03-23',
          editable: true,
          reason: null,
        });
        const p = goal.progress!;
        // From five weeks before the start (the projection's weeks) to the week of May 25, the last ending by May 31.
        expect(p).toMatchObject({ startWeek: '2026-03-23', targetWeek: '2026-05-25', members: team.members });
        expect(p.weeks[0]!.week).toBe('2026-02-16');
        expect(p.weeks.at(-1)!.week).toBe('2026-05-25');
        expect(p.weeks).toHaveLength(15);

        // Each whole week's share: the team's people active that week over its members, from their own rows.
        const { format, text } = (await (await call('/api/teams/mapping')).json()) as {
          format: MappingFormat;
          text: string;
        };
        const parsed = parseMapping(text, format);
        if (!parsed.ok) throw new Error('the demo’s mapping is refused');
        const teamOf = teamResolver(parsed.mapping);
        const rows = await usersRows(base, { start: '2026-02-16', end: '2026-03-29' });
        const known = p.weeks.filter((w) => w.week <= '2026-03-23');
        expect(known).toHaveLength(6);
        for (const w of known) {
          const active = new Set(
            rows
              .filter((r) => r.date >= w.week && r.date <= addDays(w.week, 6))
              .filter((r) => isWithin(teamOf(r.user_id, r.user_email), team.path))
              .map((r) => r.user_id),
          );
          expect(w.actual, w.week).toBeCloseTo(active.size / team.members, 9);
          expect(active.size).toBeGreaterThan(0);
        }
        expect(p.weeks.filter((w) => w.week > '2026-03-23').every((w) => w.actual === null)).toBe(true);
        expect(p.startValue).toBe(known.at(-1)!.actual);
        expect(p.current).toEqual({ week: '2026-03-23', value: known.at(-1)!.actual });
        // The line runs from the start week's value to the target; the projection is fitted on all six weeks.
        expect(p.weeks.find((w) => w.week === '2026-03-16')!.line).toBeNull();
        expect(p.weeks.at(-1)!.line).toBeCloseTo(0.9, 9);
        expect(p.fitted).toBe(6);
        expect(p.projected).not.toBeNull();
        expect(p.status).toBe(p.projected! >= 0.9 ? 'on-course' : 'off-course');

        // The organization's goal: everyone's weeks.
        const org = await set({ team: '', kind: 'weekly-active', target: 0.5, by: '2026-06-30' });
        const everyone = new Set(
          rows.filter((r) => r.date >= '2026-03-23' && r.date <= '2026-03-29').map((r) => r.user_id),
        );
        const orgWeek = org.progress!.weeks.find((w) => w.week === '2026-03-23')!;
        expect(orgWeek.actual).toBeCloseTo(everyone.size / org.progress!.members, 9);

        // Listed, by team, and for a team asked by name.
        const list = async (query = '') => {
          const r = await call(`/api/goals${query}`);
          expect(r.status, await r.clone().text()).toBe(200);
          return goalsAnswerSchema.parse(await r.json());
        };
        const all = await list();
        expect(all.latest).toBe(LATEST);
        expect(all.goals.map((g) => g.team)).toEqual(['', team.path]);
        expect(all.goals[1]).toEqual(goal);
        expect((await list(`?team=${encodeURIComponent(team.path)}`)).goals.map((g) => g.id)).toEqual([goal.id]);

        // Each bad goal refused naming its problem; nothing changed.
        const refused = async (body: unknown, detail: RegExp, status = 400, init: RequestInit = json(body)) => {
          const r = await call('/api/goals', { method: 'POST', ...init });
          expect(r.status, JSON.stringify(body)).toBe(status);
          expect(((await r.json()) as { detail: string }).detail).toMatch(detail);
        };
        const other = tree.find((t) => t.path !== team.path)!.path;
        const ok = { team: other, kind: 'weekly-active', target: 0.8, by: '2026-06-30' };
        await refused({ ...ok, target: 80 }, /a share from 0 to 1, not a percentage: for 80 % send 0\.8/);
        await refused({ ...ok, target: 0 }, /above 0 % and at most 100 %/);
        await refused({ ...ok, target: -0.2 }, /above 0 % and at most 100 %/);
        await refused({ ...ok, target: 101 }, /above 0 % and at most 100 %/);
        await refused({ ...ok, target: '80%' }, /"target" must be a share from 0 to 1 \(80 % is 0\.8\); got "80%"/);
        await refused(
          { ...ok, by: '2026-03-01' },
          /"by" \(2026-03-01\) is in the past: .* give a day from 2026-04-07 on/,
        );
        await refused({ ...ok, by: LATEST }, /is in the past/);
        await refused({ ...ok, by: '2026-04-03' }, /"by" \(2026-04-03\) is too soon: .* whole weeks/);
        await refused({ ...ok, by: '2027-04-02' }, /more than a year after the latest day with data \(2026-03-31\)/);
        await refused({ ...ok, by: '30/06/2026' }, /"by" must be a day \(YYYY-MM-DD\), got "30\/06\/2026"/);
        await refused({ ...ok, team: 'Nobody' }, /No team is called "Nobody" in the mapping in force/);
        await refused({ ...ok, team: undefined }, /"team" must be a team’s path, or ""/);
        await refused({ ...ok, kind: 'heavy' }, /"kind" must be one of weekly-active, moderate-or-above; got "heavy"/);
        await refused({ ...ok, team: team.path }, /has a goal already: change it/, 409);
        await refused(null, /Send the goal as JSON/, 415, { headers: { 'content-type': 'text/plain' }, body: 'x' });
        await refused(null, /not valid JSON/, 400, { headers: { 'content-type': 'application/json' }, body: '{' });
        const unknownTeam = await call('/api/goals?team=Nobody');
        expect(unknownTeam.status).toBe(400);
        expect(((await unknownTeam.json()) as { detail: string }).detail).toMatch(/No team is called "Nobody"/);
        expect((await list()).goals).toHaveLength(2);

        // Changed: set anew, the same team, the new target and date.
        const put = await call(goalPath(goal.id), {
          method: 'PUT',
          ...json({ kind: 'weekly-active', target: 0.05, by: '2026-04-30' }),
        });
        expect(put.status, await put.clone().text()).toBe(200);
        const changed = goalSchema.parse(await put.json());
        expect(changed).toMatchObject({ id: goal.id, team: team.path, target: 0.05, by: '2026-04-30' });
        // Apr 30 is a Thursday: the goal is read in the last whole week ending by then.
        expect(changed.progress!.targetWeek).toBe('2026-04-20');
        // A share of active people at Moderate or above: each week's bands over the four weeks to its Sunday, as the
        // figures give them (none for a week of fewer than 8 people active in its four weeks).
        const banded = await call(goalPath(org.id), {
          method: 'PUT',
          ...json({ kind: 'moderate-or-above', target: 0.6, by: '2026-05-31' }),
        });
        expect(banded.status, await banded.clone().text()).toBe(200);
        const b = goalSchema.parse(await banded.json());
        expect(b).toMatchObject({ kind: 'moderate-or-above', startWeek: '2026-03-23' });
        const q = new URLSearchParams({ start: '2026-02-16', end: '2026-03-29', by: 'week', compare: 'none' });
        for (const m of ['intensityHeavy', 'intensityModerate', 'intensityActive']) q.append('measure', m);
        const bands = figuresAnswerSchema.parse(await (await call(`/api/figures?${q}`)).json()).rows;
        expect(bands.map((r) => r.key)).toEqual(b.progress!.weeks.slice(0, 6).map((w) => w.week));
        for (const r of bands) {
          const { intensityHeavy: h, intensityModerate: m, intensityActive: a } = r.current;
          const got = b.progress!.weeks.find((w) => w.week === r.key)!.actual;
          if (h == null || m == null) expect(got, r.key).toBeNull();
          else expect(got, r.key).toBeCloseTo((h + m) / a!, 9);
        }
        expect(b.progress!.weeks.filter((w) => w.actual !== null).length).toBeGreaterThan(2);
        expect(b.progress!.status).toMatch(/^(on|off)-course$/);
        const badPut = await call(goalPath(goal.id), { method: 'PUT', ...json({ kind: 'weekly-active', target: 2 }) });
        expect(badPut.status).toBe(400);
        expect((await call(goalPath('no-such-goal'), { method: 'PUT', ...json(ok) })).status).toBe(404);

        // From another site: refused before any route.
        const cross = await call('/api/goals', {
          method: 'POST',
          ...json(ok, { origin: 'https://elsewhere.example' }),
        });
        expect(cross.status).toBe(403);

        // Removed.
        expect((await call(goalPath(org.id), { method: 'DELETE' })).status).toBe(200);
        expect((await call(goalPath(org.id), { method: 'DELETE' })).status).toBe(404);

        // Kept: a second server on the same store lists them.
        const second = await listen(
          createApp(readServerConfig(ENV), { store: opened.store, storeConfig: readStoreConfig(ENV) }).handler,
        );
        const kept = goalsAnswerSchema.parse(await (await fetch(`${second}/api/goals`)).json()).goals;
        expect(kept.map((g) => [g.team, g.target, g.by])).toEqual([[team.path, 0.05, '2026-04-30']]);
      } finally {
        await opened.drop();
      }
    },
    120_000,
  );
});

describe.each(STORE_ENGINES)('the goal-off-course alert ($name)', ({ available, open }) => {
  it.skipIf(!available)('opens once when a goal’s projection misses it, and resolves back on course', async () => {
    const opened = await open();
    try {
      const base = await listen(
        createApp(readServerConfig(ENV), { store: opened.store, storeConfig: readStoreConfig(ENV) }).handler,
      );
      const call = async (path: string, method = 'GET', body?: unknown) => {
        const r = await fetch(base + path, { method, ...(body !== undefined && json(body)) });
        expect(r.status, await r.clone().text()).toBeLessThan(300);
        return r.json();
      };
      const tree = flat(teamsAnswerSchema.parse(await call('/api/teams')).teams);
      const team = [...tree].sort((a, b) => b.members - a.members)[0]!.path;
      // Every member active every week by the end of May: beyond what the demo's weeks project.
      const goal = goalSchema.parse(
        await call('/api/goals', 'POST', { team, kind: 'weekly-active', target: 1, by: '2026-05-31' }),
      );
      expect(goal.progress!.status).toBe('off-course');
      await call('/api/alert-rules', 'POST', { kind: 'goal-off-course', scope: team, threshold: null, enabled: true });
      const check = async () => alertsCheckSchema.parse(await call('/api/alerts/check', 'POST'));
      const first = await check();
      expect(first.opened.map((a) => [a.kind, a.scope, a.link])).toEqual([
        ['goal-off-course', team, `/teams/${team.split('/').map(encodeURIComponent).join('/')}`],
      ]);
      expect(first.opened[0]!.summary).toMatch(
        new RegExp(`^${team} is off course for its goal of 100\u00a0% of members weekly active by May 31, 2026: `),
      );
      // Checked again: still off course, nothing opens twice.
      expect(await check()).toMatchObject({ opened: [], resolved: [] });
      // A goal the weeks reach: back on course, the alert resolves.
      await call(goalPath(goal.id), 'PUT', { kind: 'weekly-active', target: 0.01, by: '2026-05-31' });
      const back = await check();
      expect(back.opened).toEqual([]);
      expect(back.resolved.map((a) => a.kind)).toEqual(['goal-off-course']);
    } finally {
      await opened.drop();
    }
  });
});

/** A signed-in dashboard on the demo, with privacy mode when `privacy` is given. */
function signedInDashboard(seed: string, privacy?: Record<string, string>) {
  const d = {} as {
    base: string;
    provider: TestProvider;
    store: StoreDb;
    tree: TeamView[];
    signIn: (email: string) => Promise<CookieJar>;
    api: (jar: CookieJar, path: string, init?: RequestInit) => ReturnType<typeof request>;
  };
  beforeAll(async () => {
    const server = createServer((req, res) => handler(req, res, () => res.end('the page')));
    servers.push(server);
    let handler: ReturnType<typeof createApp>['handler'] = () => undefined;
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    d.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    d.provider = await startProvider(`${d.base}/auth/callback`);
    const env = { ...ENV, DEMO_SEED: seed, DEMO_USERS: '60', ...signInEnv(d.provider.issuer, d.base), ...privacy };
    d.store = (await openAppStore(readServerConfig(env), readStoreConfig(env)))!;
    handler = createApp(readServerConfig(env), {
      store: d.store,
      storeConfig: readStoreConfig(env),
      logger: createLogger(() => {}),
    }).handler;
    d.signIn = async (email) => {
      const jar = new CookieJar();
      await walkSignIn(jar, new URL('/auth/login', d.base), email);
      return jar;
    };
    d.api = (jar, path, init) => request(jar, new URL(path, d.base), init);
    const admin = await d.signIn('admin@acme.example');
    d.tree = flat(teamsAnswerSchema.parse(JSON.parse((await d.api(admin, '/api/teams')).body)).teams);
  }, 60_000);
  afterAll(async () => {
    await d.provider.close();
    await d.store.close();
  });
  return d;
}

const GOAL = { kind: 'weekly-active', target: 0.8, by: '2026-06-30' };

describe('who may read and set which goals, signed in', () => {
  const d = signedInDashboard('goals-auth');

  it('a manager sets their teams’ goals only; a viewer none; an admin any; each read as its figures', async () => {
    const admin = await d.signIn('admin@acme.example');
    const team = d.tree.find((t) => t.managers.length > 0 && t.path.includes('/'))!;
    const m = await d.signIn(team.managers[0]!);
    const mine = (JSON.parse((await d.api(m, '/api/me')).body) as { teams: string[] }).teams[0]!;
    const other = d.tree.find((t) => !t.path.includes('/') && !isWithin(mine, t.path) && !isWithin(t.path, mine))!.path;
    const post = (jar: CookieJar, team: string) =>
      d.api(jar, '/api/goals', { method: 'POST', ...json({ team, ...GOAL }) });
    const detail = (r: { body: string }) => (JSON.parse(r.body) as { detail: string }).detail;

    const own = await post(m, mine);
    expect(own.res.status, own.body).toBe(201);
    expect(goalSchema.parse(JSON.parse(own.body))).toMatchObject({
      author: team.managers[0]!.toLowerCase(),
      editable: true,
    });
    const orgByManager = await post(m, '');
    expect(orgByManager.res.status).toBe(403);
    expect(detail(orgByManager)).toMatch(/organization’s goal is set by admins/);
    const elsewhere = await post(m, other);
    expect(elsewhere.res.status).toBe(403);
    expect(detail(elsewhere)).toMatch(/is not one of them/);

    const orgGoal = goalSchema.parse(JSON.parse((await post(admin, '')).body));
    const otherGoal = goalSchema.parse(JSON.parse((await post(admin, other)).body));
    // The manager may not change the organization's goal, nor (unseen) another team's.
    const put = await d.api(m, goalPath(orgGoal.id), { method: 'PUT', ...json(GOAL) });
    expect(put.res.status).toBe(403);
    expect((await d.api(m, goalPath(otherGoal.id), { method: 'DELETE' })).res.status).toBe(404);

    // What each reads: the manager their team's and the organization's (read-only); a viewer the organization's.
    const read = async (jar: CookieJar, q = '') => {
      const r = await d.api(jar, `/api/goals${q}`);
      expect(r.res.status, r.body).toBe(200);
      return goalsAnswerSchema.parse(JSON.parse(r.body)).goals;
    };
    expect((await read(m)).map((g) => [g.team, g.editable, g.progress !== null])).toEqual([
      ['', false, true],
      [mine, true, true],
    ]);
    expect((await d.api(m, `/api/goals?team=${encodeURIComponent(other)}`)).res.status).toBe(403);
    const viewer = await d.signIn(`someone-${Math.random().toString(36).slice(2)}@acme.example`);
    expect((await read(viewer)).map((g) => [g.team, g.editable, g.author])).toEqual([['', false, null]]);
    expect((await d.api(viewer, `/api/goals?team=${encodeURIComponent(mine)}`)).res.status).toBe(403);
    const byViewer = await post(viewer, '');
    expect(byViewer.res.status).toBe(403);
    expect(detail(byViewer)).toMatch(/Goals are set by managers, for their teams, and by admins/);
    // The admin reads and changes every goal.
    expect((await read(admin)).map((g) => g.team).sort()).toEqual(['', mine, other].sort());
    const ownId = (JSON.parse(own.body) as Goal).id;
    expect((await d.api(admin, goalPath(ownId), { method: 'DELETE' })).res.status).toBe(200);
  });
});

describe('goals in privacy mode', () => {
  // More people than any team has: no team is shown on its own, the organization is.
  const d = signedInDashboard('goals-privacy', {
    PRIVACY_MIN_GROUP: '1000',
    PRIVACY_SECRET: 'goals-privacy-secret-of-at-least-32-characters',
  });

  it('gives a manager no progress of a team the mode does not show, and the organization’s exact', async () => {
    const admin = await d.signIn('admin@acme.example');
    const team = d.tree.find((t) => t.managers.length > 0)!;
    const m = await d.signIn(team.managers[0]!);
    // The manager still sets their team's goal: its target and date describe no one.
    const set = await d.api(m, '/api/goals', { method: 'POST', ...json({ team: team.path, ...GOAL }) });
    expect(set.res.status, set.body).toBe(201);
    const own = goalSchema.parse(JSON.parse(set.body));
    expect(own.progress).toBeNull();
    expect(own.reason).toMatch(/^Privacy mode \(PRIVACY_MIN_GROUP=1000\)/);
    expect((await d.api(admin, '/api/goals', { method: 'POST', ...json({ team: '', ...GOAL }) })).res.status).toBe(201);

    const asked = await d.api(m, `/api/goals?team=${encodeURIComponent(team.path)}`);
    expect(asked.res.status).toBe(403);
    expect(asked.body).toMatch(/Privacy mode \(PRIVACY_MIN_GROUP=1000\)/);
    expect(asked.body).not.toMatch(/"weeks"/);
    const listed = goalsAnswerSchema.parse(JSON.parse((await d.api(m, '/api/goals')).body)).goals;
    expect(listed.map((g) => [g.team, g.progress === null])).toEqual([
      ['', false],
      [team.path, true],
    ]);
    // The organization's figures are exact, as an admin reads them; an admin is not subject to the mode.
    const asAdmin = goalsAnswerSchema.parse(JSON.parse((await d.api(admin, '/api/goals')).body)).goals;
    expect(listed[0]!.progress).toEqual(asAdmin[0]!.progress);
    expect(asAdmin[1]!.progress).not.toBeNull();
  });
});
