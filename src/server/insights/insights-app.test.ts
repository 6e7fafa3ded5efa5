/**
 * The highlights and cohorts over HTTP on the demo organization: every highlight says what the store
 * holds (a spike's day is the person's own row, a newcomer's first day is in the week), links where it
 * says, and the cohorts count every person once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { cohortsSchema, highlightsSchema } from '../../api/insights';
import { userDaysSchema, usersTableSchema } from '../../api/users';
import { addDays, HISTORY_START } from '../../lib/dates';
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

const LATEST = '2026-04-30';
const ENV = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'insights', DEMO_USERS: '120', DATA_DIR: ':memory:' };

async function start() {
  const config = readServerConfig(ENV);
  const storeConfig = readStoreConfig(ENV);
  const store = (await openAppStore(config, storeConfig))!;
  stores.push(store);
  const app = createApp(config, { store, storeConfig });
  const server = createServer((req, res) => app.handler(req, res, () => res.end()));
  servers.push(server);
  return new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const get = async (base: string, path: string) => {
  const r = await fetch(base + path);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

describe('highlights and cohorts on the demo organization', async () => {
  const base = await start();
  // Asked before anything is stored: the highlights do not walk the service themselves.
  const early = highlightsSchema.parse((await get(base, '/api/highlights')).body);
  const stored = (await get(base, '/api/sync')).body as { stored: { users: { days: number } } };

  it('read only what the store holds: before the weeks they need are stored, they say how far it is', () => {
    expect(early.complete).toBe(false);
    expect(early.highlights).toEqual([]);
    expect(early.notes).toEqual([
      'The highlights come once the dashboard has stored the last five weeks from the service: 0 of 35 days so far.',
    ]);
    expect(stored.stored.users.days).toBe(0);
  });

  // The whole history in the store, as the background sync leaves it.
  const all = usersTableSchema.parse(
    (await get(base, `/api/users?start=${HISTORY_START}&end=${LATEST}&limit=1000`)).body,
  );

  it('names spikes by the person’s own day, newcomers by their first day, and links each to its page', async () => {
    const h = highlightsSchema.parse((await get(base, '/api/highlights')).body);
    expect(h.week).toEqual({ start: addDays(LATEST, -6), end: LATEST });
    const kinds = new Set(h.highlights.map((x) => x.kind));
    expect(kinds.has('spike')).toBe(true);
    for (const s of h.highlights.filter((x) => x.kind === 'spike')) {
      expect(s.link.path).toMatch(/^\/users\//);
      const id = decodeURIComponent(s.link.path.slice('/users/'.length));
      const [, credits, usual] = /^([\d,]+) credits against a usual ([\d,]+)/.exec(s.detail)!;
      const days = userDaysSchema.parse(
        (await get(base, `/api/users/${encodeURIComponent(id)}?start=${h.week.start}&end=${LATEST}`)).body,
      );
      const top = Math.max(...days.days.map((d) => d.billable_tokens));
      expect(Math.round(top).toLocaleString('en-US')).toBe(credits);
      expect(top).toBeGreaterThan(2 * Number(usual!.replace(/,/g, '')));
    }
    const fresh = h.highlights.find((x) => x.kind === 'new-users');
    if (fresh) {
      expect(fresh.link).toMatchObject({ path: '/users', query: { start: h.week.start, end: LATEST } });
      const named = fresh.detail.replace(/ and \d+ more\.$|\.$/, '').split(', ');
      for (const email of named) {
        const u = all.users.find((x) => x.email === email)!;
        expect(u.firstDay! >= h.week.start).toBe(true);
      }
    }
    // Most pressing first.
    const rank = { alert: 0, warning: 1, info: 2 };
    const ranks = h.highlights.map((x) => rank[x.severity]);
    expect(ranks).toEqual([...ranks].sort());
  });

  it('counts the people with no activity in 30 days as the users page lists them, and links to that list', async () => {
    const h = highlightsSchema.parse((await get(base, '/api/highlights')).body);
    const idle = h.highlights.find((x) => x.kind === 'inactive')!;
    expect(idle).toBeDefined();
    const n = Number(/^(\d+) (people|person) had no activity in 30 days$/.exec(idle.title)![1]);
    expect(idle.link).toEqual({
      path: '/users',
      query: { start: addDays(LATEST, -29), end: LATEST, who: 'inactive', usersSort: 'lastActiveDay:desc' },
    });
    const q = new URLSearchParams(idle.link.query as Record<string, string>);
    q.delete('usersSort');
    const listed = usersTableSchema.parse((await get(base, `/api/users?${q}&limit=1000`)).body);
    expect(listed.total).toBe(n);
    expect(listed.inactiveUsers).toBe(n);
    for (const u of listed.users) {
      expect(u.activeDays).toBe(0);
      expect(u.lastActiveDay === null || u.lastActiveDay! < addDays(LATEST, -29)).toBe(true);
    }
    // The people it names are among them.
    const named = idle.detail.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    const listedNames = new Set(listed.users.map((u) => u.email ?? u.userId));
    for (const name of named) expect(listedNames.has(name)).toBe(true);
  });

  it('limits the highlights to the teams asked for, and refuses an unknown team or parameter', async () => {
    const teams = (await get(base, '/api/teams')).body as { teams: { path: string }[] };
    const team = teams.teams[0]!.path;
    const h = highlightsSchema.parse((await get(base, `/api/highlights?team=${encodeURIComponent(team)}`)).body);
    expect(h.teams).toEqual([team]);
    for (const x of h.highlights.filter((y) => y.kind === 'drop')) expect(x.title.startsWith(team)).toBe(true);
    const members = usersTableSchema.parse(
      (await get(base, `/api/users?start=${HISTORY_START}&end=${LATEST}&limit=1000&team=${encodeURIComponent(team)}`))
        .body,
    );
    const mine = new Set(members.users.map((u) => u.userId));
    for (const x of h.highlights.filter((y) => y.kind === 'spike'))
      expect(mine.has(decodeURIComponent(x.link.path.slice('/users/'.length)))).toBe(true);
    const bad = await get(base, '/api/highlights?team=Nobody');
    expect(bad.status).toBe(400);
    expect(String(bad.body.detail)).toMatch(/No team is called "Nobody"/);
    expect((await get(base, '/api/cohorts?week=1')).status).toBe(400);
  });

  it('puts every person in the cohort of the week they were first active, once', async () => {
    const c = cohortsSchema.parse((await get(base, '/api/cohorts')).body);
    expect(c.cohorts.reduce((n, x) => n + x.size, 0)).toBe(all.users.length);
    const byWeek = new Map<string, number>();
    const monday = (d: string) => {
      const dow = new Date(`${d}T00:00:00Z`).getUTCDay();
      return addDays(d, -((dow + 6) % 7));
    };
    for (const u of all.users) byWeek.set(monday(u.firstDay!), (byWeek.get(monday(u.firstDay!)) ?? 0) + 1);
    expect(new Map(c.cohorts.map((x) => [x.week, x.size]))).toEqual(byWeek);
    // The latest cohort's later weeks have not ended: blank, not zero.
    expect(c.cohorts.at(-1)!.retention.every((r) => r === null)).toBe(true);
    for (const x of c.cohorts) for (const r of x.retention) if (r !== null) expect(r).toBeGreaterThanOrEqual(0);
  });
});
