/**
 * The users endpoints against both engines (the embedded SQLite store and a
 * real PostgreSQL), with the demo service in-process as the upstream: the
 * merged table equals the browser's merge of the service's rows, and it is
 * sorted, filtered, searched, paged and written as CSV here; one user's days;
 * the 400s and 404s; ETag and 304; a range still being filled.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../api/paths';
import { userRowSchema, type UserRow } from '../../api/schemas';
import { userDaysSchema, usersTableSchema, type UsersTableAnswer } from '../../api/users';
import { addDays, daysBetween, lastDays, type DayRange } from '../../lib/dates';
import {
  USER_COLUMN_VALUES,
  facetValues,
  filterUsers,
  mergeUserRows,
  usersCsvColumns,
  type MergedUser,
  type UserColumnId,
} from '../../lib/user-merge';
import { toCsv } from '../../lib/csv';
import { raw } from '../../test/http';
import { pgSkipReason } from '../../test/postgres';
import { createApp } from '../app';
import { createLogger, silentLogger } from '../core/log';
import { readServerConfig } from '../config';
import type { PriceList } from '../spend/prices';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { openStore, type StoreDb } from '../store/db';
import { migrateToLatest } from '../store/migrations';
import { claimStore } from '../store/queries';
import { openAnalytics, type Analytics } from '../analytics/engine';
import { createUsersTables } from '../analytics/users';
import { createSyncEngine, type Fetched } from '../sync/engine';
import { createRouter } from '../http/router';
import { parseMapping } from '../teams/mapping';
import { UNASSIGNED } from '../../api/teams';
import { createUsersRoutes } from './routes';
import { STORE_ENGINES } from '../../test/stores';

/** The CSV's columns without a price list or a mapping (the store gives each person's last active day). */
const { header: USERS_CSV_HEADER, row: userCsvRow } = usersCsvColumns(null, false, true);

const TODAY = '2026-03-20';
const demo = createDemoService({
  seed: 'users-test',
  users: 60,
  repos: 2,
  reportsPerRepo: 2,
  today: TODAY,
  keys: DEFAULT_KEYS,
});
const LATEST = demo.latestDay();
/** Final days end two days before the latest (the refresh window). */
const FINAL: DayRange = { start: '2026-02-01', end: '2026-02-28' };
const RECENT: DayRange = { start: addDays(LATEST, -13), end: LATEST };

const direct = (path: string, search: string) =>
  demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } });

/** Every `/users` row of the range, in the service's order, as the browser would read them. */
function serviceRows(r: DayRange): UserRow[] {
  const rows: UserRow[] = [];
  let cursor = '';
  for (;;) {
    const body = JSON.parse(
      direct(PATHS.users, `?startDate=${r.start}&endDate=${r.end}&limit=100${cursor ? `&cursor=${cursor}` : ''}`).body,
    ) as { data: unknown[]; meta: { has_more: boolean; next_cursor?: string } };
    rows.push(...body.data.map((d) => userRowSchema.parse(d)));
    if (!body.meta.has_more) return rows;
    cursor = body.meta.next_cursor!;
  }
}

const byId = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** The browser's merge: what the page showed when it walked `/users` itself. */
const browserMerge = (r: DayRange) => mergeUserRows(serviceRows(r)).sort(byId);

const servers: Server[] = [];
const copies: Analytics[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  for (const a of copies) await a.close();
});

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const get = (base: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  raw(base, path, { headers, method });

/** The routes over a store, the demo as upstream (it can be held back), on a port of their own. */
async function harness(store: StoreDb, fillWaitMs = 20, more: Partial<Parameters<typeof createUsersRoutes>[0]> = {}) {
  let gate: Promise<void> | undefined;
  const asked: string[] = [];
  let fail: ((path: string) => Fetched | undefined) | undefined;
  const fetcher = async (path: string, search: string): Promise<Fetched> => {
    asked.push(path + search);
    if (gate) await gate;
    return fail?.(path) ?? direct(path, search);
  };
  const engine = createSyncEngine(store, fetcher, {
    latestDay: () => LATEST,
    refreshDays: 2,
    maxSpanDays: 31,
    usersPageSize: 13,
    reportsPageSize: 10,
  });
  const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
  copies.push(analytics);
  const tables = createUsersTables(analytics);
  const routes = createUsersRoutes({
    store,
    engine,
    latestDay: () => LATEST,
    refreshDays: 2,
    fillWaitMs,
    tables: Promise.resolve(tables),
    ...more,
  });
  const router = createRouter(routes.routes, {
    logger: more.logger ?? silentLogger,
    context: () => ({ latest: LATEST, mapping: more.place?.()?.mapping ?? null }),
  });
  const base = await listen(createServer((req, res) => void router.handle(req, res)));
  return {
    base,
    engine,
    routes,
    tables,
    asked,
    hold() {
      let open!: () => void;
      gate = new Promise((r) => (open = r));
      return () => {
        gate = undefined;
        open();
      };
    },
    failWith: (f: typeof fail) => (fail = f),
    get: (path: string, headers?: Record<string, string>) => get(base, path, headers),
    async table(query: string) {
      const r = await get(base, `/api/users?${query}`);
      expect(r.status, r.body).toBe(200);
      return usersTableSchema.parse(JSON.parse(r.body));
    },
  };
}

/** A price list of one price: 10 EUR a million credits from the start of history. */
const EUR_10: PriceList = { currency: 'EUR', entries: [{ from: '2026-01-14', perMillionCredits: 10, line: 1 }] };

const collator = new Intl.Collator('en-US');

/**
 * The order the browser's tables sort in, the oracle of the server's: numbers by value, text by locale; people
 * without a value last either way, ties in user id order (by UTF-16 code units) in both directions.
 */
function sortUsers(users: readonly MergedUser[], column: UserColumnId, dir: 'asc' | 'desc'): MergedUser[] {
  const value = USER_COLUMN_VALUES[column];
  const keyed = [...users].sort(byId).map((u) => ({ u, v: value(u) }));
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (a: string | number, b: string | number) =>
    typeof a === 'string' ? collator.compare(a, b as string) : a - (b as number);
  return keyed
    .sort((a, b) =>
      a.v === null || b.v === null ? Number(a.v === null) - Number(b.v === null) : sign * compare(a.v, b.v),
    )
    .map((k) => k.u);
}

const q = (r: DayRange, extra = '') => `start=${r.start}&end=${r.end}${extra}`;

const engines = STORE_ENGINES;

describe.each(engines)('the users endpoints on $name', ({ available, open }) => {
  let store: StoreDb;
  const cleanups: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    if (!available) return;
    const opened = await open();
    store = opened.store;
    await claimStore(store.db, 'demo seed=users-test');
    cleanups.push(async () => {
      await opened.store.close();
      await opened.drop();
    });
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const test = it.skipIf(!available);
  const skipNote = available ? '' : ` (${pgSkipReason})`;

  test(`merges the stored days exactly as the browser merges the service's rows${skipNote}`, async () => {
    const h = await harness(store);
    for (const r of [FINAL, RECENT, { start: '2026-01-14', end: LATEST }, { start: '2026-02-10', end: '2026-02-10' }]) {
      await h.engine.fillUsers(r, false);
      const t = await h.table(q(r, '&sort=user&dir=asc&limit=1000'));
      const mine = [...t.users].sort(byId);
      const reference = browserMerge(r);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.map((u) => u.userId)).toEqual(reference.map((u) => u.userId));
      for (const [i, u] of mine.entries()) {
        const ref = reference[i]!;
        // A weighted mean of two-decimal ratios: summed in another order, it may differ in its last bits.
        expect(u.autonomyRatio).toBeCloseTo(ref.autonomyRatio, 9);
        // The store adds each person's last active day up to the range's end: in the range, their last day in it.
        expect({ ...u, autonomyRatio: 0 }).toEqual({ ...ref, autonomyRatio: 0, lastActiveDay: ref.lastDay });
      }
      expect(t.activeUsers).toBe(reference.length);
      const f = facetValues(reference);
      expect(t.facets).toEqual({ delegation: f.delegation, tier: f.tier, lang: f.language });
      expect(t.complete).toBe(true);
    }
  });

  test(`a store from before migration 0002 comes through every migration with each row as the sync writes it${skipNote}`, async () => {
    const h = await harness(store);
    await h.engine.fillUsers(FINAL, false);
    const read = () => store.db.selectFrom('user_day').selectAll().orderBy('day').orderBy('user_id').execute();
    const written = await read();
    expect(written.length).toBeGreaterThan(100);
    // The sync writes the row as the service sent it, its user and email beside it, and nothing else (0011).
    for (const r of written) {
      const row = JSON.parse(r.row) as { user_id: string; user_email?: string | null };
      expect(r).toEqual({ day: r.day, user_id: row.user_id, user_email: row.user_email ?? null, row: r.row });
    }
    // The store as it was before 0002 (its rows are as 0001 made them): no later table or index, the migrations not
    // recorded. 0002 gives them fact columns, 0010 drops the index 0002 once made, 0011 drops the columns.
    const db = store.db as unknown as Kysely<{ kysely_migration: { name: string } }>;
    await db.schema.dropTable('team_mapping').execute();
    await db.schema.dropTable('team_budget').execute();
    await db.schema.dropTable('revoked_session').execute();
    await db.schema.dropTable('chart_mark').execute();
    await db.schema.dropTable('alert').execute();
    await db.schema.dropTable('alert_rule').execute();
    await db.schema.dropTable('api_token').execute();
    await db.schema.dropTable('team_goal').execute();
    await db.schema.dropTable('intensity_threshold').execute();
    await db.schema.dropTable('member_team').execute();
    await db.schema.dropIndex('day_answer_state').execute();
    await db.schema.dropIndex('user_day_user_email').execute();
    await db.schema.createIndex('user_day_user').on('user_day').columns(['user_id', 'day']).execute();
    const later = [
      '0002_user_day_facts',
      '0003_team_mapping',
      '0004_team_budget',
      '0005_day_answer_state',
      '0006_user_day_user_email',
      '0007_revoked_session',
      '0008_chart_mark',
      '0009_alert',
      '0010_drop_user_day_facts',
      '0011_user_day_row_only',
      '0012_api_token',
      '0013_team_goal',
      '0014_intensity_threshold',
      '0015_member_named',
      '0016_member_team',
    ];
    await db.deleteFrom('kysely_migration').where('name', 'in', later).execute();
    expect(await migrateToLatest(db as Kysely<unknown>)).toEqual(later);
    expect(await read()).toEqual(written);
  });

  test(`serves the table without spend when the range cannot be priced, and prices it once it can${skipNote}`, async () => {
    const lines: string[] = [];
    let tokensFail = true;
    const h = await harness(store, 20, {
      logger: createLogger((l) => void lines.push(l)),
      spend: {
        list: () => EUR_10,
        version: async () => {
          if (tokensFail) throw new Error('/tokens answered 503');
          return 'priced-1';
        },
        stored: async () => !tokensFail,
      },
    });
    await h.engine.fillUsers(FINAL, false);
    await h.engine.fillDays('tokens', '', FINAL, false);
    const bare = await h.table(q(FINAL, '&sort=user&dir=asc&limit=1000'));
    expect(bare.users.length).toBeGreaterThan(10);
    for (const u of bare.users) expect(u.spend).toBeUndefined();
    expect(
      lines.some((l) => l.includes('the users table goes without spend') && l.includes('/tokens answered 503')),
    ).toBe(true);
    const csv = await h.get(`/api/users.csv?${q(FINAL, '&sort=user&dir=asc')}`);
    expect(csv.body.split('\r\n')[0]!.split(',')[3]).toBe('spend_eur');
    expect(csv.body.split('\r\n')[1]!.split(',')[3]).toBe('');
    tokensFail = false;
    // Each person's credits of the range's `/tokens` split, at 10 EUR a million.
    const spent = new Map<string, number>();
    for (const d of JSON.parse(direct(PATHS.tokens, `?startDate=${FINAL.start}&endDate=${FINAL.end}`).body).data as {
      by_user: { user_id: string; billable_tokens: number }[];
    }[])
      for (const u of d.by_user) spent.set(u.user_id, (spent.get(u.user_id) ?? 0) + (u.billable_tokens * 10) / 1e6);
    const priced = await h.table(q(FINAL, '&sort=spend&dir=desc&limit=1000'));
    expect(priced.users.length).toBe(browserMerge(FINAL).length);
    for (const u of priced.users) expect(u.spend).toBeCloseTo(spent.get(u.userId) ?? 0, 9);
    const spends = priced.users.map((u) => u.spend!);
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    expect(spends[0]).toBeGreaterThan(0);
  });

  test(`sorts, filters, searches and pages on the server${skipNote}`, async () => {
    const h = await harness(store);
    await h.engine.fillUsers(FINAL, false);
    const all = browserMerge(FINAL);
    const check = async (extra: string, expected: MergedUser[]) => {
      const t = await h.table(q(FINAL, `${extra}&limit=1000`));
      expect(t.users.map((u) => u.userId)).toEqual(expected.map((u) => u.userId));
      expect(t.total).toBe(expected.length);
      expect(t.activeUsers).toBe(all.length);
    };
    // The default: most credits first.
    await check('', sortUsers(all, 'credits', 'desc'));
    await check('&sort=sessions&dir=asc', sortUsers(all, 'sessions', 'asc'));
    await check('&sort=user&dir=desc', sortUsers(all, 'user', 'desc'));
    const sorted = sortUsers(all, 'credits', 'desc');
    expect(sorted.map((u) => u.credits)).toEqual([...all.map((u) => u.credits)].sort((a, b) => b - a));

    const level = all[0]!.delegationLevel;
    const lang = all[0]!.languages[0]!;
    const filter = { search: '', delegation: level, tier: '', language: lang };
    await check(`&delegation=${level}&lang=${encodeURIComponent(lang)}`, filterUsers(sorted, filter));
    const someone = all.find((u) => u.email) ?? all[0]!;
    const needle = (someone.email ?? someone.userId).slice(1, 6).toUpperCase();
    const found = filterUsers(sorted, { ...filter, delegation: '', language: '', search: needle });
    expect(found.map((u) => u.userId)).toContain(someone.userId);
    await check(`&q=${encodeURIComponent(needle)}`, found);
    await check('&q=nobody-has-this', []);

    // Pages follow each other, and together make the table.
    const pages: MergedUser[] = [];
    for (let offset = 0; offset < all.length; offset += 7) {
      const t = await h.table(q(FINAL, `&sort=toolCalls&dir=asc&offset=${offset}&limit=7`));
      expect(t.offset).toBe(offset);
      pages.push(...t.users);
    }
    expect(pages.map((u) => u.userId)).toEqual(sortUsers(all, 'toolCalls', 'asc').map((u) => u.userId));
    const past = await h.table(q(FINAL, `&offset=${all.length + 5}`));
    expect(past.users).toEqual([]);
    expect(past.total).toBe(all.length);
  });

  test(`lists the known people not active in the range, with their last active day, on request${skipNote}`, async () => {
    const h = await harness(store);
    const history = { start: '2026-01-14', end: RECENT.end };
    // Only the range stored yet: nobody is known from before it, and the answer says the history is not all there.
    await h.engine.fillUsers(RECENT, false);
    const partial = await h.table(q(RECENT, '&who=inactive&limit=1000'));
    expect(partial.inactiveUsers).toBe(0);
    expect(partial.history).toEqual({ storedDays: 14, days: daysBetween('2026-01-14', RECENT.end) + 1 });
    // Once the days before it are stored, the same question is answered anew (the table's version names them).
    await h.engine.fillUsers(history, false);
    const active = new Set(browserMerge(RECENT).map((u) => u.userId));
    // Everyone seen up to the range's end; those not active in it last used the agent before it starts.
    const idle = browserMerge(history).filter((u) => !active.has(u.userId));
    expect(idle.length).toBeGreaterThan(0);
    const t = await h.table(q(RECENT, '&who=inactive&sort=user&dir=asc&limit=1000'));
    expect(t.activeUsers).toBe(active.size);
    expect(t.inactiveUsers).toBe(idle.length);
    expect(t.history.storedDays).toBe(t.history.days);
    expect(t.total).toBe(idle.length);
    const got = [...t.users].sort(byId);
    expect(got.map((u) => u.userId)).toEqual(idle.map((u) => u.userId));
    for (const [i, u] of got.entries()) {
      expect(u).toMatchObject({ activeDays: 0, firstDay: null, lastDay: null, credits: 0, email: idle[i]!.email });
      expect(u.lastActiveDay).toBe(idle[i]!.lastDay);
      expect(u.lastActiveDay! < RECENT.start).toBe(true);
    }
    // Everyone: both, sorted by the last active day, newest first (the people without a day in the range last).
    const all = await h.table(q(RECENT, '&who=all&sort=lastActiveDay&dir=desc&limit=1000'));
    expect(all.total).toBe(active.size + idle.length);
    const days = all.users.map((u) => u.lastActiveDay!);
    expect(days).toEqual([...days].sort().reverse());
    // The default stays the active people; a person first seen after the range's end is not known in it.
    expect((await h.table(q(RECENT, '&limit=1000'))).total).toBe(active.size);
    const early = { start: '2026-01-20', end: '2026-01-21' };
    const known = browserMerge({ start: '2026-01-14', end: early.end }).length;
    const e = await h.table(q(early, '&who=all&limit=1000'));
    expect(e.total).toBe(known);
    expect(e.total).toBeLessThan(browserMerge(history).length);
    // The CSV of the same list, with the day.
    const csv = await h.get(`/api/users.csv?${q(RECENT, '&who=inactive&sort=user&dir=asc')}`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(idle.length + 1);
    const col = USERS_CSV_HEADER.indexOf('last_active_day');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[col])
        .sort(),
    ).toEqual(idle.map((u) => u.lastDay).sort());
    expect((await h.get(`/api/users?${q(RECENT, '&who=nobody')}`)).status).toBe(400);
  });

  test(`lists the seats: the people the mapping names, by how they used the agent, never used included${skipNote}`, async () => {
    const history = { start: '2026-01-14', end: LATEST };
    const known = browserMerge({ start: history.start, end: FINAL.end });
    const active = new Set(browserMerge(FINAL).map((u) => u.userId));
    // First seen after the range's end: by its end they had never used the agent.
    const later = browserMerge(history).filter((u) => !known.some((k) => k.userId === u.userId));
    expect(later.length).toBeGreaterThan(0);
    // Every other person known by the range's end, two of those seen later, and three the service never saw (by id,
    // by email alone, by both); the rest are Unassigned, no seat.
    const ghosts = [
      { userId: 'usr_ghost_1', email: null },
      { userId: '', email: 'ghost.two@acme.example' },
      { userId: 'usr_ghost_3', email: 'ghost.three@acme.example' },
    ];
    const named = [...known.filter((_, i) => i % 2 === 0), ...later.slice(0, 2)];
    const rows = [...named, ...ghosts].map(
      (u, i) => `${u.email ?? ''},${u.email ? '' : u.userId},${i % 3 ? 'Eng' : 'Eng/Web'}`,
    );
    // The ghost named by both: by both.
    rows[rows.length - 1] = `ghost.three@acme.example,usr_ghost_3,Eng`;
    const parsed = parseMapping(`email,user_id,team\n${rows.join('\n')}\n`, 'csv');
    if (!parsed.ok) throw new Error('the test mapping is refused');
    const mapping = parsed.mapping;
    const h = await harness(store, 20, {
      place: () => ({ mapping, of: () => ({ team: UNASSIGNED, managers: [] }), managersOf: () => [], version: '1' }),
    });
    await h.engine.fillUsers(history, false);

    const seen = named.filter((u) => known.includes(u));
    const lastOf = new Map(known.map((u) => [u.userId, u.lastDay]));
    const idleSince = (days: number) =>
      seen.filter((u) => (lastOf.get(u.userId) ?? '') < addDays(FINAL.end, -(days - 1))).map((u) => u.userId);
    const never = [...named.filter((u) => !known.includes(u)), ...ghosts];
    const t = await h.table(q(FINAL, '&who=named&limit=1000'));
    expect(t.seats).toEqual({
      named: named.length + ghosts.length,
      active: seen.filter((u) => active.has(u.userId)).length,
      idle7: idleSince(7).length,
      idle30: idleSince(30).length,
      never: never.length,
    });
    expect(t.seats!.idle7).toBeGreaterThan(t.seats!.idle30!);
    expect(t.seats!.idle30).toBeGreaterThan(0);
    expect(t.total).toBe(named.length + ghosts.length);
    // Each list is the users table filtered so, sorted by the last active day, newest first.
    const ids = (a: UsersTableAnswer) => a.users.map((u) => u.userId).sort();
    const list = async (who: string) => {
      const a = await h.table(q(FINAL, `&who=${who}&sort=lastActiveDay&dir=desc&limit=1000`));
      const days = a.users.map((u) => u.lastActiveDay ?? '');
      expect(days, who).toEqual([...days].sort().reverse());
      expect(a.total).toBe(a.users.length);
      return a;
    };
    expect(ids(await list('named-active'))).toEqual(
      seen
        .filter((u) => active.has(u.userId))
        .map((u) => u.userId)
        .sort(),
    );
    expect(ids(await list('idle-7'))).toEqual(idleSince(7).sort());
    expect(ids(await list('idle-30'))).toEqual(idleSince(30).sort());
    // Never used: by name, whoever they are to the service (the ghost named by email alone has no id yet).
    const n = await h.table(q(FINAL, '&who=never&sort=user&dir=asc&limit=1000'));
    const name = (u: { userId: string; email: string | null }) => u.email ?? u.userId;
    expect(n.users.map(name)).toEqual(never.map(name).sort((a, b) => collator.compare(a, b)));
    for (const u of n.users) {
      expect(u).toMatchObject({ activeDays: 0, credits: 0, lastActiveDay: null, firstDay: null });
      expect(['Eng', 'Eng/Web']).toContain(u.team);
    }
    expect(n.users.find((u) => u.email === 'ghost.two@acme.example')!.userId).toBe('');
    expect(n.users.find((u) => u.userId === 'usr_ghost_3')!.email).toBe('ghost.three@acme.example');
    // A team's seats: its people only.
    const web = await h.table(q(FINAL, `&who=never&team=${encodeURIComponent('Eng/Web')}&limit=1000`));
    expect(web.users.every((u) => u.team === 'Eng/Web')).toBe(true);
    expect(web.seats!.never).toBe(web.total);
    expect(web.seats!.never).toBeLessThan(never.length);
    // Its CSV, named for the list, with the same people in the same order.
    const csv = await h.get(`/api/users.csv?${q(FINAL, '&who=never&sort=user&dir=asc')}`);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="users-never-used-${FINAL.start}-${FINAL.end}.csv"`,
    );
    const lines = csv.body.trimEnd().split('\r\n').slice(1);
    expect(lines.map((l) => l.split(',').slice(0, 2).join(','))).toEqual(
      n.users.map((u) => `${u.userId},${u.email ?? ''}`),
    );
  });

  test(`refuses a seats' list without a mapping, saying why${skipNote}`, async () => {
    const h = await harness(store);
    for (const path of ['/api/users?who=never', '/api/users.csv?who=idle-7']) {
      const r = await h.get(path);
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.body).detail).toMatch(
        /^who=(never|idle-7) lists people the team mapping names, and this server has no mapping/,
      );
    }
    expect((await h.get('/api/users?who=seats')).status).toBe(400);
    expect(JSON.parse((await h.get('/api/users?who=seats')).body).detail).toMatch(
      /^who must be one of active, inactive, all, named, named-active, idle-7, idle-30, never, got "seats"\.$/,
    );
    // Without a mapping the table says there are no seats.
    await h.engine.fillUsers(FINAL, false);
    expect((await h.table(q(FINAL))).seats).toBeNull();
  });

  test(`streams the whole filtered, sorted table as CSV${skipNote}`, async () => {
    const h = await harness(store);
    await h.engine.fillUsers(FINAL, false);
    const all = sortUsers(browserMerge(FINAL), 'credits', 'asc');
    for (const headers of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      const r = await h.get(`/api/users.csv?${q(FINAL, '&sort=credits&dir=asc')}`, headers);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(r.headers['content-disposition']).toBe(`attachment; filename="users-${FINAL.start}-${FINAL.end}.csv"`);
      if ('accept-encoding' in headers) {
        expect(r.headers['content-encoding']).toBe('gzip');
        continue;
      }
      const lines = r.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe(USERS_CSV_HEADER.join(','));
      expect(lines[0]!.startsWith('user_id,user_email,billable_tokens,tool_calls,sessions,')).toBe(true);
      expect(lines).toHaveLength(all.length + 1);
      // Ratios are written with every digit: compare the rest of the row to the browser's merge.
      const expected = toCsv(
        USERS_CSV_HEADER,
        // Each active person's last active day up to the range's end is their last day in it.
        all.map((u) => userCsvRow({ ...u, lastActiveDay: u.lastDay, autonomyRatio: 0 })),
      ).split('\r\n');
      const autonomy = USERS_CSV_HEADER.indexOf('autonomy_ratio');
      for (const [i, line] of lines.entries()) {
        const cells = line.split(',');
        const want = expected[i]!.split(',');
        if (i > 0) {
          // Written to the hundredth.
          expect(cells[autonomy]!).toMatch(/^\d+(\.\d{1,2})?$/);
          expect(Number(cells[autonomy])).toBeCloseTo(USER_COLUMN_VALUES.autonomy(all[i - 1]!), 2);
          cells[autonomy] = want[autonomy]!;
        }
        expect(cells).toEqual(want);
      }
    }
    const filtered = await h.get(`/api/users.csv?${q(FINAL, `&q=${encodeURIComponent('nobody-has-this')}`)}`);
    expect(filtered.body).toBe(`${USERS_CSV_HEADER.join(',')}\r\n`);
  });

  test(`answers one user's days from the store, and 404 for a user it never saw${skipNote}`, async () => {
    const h = await harness(store);
    await h.engine.fillUsers(FINAL, false);
    const rows = serviceRows(FINAL);
    const id = rows[0]!.user_id;
    const r = await h.get(`/api/users/${encodeURIComponent(id)}?${q(FINAL)}`);
    expect(r.status).toBe(200);
    const body = userDaysSchema.parse(JSON.parse(r.body));
    const mine = rows.filter((x) => x.user_id === id).sort((a, b) => a.date.localeCompare(b.date));
    expect(body.days).toEqual(mine);
    // The browser's merge of their days (the store adds their last active day: in the range, their last in it).
    const merged = mergeUserRows(mine)[0]!;
    expect(body.user).toEqual({ ...merged, lastActiveDay: merged.lastDay });
    expect(body.complete).toBe(true);
    // No walk over the other users: the store answered without asking the service again.
    h.asked.length = 0;
    await h.get(`/api/users/${encodeURIComponent(id)}?${q(FINAL)}`);
    expect(h.asked).toEqual([]);

    const missing = await h.get(`/api/users/usr_nobody?${q(FINAL)}`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({
      title: 'Not Found',
      status: 404,
      detail: 'No user with the id "usr_nobody" in the stored history.',
    });
    expect(JSON.parse(missing.body).requestId).toMatch(/^req_/);
    // Known to the store, idle in the range: no 404, no days.
    const idle = [...new Set(rows.map((x) => x.user_id))].find(
      (u) => !rows.some((x) => x.user_id === u && x.date === FINAL.start),
    )!;
    const quiet = await h.get(`/api/users/${encodeURIComponent(idle)}?start=${FINAL.start}&end=${FINAL.start}`);
    expect(quiet.status).toBe(200);
    expect(JSON.parse(quiet.body)).toMatchObject({ userId: idle, user: null, days: [], complete: true });
  });

  test(`gives a person's page their row of the users table, field for field, spend and team with them${skipNote}`, async () => {
    const emails = [...new Set(serviceRows(FINAL).map((x) => x.user_email))].filter((e) => e).sort();
    const parsed = parseMapping(
      `email,team\n${emails
        .slice(0, 12)
        .map((e, i) => `${e},${i % 3 ? 'Eng' : 'Eng/Web'}`)
        .join('\n')}\n`,
      'csv',
    );
    if (!parsed.ok) throw new Error('the test mapping is refused');
    const mapping = parsed.mapping;
    const h = await harness(store, 20, {
      spend: { list: () => EUR_10, version: async () => 'priced-1', stored: async () => true },
      place: () => ({
        mapping,
        of: () => ({ team: UNASSIGNED, managers: [] }),
        managersOf: (team) => [`lead@${team.replace('/', '-').toLowerCase()}.example`],
        version: '1',
      }),
    });
    await h.engine.fillUsers(FINAL, false);
    for (const r of [FINAL, { start: '2026-02-04', end: '2026-02-17' }]) {
      await h.engine.fillDays('tokens', '', r, false);
      const t = await h.table(q(r, '&sort=user&dir=asc&limit=1000'));
      expect(t.users.length).toBeGreaterThan(10);
      expect(new Set(t.users.map((u) => u.team))).toEqual(new Set(['Eng', 'Eng/Web', UNASSIGNED]));
      expect(t.users.some((u) => u.spend! > 0)).toBe(true);
      // Every third person (a request each).
      for (const u of t.users.filter((_, i) => i % 3 === 0)) {
        const answer = await h.get(`/api/users/${encodeURIComponent(u.userId)}?${q(r)}`);
        expect(answer.status).toBe(200);
        const { user } = userDaysSchema.parse(JSON.parse(answer.body));
        // Spend is a sum of products, added in another order: to the last digits.
        expect(user!.spend).toBeCloseTo(u.spend!, 9);
        expect({ ...user, spend: 0 }, `${u.userId}, ${r.start} to ${r.end}`).toEqual({ ...u, spend: 0 });
      }
    }
  });

  test(`refuses a bad parameter with the error body, naming it${skipNote}`, async () => {
    const h = await harness(store);
    const cases: [string, string][] = [
      ['/api/users?start=2026-02-30&end=2026-03-01', 'start must be a day (YYYY-MM-DD), got "2026-02-30".'],
      ['/api/users?start=2026-02-01', 'Give both start and end (YYYY-MM-DD), or neither for the last 30 days.'],
      ['/api/users?start=2026-02-10&end=2026-02-01', 'end (2026-02-01) is before start (2026-02-10).'],
      [`/api/users?start=2026-02-01&end=${TODAY}`, `end (${TODAY}) is after the latest day with data (${LATEST}).`],
      ['/api/users?start=2025-12-01&end=2026-02-01', 'start (2025-12-01) is before the history starts (2026-01-14).'],
      [
        '/api/users?sort=bogus',
        expect.stringMatching(/^sort must be one of user, team, credits, spend, toolCalls, .*, got "bogus"\.$/),
      ],
      ['/api/users?dir=up', 'dir must be one of asc, desc, got "up".'],
      ['/api/users?limit=0', 'limit must be a whole number from 1 to 1000, got "0".'],
      ['/api/users?limit=5000', 'limit must be a whole number from 1 to 1000, got "5000".'],
      ['/api/users?offset=-1', 'offset must be a whole number from 0 to 100000000, got "-1".'],
      ['/api/users?q=a&q=b', 'The parameter "q" is given more than once.'],
      ['/api/users?page=2', expect.stringMatching(/^Unknown parameter "page"; this endpoint takes start, end, sort,/)],
      ['/api/users.csv?limit=5', expect.stringMatching(/^Unknown parameter "limit"; this endpoint takes start, end,/)],
      ['/api/users/u1?sort=credits', 'Unknown parameter "sort"; this endpoint takes start, end.'],
      ['/api/users/%E0%A4%A?start=2026-02-01&end=2026-02-02', 'The user id in the path is not valid percent-encoding.'],
    ] as [string, string][];
    for (const [path, detail] of cases) {
      const r = await h.get(path);
      expect(r.status, path).toBe(400);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(r.body)).toEqual({ title: 'Bad Request', status: 400, detail, requestId: expect.any(String) });
    }
    expect(h.asked).toEqual([]);
    const post = await get(h.base, '/api/users', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  test(`tags answers about final days and answers 304 to a current copy${skipNote}`, async () => {
    const h = await harness(store);
    await h.engine.fillUsers(FINAL, false);
    await h.engine.fillUsers(RECENT, false);
    const first = await h.get(`/api/users?${q(FINAL)}`);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await h.get(`/api/users?${q(FINAL)}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // Another question about the same days is another answer.
    const sorted = await h.get(`/api/users?${q(FINAL, '&sort=sessions')}`, { 'if-none-match': etag });
    expect(sorted.status).toBe(200);
    expect(sorted.headers.etag).not.toBe(etag);
    // One user's days too.
    const id = (JSON.parse(first.body) as UsersTableAnswer).users[0]!.userId;
    const u = await h.get(`/api/users/${id}?${q(FINAL)}`);
    expect(u.headers.etag).toMatch(/^W\//);
    expect((await h.get(`/api/users/${id}?${q(FINAL)}`, { 'if-none-match': `"x", ${u.headers.etag}` })).status).toBe(
      304,
    );
    // Days still in the refresh window may change: no tag, never stored by the browser.
    const recent = await h.get(`/api/users?${q(RECENT)}`);
    expect(recent.status).toBe(200);
    expect(recent.headers.etag).toBeUndefined();
    expect(recent.headers['cache-control']).toBe('no-store');
    // A walk of the days again (a re-sync) is a new version: the old tag no longer matches.
    await store.db.deleteFrom('users_day').where('day', '=', '2026-02-10').execute();
    await h.engine.fillUsers(FINAL, false);
    const resynced = await h.get(`/api/users?${q(FINAL)}`, { 'if-none-match': etag });
    expect(resynced.status).toBe(200);
    expect(resynced.headers.etag).not.toBe(etag);
  });

  test(`says a range is still being filled, walks it meanwhile, then answers${skipNote}`, async () => {
    const h = await harness(store);
    const release = h.hold();
    const r = await h.get(`/api/users?${q(FINAL)}`);
    expect(r.status).toBe(202);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['cache-control']).toBe('no-store');
    const body = usersTableSchema.parse(JSON.parse(r.body));
    expect(body).toMatchObject({ complete: false, users: [], total: 0, range: FINAL });
    expect(body.progress).toMatchObject({ days: 28, storedDays: 0 });
    expect(body.progress!.detail).toMatch(
      /^The users of 2026-02-01 … 2026-02-28 are still being read from the service/,
    );
    // The CSV cannot wait in a browser's download: 503, and when to come back.
    const csv = await h.get(`/api/users.csv?${q(FINAL)}`);
    expect(csv.status).toBe(503);
    expect(csv.headers['retry-after']).toBe('1');
    const user = await h.get(`/api/users/u1?${q(FINAL)}`);
    expect(user.status).toBe(202);
    expect(JSON.parse(user.body)).toMatchObject({ complete: false, days: [], user: null });
    // Three requests, one walk.
    release();
    await expect.poll(async () => (await h.get(`/api/users?${q(FINAL)}`)).status, { timeout: 10_000 }).toBe(200);
    const firstPages = h.asked.filter((a) => a.startsWith(PATHS.users) && !a.includes('cursor='));
    expect(firstPages).toHaveLength(1);
  });

  test(`tells a failed walk once, with what the service said; a retry walks again${skipNote}`, async () => {
    const h = await harness(store, 2000);
    h.failWith((path) =>
      path === PATHS.users
        ? {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              data: [{ ...serviceRows(FINAL)[0], tool_calls: '12' }],
              meta: { org_id: 'o', start_date: FINAL.start, end_date: FINAL.end, has_more: false },
            }),
          }
        : undefined,
    );
    const r = await h.get(`/api/users?${q(FINAL)}`);
    expect(r.status).toBe(502);
    expect(JSON.parse(r.body).detail).toBe(
      '/api/v1/analytics/users returned data of an unexpected shape: data[0].tool_calls: expected number.',
    );
    h.failWith((path) => (path === PATHS.users ? { status: 503, headers: {}, body: '{"title":"busy"}' } : undefined));
    const relayed = await h.get(`/api/users?${q(FINAL)}`);
    expect(relayed.status).toBe(503);
    expect(relayed.body).toBe('{"title":"busy"}');
    h.failWith(undefined);
    expect((await h.get(`/api/users?${q(FINAL)}`)).status).toBe(200);
  });

  test(`answers an unexpected failure with a plain sentence and its request id, the reason in the log only${skipNote}`, async () => {
    const lines: string[] = [];
    const logger = createLogger((l) => void lines.push(l));
    const internal = 'connect ECONNREFUSED 127.0.0.1:5432';
    // The walk fails with an error of no known kind: 500.
    const h = await harness(store, 2000, { logger });
    h.failWith(() => {
      throw new Error(internal);
    });
    const walk = await h.get(`/api/users?${q(FINAL)}`);
    expect(walk.status).toBe(500);
    // The store cannot be reached while the table is read: 503, and when to ask again.
    const refused = () => Promise.reject(Object.assign(new Error(internal), { code: 'ECONNREFUSED' }));
    const down = await harness(store, 2000, {
      logger,
      tables: Promise.resolve({
        get: refused,
        // eslint-disable-next-line require-yield
        csv: async function* () {
          await refused();
        },
        latest: async () => undefined,
        copied: refused,
        ahead: refused,
        membership: async () => '',
        person: refused,
      }),
    });
    await down.engine.fillUsers(FINAL, false);
    const read = await down.get(`/api/users?${q(FINAL)}`);
    expect(read.status).toBe(503);
    expect(read.headers['retry-after']).toBe('5');
    // The CSV's first rows are read before it starts: the same answer, not a download cut short.
    const csv = await down.get(`/api/users.csv?${q(FINAL)}`);
    expect([csv.status, csv.headers['retry-after']]).toEqual([503, '5']);
    for (const r of [walk, read, csv]) {
      expect(r.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      const { requestId } = JSON.parse(r.body) as { requestId: string };
      expect(lines.some((l) => l.includes(requestId) && l.includes(internal))).toBe(true);
    }
  });
});

/** A harness whose tables say each table asked for: its range and version. */
async function recorded(store: StoreDb, more: Partial<Parameters<typeof createUsersRoutes>[0]> = {}) {
  const asked: { r: DayRange; version: string }[] = [];
  let real!: (tables: ReturnType<typeof createUsersTables>) => void;
  const h = await harness(store, 20, { ...more, tables: new Promise((ok) => (real = ok)) });
  real({
    ...h.tables,
    get: (r, version, spec) => {
      asked.push({ r, version });
      return h.tables.get(r, version, spec);
    },
  });
  return { h, built: () => asked.map((a) => a.r), versions: () => new Set(asked.map((a) => a.version)) };
}

describe('the tables built ahead', () => {
  it('are built once their days are stored, `/tokens` included, and a pass never waits for a walk', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    try {
      let tokensStored = false;
      const { h, built } = await recorded(store, {
        spend: {
          list: () => EUR_10,
          // Filling the range's `/tokens` days: a walk that does not end while the test runs.
          version: () => (tokensStored ? Promise.resolve('priced') : new Promise<string>(() => undefined)),
          stored: async () => tokensStored,
        },
      });
      const week = lastDays(7, LATEST);
      await h.engine.fillUsers(week, false);
      // The week's `/users` days are in, its `/tokens` days are not: the pass ends without building it.
      await h.routes.warm();
      expect(built()).toEqual([]);
      tokensStored = true;
      await h.routes.warm();
      expect(built()).toEqual([week]);
    } finally {
      await store.close();
    }
  });
});

describe('a table made ahead', () => {
  it('waits for a moment when no reader is being answered', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    try {
      let quiet!: () => void;
      let asked = 0;
      const { h, built } = await recorded(store, {
        idle: () => {
          asked++;
          return new Promise<void>((ok) => (quiet = ok));
        },
      });
      const week = lastDays(7, LATEST);
      await h.engine.fillUsers(week, false);
      const pass = h.routes.warm();
      await vi.waitFor(() => expect(asked).toBe(1));
      expect(built()).toEqual([]);
      quiet();
      await pass;
      expect(built()).toEqual([week]);
    } finally {
      await store.close();
    }
  });
});

describe('a range’s table across syncs', () => {
  it('is kept while the sync stores its days again as they were, and made again once they hold other rows', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    try {
      const { h, versions } = await recorded(store);
      await h.engine.fillUsers(RECENT, false);
      const first = await h.table(q(RECENT));
      // The refresh window walked again: the service sends what it sent.
      await h.engine.fillUsers(RECENT, true);
      expect(await h.table(q(RECENT))).toEqual(first);
      expect(versions().size).toBe(1);
      // A row of the latest day changed in the store (as a later walk would store it): the table is made again.
      const [row] = await store.db
        .selectFrom('user_day')
        .select(['user_id', 'row'])
        .where('day', '=', LATEST)
        .limit(1)
        .execute();
      const changed = { ...userRowSchema.parse(JSON.parse(row!.row)), sessions: 999 };
      await store.db
        .updateTable('user_day')
        .set({ row: JSON.stringify(changed) })
        .where('day', '=', LATEST)
        .where('user_id', '=', row!.user_id)
        .execute();
      await store.db.updateTable('users_day').set({ synced_at: 'later' }).where('day', '=', LATEST).execute();
      await h.table(q(RECENT));
      expect(versions().size).toBe(2);
    } finally {
      await store.close();
    }
  });
});

describe('the users endpoints in the app', () => {
  it('are there when the server keeps a store, and answer 404 when each reader brings a key', async () => {
    const env = { DEMO_TODAY: TODAY, DEMO_USERS: '12', DEMO_REPOS: '1', DEMO_SEED: 'users-app' };
    const config = readServerConfig(env);
    const store = await openStore({ dataDir: ':memory:' });
    try {
      const { handler } = createApp(config, { store });
      const base = await listen(createServer((req, res) => handler(req, res, () => res.end('spa'))));
      const r = await get(base, `/api/users?${q(FINAL)}`);
      expect(r.status).toBe(200);
      expect(usersTableSchema.parse(JSON.parse(r.body)).activeUsers).toBeGreaterThan(0);
      expect(r.headers['x-content-type-options']).toBe('nosniff');

      const keyless = createApp(readServerConfig({ ANALYTICS_BASE_URL: 'http://127.0.0.1:9' }));
      const kb = await listen(createServer((req, res) => keyless.handler(req, res, () => res.end('spa'))));
      const none = await get(kb, `/api/users?${q(FINAL)}`);
      expect(none.status).toBe(404);
      expect(JSON.parse(none.body)).toMatchObject({ title: 'Not Found', detail: 'No such endpoint.' });
    } finally {
      await store.close();
    }
  });
});
