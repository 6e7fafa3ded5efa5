/**
 * What the team, spend and users answers show each signed-in reader (src/server/auth decides what each
 * may ask for; these answers are shaped to who asks), through the dashboard's HTTP server on the demo
 * organization with the test OpenID provider: a viewer is shown no budget; a manager under
 * RESTRICT_ORG_VIEW=1 the member counts and budgets of their own teams only; and the service's `/users`
 * pages never name, in their cursor, a person the reader may not see.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetsSchema, spendAnswerSchema } from '../../api/spend';
import { teamsAnswerSchema, type TeamView } from '../../api/teams';
import { CookieJar, request, startProvider, walkSignIn, type TestProvider, signInEnv } from '../../test/oidc';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { isWithin } from './tree';

const dir = mkdtempSync(join(tmpdir(), 'roles-'));
let provider: TestProvider;
let base: string;
let server: Server;
let store: StoreDb;
let open: ReturnType<typeof createApp>;
let restricted: ReturnType<typeof createApp>;
/** The app answering (the one with RESTRICT_ORG_VIEW=1 shares the address and the store). */
let current: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = createServer((req, res) => current.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
  const env = {
    DEMO_TODAY: '2026-04-01',
    DEMO_SEED: 'auth',
    DEMO_USERS: '60',
    DATA_DIR: ':memory:',
    ...signInEnv(provider.issuer, base),
    PRICES_FILE: prices,
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  const logger = createLogger(() => {});
  open = current = createApp(config, { store, storeConfig, logger });
  restricted = createApp(readServerConfig({ ...env, RESTRICT_ORG_VIEW: '1' }), { store, storeConfig, logger });
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
const api = (jar: CookieJar, path: string, init?: RequestInit) => request(jar, new URL(path, base), init);
async function read(jar: CookieJar, path: string): Promise<unknown> {
  const r = await api(jar, path);
  expect(r.res.status, `${path}: ${r.body}`).toBe(200);
  return JSON.parse(r.body);
}
const RANGE = 'start=2026-03-01&end=2026-03-31';
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);

describe('what each signed-in reader is shown', () => {
  let admin: CookieJar;
  let tree: TeamView[];
  let manager: { email: string; team: string; teams: string[] };
  let viewer: { email: string; userId: string };
  let other: string;

  beforeAll(async () => {
    admin = await signIn('admin@acme.example');
    const users = (await read(admin, `/api/users?${RANGE}&limit=1000`)) as {
      users: { userId: string; email: string }[];
    };
    tree = flat(teamsAnswerSchema.parse(await read(admin, '/api/teams')).teams);
    const team = tree.find((t) => t.managers.length > 0 && t.members > 2)!;
    const managers = new Set(tree.flatMap((t) => t.managers));
    const theirs = (await read(admin, `/api/users?${RANGE}&limit=1000&team=${encodeURIComponent(team.path)}`)) as {
      users: { userId: string; email: string }[];
    };
    viewer = theirs.users.find((u) => u.email && !managers.has(u.email.toLowerCase()))!;
    expect(users.users.length).toBeGreaterThan(theirs.users.length);
    const me = (await read(await signIn(team.managers[0]!), '/api/me')) as { teams: string[] };
    manager = { email: team.managers[0]!, team: team.path, teams: me.teams };
    // A top-level team none of whose teams is the manager's.
    other = tree.find((t) => !t.path.includes('/') && !me.teams.some((m) => isWithin(m, t.path)))!.path;
    const put = await api(admin, '/api/spend/budgets', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        budgets: [
          { team: '', monthly: 1000 },
          { team: manager.team, monthly: 500 },
          { team: other, monthly: 300 },
        ],
      }),
    });
    expect(put.res.status, put.body).toBe(200);
  }, 60_000);

  it('a viewer is not shown the team tree: it counts each team’s people', async () => {
    const jar = await signIn(viewer.email);
    const r = await api(jar, '/api/teams');
    expect(r.res.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({ status: 403, detail: expect.stringContaining('managers and admins') });
    expect(r.body).not.toContain('"members"');
  });

  it('a viewer is shown the organization’s spend, not its budget', async () => {
    const org = spendAnswerSchema.parse(await read(admin, `/api/spend?${RANGE}`));
    expect(org.month.budget).toMatchObject({ budget: 1000 });
    const jar = await signIn(viewer.email);
    expect(await read(jar, '/api/me')).toMatchObject({ role: 'viewer' });
    const seen = spendAnswerSchema.parse(await read(jar, `/api/spend?${RANGE}`));
    expect(seen.spend).toBe(org.spend);
    expect(seen.month.budget).toBeNull();
    expect((await api(jar, '/api/spend/budgets')).res.status).toBe(403);
  });

  it('a manager is shown every budget and the organization’s; with RESTRICT_ORG_VIEW=1 their teams’ only', async () => {
    const jar = await signIn(manager.email);
    const all = budgetsSchema.parse(await read(jar, '/api/spend/budgets')).budgets.map((b) => b.team);
    expect(all.sort()).toEqual(['', manager.team, other].sort());
    expect(spendAnswerSchema.parse(await read(jar, `/api/spend?${RANGE}`)).month.budget).toMatchObject({
      budget: 1000,
    });
    current = restricted;
    try {
      const budgets = budgetsSchema.parse(await read(jar, '/api/spend/budgets')).budgets;
      expect(budgets).toEqual([{ team: manager.team, monthly: 500 }]);
      const mine = spendAnswerSchema.parse(
        await read(jar, `/api/spend?${RANGE}&team=${encodeURIComponent(manager.team)}`),
      );
      expect(mine.month.budget).toMatchObject({ budget: 500 });
      expect((await api(jar, `/api/spend?${RANGE}`)).res.status).toBe(403);
    } finally {
      current = open;
    }
  });

  it('with RESTRICT_ORG_VIEW=1 a manager’s team tree holds their teams and counts their people only', async () => {
    const jar = await signIn(manager.email);
    const everyone = teamsAnswerSchema.parse(await read(jar, '/api/teams'));
    // Without it: the organization's tree and counts, as an admin sees them.
    const counts = (ts: TeamView[]) => ts.map((t) => [t.path, t.members]);
    expect(counts(flat(everyone.teams))).toEqual(counts(tree));
    current = restricted;
    try {
      const mine = teamsAnswerSchema.parse(await read(jar, '/api/teams'));
      const shown = flat(mine.teams);
      expect(shown.map((t) => t.path)).toContain(manager.team);
      // Each team is one of theirs (a root is the outermost of them), counted as the admin counts it.
      expect(mine.teams.map((t) => t.path).sort()).toEqual([...manager.teams].sort());
      for (const t of shown) {
        expect(
          manager.teams.some((m) => isWithin(t.path, m)),
          t.path,
        ).toBe(true);
        expect(t.members, t.path).toBe(tree.find((x) => x.path === t.path)!.members);
      }
      expect(mine.unassigned).toBe(0);
      expect(mine.users).toBe(mine.teams.reduce((n, t) => n + t.members, 0));
    } finally {
      current = open;
    }
  });

  it('with RESTRICT_ORG_VIEW=1 a manager is told whether the store is filling, not what it holds', async () => {
    expect(await read(admin, '/api/sync')).toHaveProperty('stored');
    const jar = await signIn(manager.email);
    current = restricted;
    try {
      expect(Object.keys((await read(jar, '/api/sync')) as object).sort()).toEqual(['running', 'store']);
    } finally {
      current = open;
    }
  });

  it('the service’s /users pages give a viewer their own row, and cursors that name nobody', async () => {
    const people = ((await read(admin, `/api/users?${RANGE}&limit=1000`)) as { users: { userId: string }[] }).users.map(
      (u) => u.userId,
    );
    const jar = await signIn(viewer.email);
    const rows: string[] = [];
    const cursors: string[] = [];
    for (let cursor = ''; ;) {
      const page = (await read(
        jar,
        `/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-31&limit=5${cursor}`,
      )) as { data: { user_id: string }[]; meta: { has_more: boolean; next_cursor?: string } };
      rows.push(...page.data.map((r) => r.user_id));
      if (!page.meta.has_more) break;
      cursors.push(page.meta.next_cursor!);
      cursor = `&cursor=${encodeURIComponent(page.meta.next_cursor!)}`;
    }
    expect(new Set(rows)).toEqual(new Set([viewer.userId]));
    expect(cursors.length).toBeGreaterThan(5);
    for (const c of cursors) {
      const text = `${c} ${Buffer.from(c, 'base64url').toString('latin1')}`;
      expect(
        people.filter((id) => text.includes(id)),
        c,
      ).toEqual([]);
    }
    // A person's id tried as a cursor is refused, whether that person exists or not.
    const probe = `/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-31&limit=5&cursor=`;
    expect((await api(jar, probe + encodeURIComponent(people[0]!))).res.status).toBe(400);
    expect((await api(jar, `${probe}usr_nobody`)).res.status).toBe(400);
  });
});
