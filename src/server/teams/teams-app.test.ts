/**
 * The teams endpoints over HTTP, on the demo organization and its team tree: a team's answers are
 * the service's rules applied to its people, so the top-level teams and Unassigned add up to the
 * organization's own answers (the service's, through the documented paths) for every sliceable
 * figure, and everyone selected at once gives the organization's averages and percentiles too. The
 * users table and CSV take `team=`; the mapping is edited and refused as the issue asks, on both
 * store engines.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  TEAM_ANALYTICS_SCHEMAS,
  teamsAnswerSchema,
  teamsSummarySchema,
  topUsersSchema,
  type TeamView,
} from '../../api/teams';
import type { UserRow } from '../../api/schemas';
import { putUsersDay } from '../../test/store-days';
import { STORE_ENGINES } from '../../test/stores';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';

const servers: Server[] = [];
const stores: StoreDb[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  await Promise.all(stores.map((s) => s.close()));
});

const ENV = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'teams-app', DEMO_USERS: '150', DATA_DIR: ':memory:' };

async function serve(app: ReturnType<typeof createApp>) {
  const s = createServer((req, res) => app.handler(req, res, () => res.end()));
  servers.push(s);
  return new Promise<string>((ok) =>
    s.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
}

async function start(env: Record<string, string> = {}, store?: StoreDb) {
  const full = { ...ENV, ...env };
  const config = readServerConfig(full);
  const storeConfig = readStoreConfig(full);
  const s = store ?? (await openAppStore(config, storeConfig))!;
  if (!store) stores.push(s);
  const app = createApp(config, { store: s, storeConfig });
  return { base: await serve(app), app, store: s };
}

async function get(base: string, path: string) {
  const r = await fetch(base + path);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> & { data?: Record<string, unknown>[] } };
}

const q = (teams: readonly string[]) => teams.map((t) => `team=${encodeURIComponent(t)}`).join('&');
const RANGE = 'startDate=2026-03-01&endDate=2026-03-31';

/** The numbers of each day row the team answers keep (the sliceable ones). */
const SUMMED = {
  tokens: ['billable_tokens', 'input_tokens', 'output_tokens'],
  tools: ['tool_calls', 'mcp_users_with_mcp', 'skills_invocations', 'slash_commands_invocations', 'hooks_invocations'],
  activity: [
    'daily_active_users',
    'weekly_active_users',
    'monthly_active_users',
    'sessions',
    'messages',
    'user_messages',
  ],
  productivity: ['files_created', 'files_edited', 'git_commits', 'git_prs_created'],
} as const;
const AVERAGED = {
  tools: [
    'autonomy_ratio_avg',
    'autonomy_ratio_p50',
    'autonomy_ratio_p90',
    'tool_calls_per_session_avg',
    'user_turns_per_session_avg',
  ],
} as const;

describe('team answers on the demo organization', async () => {
  const { base, store } = await start();
  // The store learns the users as it walks them: Unassigned counts the known users no team names.
  expect((await get(base, '/api/users?start=2026-03-01&end=2026-03-31')).status).toBe(200);
  const teams = teamsAnswerSchema.parse((await get(base, '/api/teams')).body);
  const tops = [...teams.teams.map((t) => t.path), 'Unassigned'];

  it('serves the demo tree, with every known user in a team or Unassigned', () => {
    expect(teams.source).toBe('demo');
    expect(teams.teams.length).toBeGreaterThanOrEqual(3);
    const depth = (t: TeamView): number => 1 + Math.max(0, ...t.children.map(depth));
    expect(Math.max(...teams.teams.map(depth))).toBeGreaterThanOrEqual(3);
    expect(teams.unassigned).toBeGreaterThan(0);
  });

  for (const endpoint of Object.keys(SUMMED) as (keyof typeof SUMMED)[]) {
    it(`${endpoint}: the top-level teams and Unassigned add up to the organization, day by day`, async () => {
      const org = (await get(base, `/api/v1/analytics/${endpoint}?${RANGE}`)).body.data!;
      const parts = await Promise.all(
        tops.map((t) => get(base, `/api/teams/analytics/${endpoint}?${RANGE}&${q([t])}`)),
      );
      for (const p of parts) {
        expect(p.status).toBe(200);
        TEAM_ANALYTICS_SCHEMAS[endpoint][''].parse(p.body);
      }
      expect(org).toHaveLength(31);
      org.forEach((day, i) => {
        for (const k of SUMMED[endpoint]) {
          const sum = parts.reduce((s, p) => s + (p.body.data![i]![k] as number), 0);
          expect({ day: day.date, k, sum }).toEqual({ day: day.date, k, sum: day[k] });
        }
      });
      const everyone = (await get(base, `/api/teams/analytics/${endpoint}?${RANGE}&${q(tops)}`)).body;
      const averaged: readonly string[] = endpoint === 'tools' ? AVERAGED.tools : [];
      org.forEach((day, i) => {
        for (const k of [...SUMMED[endpoint], ...averaged]) expect(everyone.data![i]![k]).toBe(day[k]);
      });
      const orgOnly = (everyone.meta as { org_only: string[] }).org_only;
      for (const k of orgOnly) expect(everyone.data![0]).not.toHaveProperty(k);
    });
  }

  it('credits per model and the top users of a team are the organization’s, restricted to its people', async () => {
    const team = tops[0]!;
    const org = (await get(base, `/api/v1/analytics/tokens?${RANGE}`)).body.data! as {
      by_user: {
        user_id: string;
        billable_tokens: number;
        by_model: { model_id: string; billable_tokens: number }[];
      }[];
    }[];
    const mine = (await get(base, `/api/teams/analytics/tokens?${RANGE}&${q([team])}`)).body.data!;
    // The per-user split is left out of a team's days: it grows with the team.
    expect(mine[0]).not.toHaveProperty('by_user');
    const users = (await get(base, `/api/users?start=2026-03-01&end=2026-03-31&limit=1000&${q([team])}`)).body as {
      users: { userId: string }[];
    };
    const members = new Set(users.users.map((u) => u.userId));
    expect(members.size).toBeGreaterThan(0);
    const credits = new Map<string, number>();
    const models = new Map<string, Map<string, number>>();
    for (const day of org)
      for (const u of day.by_user.filter((x) => members.has(x.user_id))) {
        credits.set(u.user_id, (credits.get(u.user_id) ?? 0) + u.billable_tokens);
        const m = models.get(u.user_id) ?? new Map<string, number>();
        for (const b of u.by_model) m.set(b.model_id, (m.get(b.model_id) ?? 0) + b.billable_tokens);
        models.set(u.user_id, m);
      }
    const total = [...credits.values()].reduce((a, b) => a + b, 0);
    const expected = [...credits.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 5)
      .map(([userId, c]) => ({
        userId,
        credits: c,
        share: c / total,
        models: [...models.get(userId)!.entries()]
          .map(([model, credits]) => ({ model, credits }))
          .sort((a, b) => b.credits - a.credits),
      }));
    const top = topUsersSchema.parse(
      (await get(base, `/api/teams/top-users?start=2026-03-01&end=2026-03-31&limit=5&${q([team])}`)).body,
    );
    expect(top.total).toBe(total);
    expect(top.users.map(({ email: _, ...u }) => u)).toEqual(expected);
    const everyone = topUsersSchema.parse(
      (await get(base, '/api/teams/top-users?start=2026-03-01&end=2026-03-31')).body,
    );
    expect(everyone.users).toHaveLength(25);
    expect((await get(base, '/api/teams/top-users?limit=500')).status).toBe(400);

    // With no team: the organization's own days, as the service gave them, less the per-user split.
    const lean = (await get(base, `/api/teams/analytics/tokens?${RANGE}`)).body.data!;
    expect(lean).toEqual(org.map(({ by_user: _, ...d }) => d));

    const byModel = (await get(base, `/api/teams/analytics/tokens?${RANGE}&group_by=model&${q(tops)}`)).body.data!;
    const orgByModel = (await get(base, `/api/v1/analytics/tokens?${RANGE}&group_by=model`)).body.data!;
    const key = (r: Record<string, unknown>) => `${r.date as string} ${r.group_key as string}`;
    const sorted = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sorted(byModel)).toEqual(sorted(orgByModel));
  });

  it('the summary reconciles: top-level teams and Unassigned add up to the organization row', async () => {
    const s = teamsSummarySchema.parse((await get(base, '/api/teams/summary?start=2026-03-01&end=2026-03-31')).body);
    const org = s.rows[0]!;
    expect(org.team).toBe('');
    const top = s.rows.filter((r) => r.depth === 1);
    expect(top.map((r) => r.team)).toEqual(tops);
    for (const k of ['members', 'active', 'credits', 'toolCalls', 'sessions', 'commits', 'prs'] as const) {
      expect(top.reduce((x, r) => x + r.current[k], 0)).toBe(org.current[k]);
      expect(top.reduce((x, r) => x + r.previous![k], 0)).toBe(org.previous![k]);
    }
    // The organization's credits are the service's.
    const tokens = (await get(base, `/api/v1/analytics/tokens?${RANGE}`)).body.data!;
    expect(org.current.credits).toBe(tokens.reduce((x, d) => x + (d.billable_tokens as number), 0));
    expect(org.trend).toEqual(tokens.map((d) => d.billable_tokens));
    // A parent is the sum of its sub-teams and its own people: never less than any sub-team.
    for (const r of s.rows.filter((x) => x.parent)) {
      const parent = s.rows.find((x) => x.team === r.parent)!;
      expect(parent.current.credits).toBeGreaterThanOrEqual(r.current.credits);
      expect(parent.current.members).toBeGreaterThanOrEqual(r.current.members);
    }
    // Members are people, each once: never fewer than the team's active users.
    for (const r of s.rows) expect(r.current.members).toBeGreaterThanOrEqual(r.current.active);
    // Active users in the range are the users table's, team by team.
    const first = top[0]!;
    const users = (await get(base, `/api/users?start=2026-03-01&end=2026-03-31&${q([first.team])}`)).body;
    expect(users.activeUsers).toBe(first.current.active);
    expect(first.current.adoption).toBeCloseTo(first.current.active / first.current.members, 10);
  });

  it('keeps the summary while its data hold, and answers anew once a day is stored again (here or by another replica)', async () => {
    const path = '/api/teams/summary?start=2026-03-01&end=2026-03-31';
    const before = teamsSummarySchema.parse((await get(base, path)).body);
    expect(teamsSummarySchema.parse((await get(base, path)).body)).toEqual(before);
    // The day written again with nobody's tool calls, as a sync (this process's or another's) writes it.
    const day = '2026-03-10';
    const rows = await store.db.selectFrom('user_day').select('row').where('day', '=', day).execute();
    expect(rows.length).toBeGreaterThan(0);
    const emptied = rows.map((r) => ({ ...(JSON.parse(r.row) as UserRow), tool_calls: 0 }));
    const calls = rows.reduce((n, r) => n + ((JSON.parse(r.row) as UserRow).tool_calls ?? 0), 0);
    expect(calls).toBeGreaterThan(0);
    await putUsersDay(store, day, emptied, new Date().toISOString());
    const after = teamsSummarySchema.parse((await get(base, path)).body);
    expect(after.rows[0]!.current.toolCalls).toBe(before.rows[0]!.current.toolCalls - calls);
  });

  it('the users table, its CSV and a person’s page name each person’s team and its managers', async () => {
    const range = 'start=2026-03-01&end=2026-03-31';
    const all = (await get(base, `/api/users?${range}&limit=1000`)).body as unknown as {
      users: { userId: string; team?: string; managers?: string[] }[];
    };
    const known = new Set([
      ...teams.teams.flatMap(function walk(t): string[] {
        return [t.path, ...t.children.flatMap(walk)];
      }),
      'Unassigned',
    ]);
    expect(all.users.length).toBeGreaterThan(0);
    for (const u of all.users) expect(known.has(u.team!), u.team).toBe(true);
    const managed = all.users.find((u) => (u.managers ?? []).length > 0)!;
    expect(managed.managers!.every((m) => m.includes('@'))).toBe(true);
    // The team filter keeps the people whose team is within the one asked for.
    const first = tops[0]!;
    const theirs = (await get(base, `/api/users?${range}&limit=1000&${q([first])}`)).body as unknown as typeof all;
    expect(theirs.users.length).toBeGreaterThan(0);
    for (const u of theirs.users) expect(u.team === first || u.team!.startsWith(`${first}/`)).toBe(true);
    // Sorted by team, the column the table shows.
    const sorted = (await get(base, `/api/users?${range}&limit=1000&sort=team&dir=asc`)).body as unknown as typeof all;
    const names = sorted.users.map((u) => u.team!);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y, 'en-US')));
    // The CSV carries both, the managers separated by "; ".
    const csv = await (await fetch(`${base}/api/users.csv?${range}`)).text();
    const [header, ...lines] = csv.trim().split('\n');
    const cols = header!.split(',');
    expect(cols.slice(0, 4)).toEqual(['user_id', 'user_email', 'team', 'managers']);
    const line = lines.find((l) => l.startsWith(`${managed.userId},`))!;
    expect(line).toContain(`,${managed.team},${managed.managers!.join('; ')},`);
    // A person's page says the same.
    const page = (await get(base, `/api/users/${encodeURIComponent(managed.userId)}?${range}`)).body as {
      user: { team?: string; managers?: string[] };
    };
    expect([page.user.team, page.user.managers]).toEqual([managed.team, managed.managers]);
  });

  it('the users CSV of a team has its people only, and its credits add up to the team’s', async () => {
    const s = teamsSummarySchema.parse((await get(base, '/api/teams/summary?start=2026-03-01&end=2026-03-31')).body);
    const team = s.rows.find((r) => r.depth === 2)!;
    const r = await fetch(`${base}/api/users.csv?start=2026-03-01&end=2026-03-31&${q([team.team])}`);
    expect(r.status).toBe(200);
    const lines = (await r.text()).trim().split('\n');
    const header = lines[0]!.split(',');
    const credits = header.indexOf('billable_tokens');
    expect(credits).toBeGreaterThanOrEqual(0);
    expect(lines.length - 1).toBe(team.current.active);
    expect(lines.slice(1).reduce((x, l) => x + Number(l.split(',')[credits]), 0)).toBe(team.current.credits);
  });

  it('refuses what it cannot answer, naming why', async () => {
    const tools = await get(base, `/api/teams/analytics/tools?${RANGE}&group_by=tool_name&${q([tops[0]!])}`);
    expect(tools.status).toBe(400);
    expect(tools.body.detail).toMatch(/whole organization only/);
    const unknown = await get(base, `/api/teams/analytics/activity?${RANGE}&team=Nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/No team is called "Nope"/);
    const none = await get(base, `/api/teams/analytics/activity?${RANGE}`);
    expect(none.status).toBe(400);
    expect(none.body.detail).toMatch(/at least one team/);
    const typo = await get(base, `/api/teams/analytics/activity?${RANGE}&${q([tops[0]!])}&strat=1`);
    expect(typo.status).toBe(400);
    expect(typo.body.detail).toMatch(/Unknown parameter "strat"/);
    const today = await get(base, `/api/teams/summary?start=2026-03-01&end=2026-04-01`);
    expect(today.status).toBe(400);
    expect(today.body.detail).toMatch(/after the latest day/);
    const teamed = teamsSummarySchema.parse(
      (await get(base, `/api/teams/summary?start=2026-03-01&end=2026-03-31&${q([tops[0]!])}`)).body,
    );
    // With team=: the organization's row and that team's subtree only.
    expect(teamed.rows[0]!.team).toBe('');
    expect(teamed.rows.slice(1).every((r) => r.team === tops[0] || r.team.startsWith(`${tops[0]}/`))).toBe(true);
    const users = await get(base, `/api/users?start=2026-03-01&end=2026-03-31&team=Nope`);
    expect(users.status).toBe(400);
    expect(users.body.detail).toMatch(/No team is called "Nope"/);
  });
});

/** The server's one origin check's refusal (src/server/app.ts, core/hosts.ts), before any route. */
const FOREIGN = 'Changes are accepted only from the dashboard’s own pages.';

describe('who may change the mapping without sign-in', () => {
  it('another site’s page is refused by the origin check; the dashboard’s own names are taken whatever the Host', async () => {
    const { base } = await start({ DEMO_USERS: '20' });
    const localhost = `http://localhost:${new URL(base).port}`;
    const put = (headers: Record<string, string>) =>
      fetch(`${base}/api/teams/mapping`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.com,Data\n' }),
      });
    const detail = async (r: Response) => ((await r.json()) as { detail: string }).detail;
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      { origin: localhost, 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[]) {
      const r = await put(headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(await detail(r)).toBe(FOREIGN);
    }
    // The dashboard's page at localhost, its request arriving with another Host (127.0.0.1 here; a proxy that
    // sets its own): the Origin is one of the server's names, and the Host is not what tells.
    const ours = await put({ origin: localhost, 'sec-fetch-site': 'same-origin' });
    expect(ours.status, await ours.clone().text()).toBe(200);
    expect(teamsAnswerSchema.parse(await ours.json()).source).toBe('store');
    // Without sign-in, only from this machine, not through a proxy.
    const proxied = await put({ origin: base, 'x-forwarded-for': '203.0.113.7' });
    expect(proxied.status).toBe(403);
    expect(await detail(proxied)).toMatch(/only from the machine the dashboard runs on/);
  });
});

const engines = STORE_ENGINES;
describe.each(engines)('the mapping edited on the screen, kept in the store ($name)', ({ available, open }) => {
  it.skipIf(!available)(
    'is refused naming the line (the mapping in force stays), then saved, kept and removed',
    async () => {
      const opened = await open();
      try {
        const { base } = await start({ DEMO_USERS: '40' }, opened.store);
        const put = (body: unknown, type = 'application/json') =>
          fetch(`${base}/api/teams/mapping`, {
            method: 'PUT',
            headers: { 'content-type': type },
            body: JSON.stringify(body),
          });
        const before = teamsAnswerSchema.parse((await get(base, '/api/teams')).body);
        expect(before.source).toBe('demo');

        const bad = await put({ format: 'csv', text: 'email,team,colour\nann@acme.com,Data,red\n' });
        expect(bad.status).toBe(400);
        const refusal = (await bad.json()) as { detail: string; errors: { line: number | null; message: string }[] };
        expect(refusal.detail).toMatch(/the mapping in force is unchanged/);
        expect(refusal.errors[0]!.message).toMatch(/colour/);
        const dup = await put({ format: 'csv', text: 'email,team\nann@acme.com,Data\nann@acme.com,Sales\n' });
        expect(((await dup.json()) as { errors: { line: number }[] }).errors[0]!.line).toBe(3);
        const still = teamsAnswerSchema.parse((await get(base, '/api/teams')).body);
        expect(still.source).toBe('demo');
        expect(still.teams).toEqual(before.teams);
        expect(still.refused!.errors[0]).toMatch(/^line 3:/);

        expect((await put({ format: 'csv', text: 'email,team\n' }, 'text/plain')).status).toBe(415);
        // Another site's page cannot change it, nor remove it: the server's one origin check refuses it.
        const forged = await fetch(`${base}/api/teams/mapping`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
          body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.com,Data\n' }),
        });
        expect(forged.status).toBe(403);
        expect(((await forged.json()) as { detail: string }).detail).toBe(FOREIGN);
        const forgedDelete = await fetch(`${base}/api/teams/mapping`, {
          method: 'DELETE',
          headers: { 'sec-fetch-site': 'cross-site' },
        });
        expect(forgedDelete.status).toBe(403);
        expect(((await forgedDelete.json()) as { detail: string }).detail).toBe(FOREIGN);
        expect(teamsAnswerSchema.parse((await get(base, '/api/teams')).body).source).toBe('demo');

        const users = (await get(base, '/api/users?start=2026-03-01&end=2026-03-31&limit=3&sort=user&dir=asc'))
          .body as {
          users: { userId: string; email: string | null }[];
        };
        const [a, b, c] = users.users;
        const text = `user_id,team,manager\n${a!.userId},Eng/Platform,lead@acme.com\n${b!.userId},Eng/Apps,\n${c!.userId},Sales,\n`;
        const ok = await put({ format: 'csv', text, name: 'org.csv' });
        expect(ok.status).toBe(200);
        const saved = teamsAnswerSchema.parse(await ok.json());
        expect(saved).toMatchObject({ source: 'store', name: 'org.csv', editable: true, refused: null });
        expect(saved.teams.map((t) => [t.path, t.members])).toEqual([
          ['Eng', 2],
          ['Sales', 1],
        ]);
        expect(saved.teams[0]!.children.find((t) => t.path === 'Eng/Platform')!.managers).toEqual(['lead@acme.com']);
        const mine = await get(base, `/api/users?start=2026-03-01&end=2026-03-31&team=Eng`);
        expect((mine.body.users as { userId: string }[]).map((u) => u.userId).sort()).toEqual(
          [a!.userId, b!.userId].filter((id) => (users.users.find((u) => u.userId === id) ? true : false)).sort(),
        );

        // Another server on the same store (a restart, or a second replica) finds the mapping.
        const again = await start({ DEMO_USERS: '40' }, opened.store);
        const seen = teamsAnswerSchema.parse((await get(again.base, '/api/teams')).body);
        expect(seen.source).toBe('store');
        expect((await get(again.base, '/api/teams/mapping')).body).toEqual({ source: 'store', format: 'csv', text });

        const removed = await fetch(`${base}/api/teams/mapping`, { method: 'DELETE' });
        expect(teamsAnswerSchema.parse(await removed.json()).source).toBe('demo');
      } finally {
        await opened.drop();
      }
    },
  );

  it.skipIf(!available)(
    'refuses by line a team 100,000 levels deep and a NUL in a team, a manager or an email; drops one from the name',
    async () => {
      const opened = await open();
      try {
        const { base } = await start({ DEMO_USERS: '40' }, opened.store);
        const put = (body: unknown) =>
          fetch(`${base}/api/teams/mapping`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const deep = Array.from({ length: 100_000 }, (_, i) => `t${i}`).join('/');
        const cases: [string, number, RegExp][] = [
          [`email,team\nann@acme.com,${deep}\n`, 2, /^line 2: team "t0\/t1\/.*…" has 100,000 levels; the limit is 20$/],
          [
            'email,team,manager\nann@acme.com,Data,b\u0000o@acme.com\n',
            2,
            /^line 2: manager "b\\u0000o@acme\.com" contains/,
          ],
          [
            'email,team\nann@acme.com,Data\nc\u0000y@acme.com,Data\n',
            3,
            /^line 3: email "c\\u0000y@acme\.com" contains/,
          ],
          ['email,team\nann@acme.com,Da\u0000ta\n', 2, /^line 2: team "Da\\u0000ta" contains/],
        ];
        for (const [text, line, message] of cases) {
          const r = await put({ format: 'csv', text });
          expect(r.status, text.slice(0, 60)).toBe(400);
          const body = (await r.json()) as { errors: { line: number | null; message: string }[] };
          expect(body.errors).toEqual([{ line, message: expect.stringMatching(message) }]);
        }
        expect(teamsAnswerSchema.parse((await get(base, '/api/teams')).body).source).toBe('demo');
        const named = await put({ format: 'csv', text: 'email,team\nann@acme.com,Data\n', name: 'org\u0000.csv' });
        expect(named.status).toBe(200);
        expect(teamsAnswerSchema.parse(await named.json()).name).toBe('org.csv');
      } finally {
        await opened.drop();
      }
    },
  );
});
