/**
 * The store and its sync, against both engines: the embedded SQLite store and a
 * real PostgreSQL (a throwaway cluster the test run starts). The demo service
 * is the upstream, called in-process, so its answers are the reference.
 */
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../api/paths';
import { addDays, daysBetween, eachDay, HISTORY_START, type Day } from '../../lib/dates';
import { freshDatabase, pgAvailable, pgSkipReason } from '../../test/postgres';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { openStore, type StoreDb } from '../store/db';
import { MIGRATION_NAMES, migrateToLatest } from '../store/migrations';
import { claimStore, knownUser, storedDays, StoreMismatchError, writeUsersPage } from '../store/queries';
import type { Schema } from '../store/schema';
import { dayAnswerCount, emailOf } from '../store/teams-queries';
import { createSyncEngine, DAY_ENDPOINTS, type DayEndpoint, type Fetched, type SyncOptions } from './engine';
import { createStoreAnswerer } from './serve';
import { STORE_ENGINES } from '../../test/stores';

const TODAY = '2026-03-20';
const demo = createDemoService({
  seed: 'store-test',
  users: 40,
  repos: 6,
  reportsPerRepo: 8,
  today: TODAY,
  keys: DEFAULT_KEYS,
});
const LATEST = demo.latestDay();

/** The demo's own answer: the reference every store answer is held to. */
const direct = (path: string, search: string) =>
  demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } });

/** An upstream that counts what it is asked, and can be made to fail. */
function upstream() {
  const asked: string[] = [];
  let fail: ((path: string, search: string) => Fetched | undefined) | undefined;
  const fetcher = async (path: string, search: string): Promise<Fetched> => {
    asked.push(path + search);
    return fail?.(path, search) ?? direct(path, search);
  };
  return {
    asked,
    fetcher,
    failWith: (f: typeof fail) => (fail = f),
  };
}

function setup(store: StoreDb, more: Partial<SyncOptions> = {}) {
  const up = upstream();
  const engine = createSyncEngine(store, up.fetcher, {
    latestDay: () => LATEST,
    refreshDays: 2,
    maxSpanDays: 31,
    usersPageSize: 7,
    reportsPageSize: 10,
    ...more,
  });
  const answer = createStoreAnswerer(store, engine, () => LATEST);
  return { up, engine, answer };
}

const day = fc.integer({ min: 0, max: daysBetween(HISTORY_START, LATEST) }).map((n) => addDays(HISTORY_START, n));
const range = fc.tuple(day, day).map(([a, b]) => (a <= b ? { start: a, end: b } : { start: b, end: a }));
const endpointAndGrouping = fc.constantFrom(
  ...Object.entries(DAY_ENDPOINTS).flatMap(([e, gs]) => gs.map((g) => [e as DayEndpoint, g] as const)),
);
const q = (p: Record<string, string | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v) s.set(k, v);
  return `?${s}`;
};

async function walkUsers(get: (search: string) => Promise<{ body: string } | null>, start: Day, end: Day, limit = 9) {
  const rows: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get(q({ startDate: start, endDate: end, limit: String(limit), cursor }));
    if (!r) return null;
    const body = JSON.parse(r.body) as { data: unknown[]; meta: { has_more: boolean; next_cursor?: string } };
    rows.push(...body.data);
    if (!body.meta.has_more) return rows;
    cursor = body.meta.next_cursor;
  }
  throw new Error('walk did not end');
}

const engines = STORE_ENGINES;

describe.each(engines)('the store on $name', ({ available, open }) => {
  let store: StoreDb;
  let url: string | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  /** Each test starts from an empty store of its own. */
  beforeEach(async () => {
    if (!available) return;
    const opened = (await open()) as { store: StoreDb; drop: () => Promise<void>; url?: string };
    ({ store, url } = opened);
    await claimStore(store.db, 'demo seed=store-test');
    cleanups.push(async () => {
      await opened.store.close();
      await opened.drop();
    });
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it.skipIf(!available)(
    `migrates an empty store, then finds nothing to do on an existing one${available ? '' : ` (${pgSkipReason})`}`,
    async () => {
      // openStore migrated it; a second run on the same store applies nothing and keeps what is there.
      expect(await migrateToLatest(store.db as never)).toEqual([]);
      const tables = await store.db.introspection.getTables();
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['upstream', 'day_answer', 'user_day', 'users_day', 'users_walk', 'readiness_report']),
      );
      expect(MIGRATION_NAMES).toContain('0001_initial');
      if (url) {
        const again = await openStore({ databaseUrl: url });
        await claimStore(again.db, 'demo seed=store-test');
        await again.close();
      }
    },
  );

  it.skipIf(!available)("gives a user's latest email, not the greatest (their team follows it)", async () => {
    const row = (day: string, email: string | null) => ({
      day,
      user_id: 'u-moved',
      user_email: email,
      row: '{}',
    });
    const days = ['2026-02-01', '2026-02-02', '2026-02-03'].map((day) => ({ day, final: true }));
    await writeUsersPage(
      store.db,
      { start: '2026-02-01', end: '2026-02-03', days },
      [row('2026-02-01', 'zed@old.example'), row('2026-02-02', 'amy@new.example'), row('2026-02-03', null)],
      null,
      1,
      'org-1',
    );
    expect(await emailOf(store, 'u-moved')).toBe('amy@new.example');
    expect(await emailOf(store, 'nobody')).toBeNull();
  });

  it.skipIf(!available)('answers the day-based paths exactly as the service does, for random ranges', async () => {
    const { answer } = setup(store);
    await fc.assert(
      fc.asyncProperty(endpointAndGrouping, range, async ([endpoint, grouping], r) => {
        const search = q({ startDate: r.start, endDate: r.end, group_by: grouping });
        const fromStore = await answer(PATHS[endpoint], search);
        const reference = direct(PATHS[endpoint], search);
        expect(fromStore?.status).toBe(200);
        expect(JSON.parse(fromStore!.body)).toEqual(JSON.parse(reference.body));
      }),
      { numRuns: 40 },
    );
  });

  it.skipIf(!available)(
    'asks for a stored final range never again, and for missing days one request per span',
    async () => {
      const { answer, up } = setup(store);
      const search = q({ startDate: '2026-02-01', endDate: '2026-02-10' });
      await answer(PATHS.productivity, search);
      up.asked.length = 0;
      await answer(PATHS.productivity, search);
      expect(up.asked).toEqual([]);
      // Two overlapping ranges at once, around the stored one: whichever fills first, no day is asked for
      // twice, and each side costs one request per contiguous span.
      up.asked.length = 0;
      await Promise.all([
        answer(PATHS.productivity, q({ startDate: '2026-01-25', endDate: '2026-02-15' })),
        answer(PATHS.productivity, q({ startDate: '2026-01-28', endDate: '2026-02-12' })),
      ]);
      const days = up.asked
        .filter((a) => a.startsWith(PATHS.productivity))
        .flatMap((a) => {
          const p = new URLSearchParams(a.split('?')[1]);
          return eachDay(p.get('startDate')!, p.get('endDate')!);
        });
      expect(days.sort()).toEqual([...eachDay('2026-01-25', '2026-01-31'), ...eachDay('2026-02-11', '2026-02-15')]);
      expect(up.asked.length).toBeLessThanOrEqual(4);
    },
  );

  it.skipIf(!available)(
    'relays a failed or broken answer, stores nothing of it, and fills the span on the next try',
    async () => {
      const { answer, up } = setup(store);
      const search = q({ startDate: '2026-03-01', endDate: '2026-03-05', group_by: 'tool_name' });
      for (const broken of [
        { status: 500, headers: {}, body: '{"title":"Internal Server Error","status":500}' },
        { status: 200, headers: {}, body: '{"data":[{"date":"2026-03-01","group_key":"Read","tool_calls":"12"}]' },
        { ...direct(PATHS.tools, search), incomplete: true },
      ]) {
        up.failWith(() => broken);
        const r = await answer(PATHS.tools, search);
        expect(r).toEqual(broken);
      }
      up.failWith(undefined);
      const ok = await answer(PATHS.tools, search);
      expect(JSON.parse(ok!.body)).toEqual(JSON.parse(direct(PATHS.tools, search).body));
    },
  );

  it.skipIf(!available)(
    'walks /users page by page, resumes a broken walk from its cursor, and stores each row once',
    async () => {
      const { engine, answer, up } = setup(store);
      const r = { start: '2026-02-01', end: '2026-02-28' };
      // Not stored yet: the service answers, and a walk starts behind it.
      let pages = 0;
      up.failWith((path) =>
        path === PATHS.users && ++pages === 3 ? { status: 503, headers: {}, body: '{}' } : undefined,
      );
      await expect(engine.fillUsers(r, false)).rejects.toThrow('The service answered 503');
      const resumedFrom = up.asked.filter((a) => a.startsWith(PATHS.users)).at(-1)!;
      up.failWith(undefined);
      up.asked.length = 0;
      await engine.fillUsers(r, false);
      // The walk went on from the cursor of the last page written, not from the start.
      expect(up.asked[0]).toBe(resumedFrom);
      const fromStore = await walkUsers((s) => answer(PATHS.users, s), r.start, r.end);
      const reference = await walkUsers(async (s) => direct(PATHS.users, s), r.start, r.end);
      expect(fromStore).toEqual(reference);
      const count = await store.db
        .selectFrom('user_day')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('day', '>=', r.start)
        .where('day', '<=', r.end)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(reference!.length);
    },
  );

  it.skipIf(!available)(
    'a saved walk overlapped by a newer one starts again: no day is marked stored without its rows',
    async () => {
      const { engine, answer, up } = setup(store);
      const a = { start: '2026-03-06', end: '2026-03-19' };
      const b = { start: '2026-02-18', end: '2026-03-19' };
      const failOnPage = (n: number) => {
        let pages = 0;
        up.failWith((path) =>
          path === PATHS.users && ++pages === n ? { status: 503, headers: {}, body: '{}' } : undefined,
        );
      };
      failOnPage(4);
      await expect(engine.fillUsers(a, false)).rejects.toThrow('The service answered 503');
      failOnPage(2);
      await expect(engine.fillUsers(b, false)).rejects.toThrow('The service answered 503');
      up.failWith(undefined);
      await engine.fillUsers(a, false);
      const fromStore = await walkUsers((s) => answer(PATHS.users, s), a.start, a.end);
      const reference = await walkUsers(async (s) => direct(PATHS.users, s), a.start, a.end);
      expect(fromStore).toEqual(reference);
    },
  );

  it.skipIf(!available)('says whether a range is stored without asking the service', async () => {
    const { engine, up } = setup(store);
    const r = { start: '2026-02-01', end: '2026-02-05' };
    expect(await engine.daysStored('tools', '', r)).toBe(false);
    await engine.fillDays('tools', '', { start: r.start, end: '2026-02-04' }, false);
    const asked = up.asked.length;
    // One day short, then whole; another grouping of the same endpoint is not.
    expect(await engine.daysStored('tools', '', r)).toBe(false);
    await engine.fillDays('tools', '', r, false);
    expect(await engine.daysStored('tools', '', r)).toBe(true);
    expect(await engine.daysStored('tools', 'tool_name', r)).toBe(false);
    expect(up.asked.length).toBe(asked + 1);
  });

  it.skipIf(!available)(
    'serves /users only for days whose walk is complete; meanwhile the service answers',
    async () => {
      const { answer } = setup(store);
      const r = await answer(PATHS.users, q({ startDate: '2026-01-14', endDate: '2026-01-31' }));
      expect(r).toBeNull();
    },
  );

  it.skipIf(!available)('keeps readiness reports in the service order and fetches only newer ones', async () => {
    const { answer, up } = setup(store);
    const page = async (search: string) => answer(PATHS.readiness, search);
    const all: unknown[] = [];
    const ref: unknown[] = [];
    let after: string | undefined;
    let refAfter: string | undefined;
    for (;;) {
      const mine = JSON.parse((await page(q({ limit: '25', startAfter: after })))!.body) as {
        reports: { reportId: string }[];
      };
      const theirs = JSON.parse(direct(PATHS.readiness, q({ limit: '25', startAfter: refAfter })).body) as {
        reports: { reportId: string }[];
      };
      all.push(...mine.reports);
      ref.push(...theirs.reports);
      if (mine.reports.length < 25) break;
      after = mine.reports.at(-1)!.reportId;
      refAfter = theirs.reports.at(-1)!.reportId;
    }
    expect(all).toEqual(ref);
    up.asked.length = 0;
    await page(q({ limit: '25' }));
    expect(up.asked).toEqual([]);
  });

  it.skipIf(!available)('refuses to serve another organization than the one it holds', async () => {
    await expect(claimStore(store.db, 'demo seed=another')).rejects.toThrow(StoreMismatchError);
    await expect(claimStore(store.db, 'demo seed=another')).rejects.toThrow(
      /holds the history of demo seed=store-test/,
    );
  });
});

describe.skipIf(!pgAvailable())('two servers on one PostgreSQL', () => {
  it('syncing the same range at once, store each day once and ask the service for it once', async () => {
    const d = (await freshDatabase())!;
    const a = await openStore({ databaseUrl: d.url });
    const b = await openStore({ databaseUrl: d.url });
    try {
      await claimStore(a.db, 'demo seed=store-test');
      await claimStore(b.db, 'demo seed=store-test');
      const one = setup(a);
      const two = setup(b);
      const r = { start: '2026-02-01', end: '2026-03-10' };
      const both = (s: ReturnType<typeof setup>) =>
        Promise.all([
          s.engine.fillDays('tokens', '', r, true),
          s.engine.fillDays('tools', 'tool_name', r, true),
          s.engine.fillUsers(r, true),
          s.engine.syncReadiness(),
        ]);
      await Promise.all([both(one), both(two)]);
      const asked = [...one.up.asked, ...two.up.asked];
      const tokens = asked.filter((x) => x.startsWith(`${PATHS.tokens}?`));
      // 38 days in spans of at most 31: two requests for the pair of servers, not four.
      expect(tokens).toHaveLength(2);
      const rows = await a.db
        .selectFrom('day_answer')
        .select(['endpoint', 'grouping', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['endpoint', 'grouping'])
        .execute();
      expect(rows.map((x) => [x.endpoint, x.grouping, Number(x.n)]).sort()).toEqual([
        ['tokens', '', 38],
        ['tools', 'tool_name', 38],
      ]);
      const users = await walkUsers((s) => one.answer(PATHS.users, s), r.start, r.end);
      const reference = await walkUsers(async (s) => direct(PATHS.users, s), r.start, r.end);
      expect(users).toEqual(reference);
      const reports = await a.db
        .selectFrom('readiness_report')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const all = JSON.parse(direct(PATHS.readiness, '?limit=100000').body) as { reports: unknown[] };
      expect(Number(reports.n)).toBe(all.reports.length);
    } finally {
      await a.close();
      await b.close();
      await d.drop();
    }
  });
});

describe('answers kept small', () => {
  it('asks for big days a few at a time once an answer has said how big a day is', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    try {
      await claimStore(store.db, 'demo seed=store-test');
      const { up, engine } = setup(store, { answerChars: 1 });
      const spans = () =>
        up.asked
          .splice(0)
          .filter((a) => a.startsWith(`${PATHS.tokens}?`))
          .map((a) => {
            const p = new URLSearchParams(a.split('?')[1]);
            return daysBetween(p.get('startDate') as Day, p.get('endDate') as Day) + 1;
          });
      // Nothing known yet: one request for the span.
      await engine.fillDays('tokens', '', { start: '2026-02-01', end: '2026-02-10' }, false);
      expect(spans()).toEqual([10]);
      // Every day is bigger than an answer may be: a day per request, each stored.
      await engine.fillDays('tokens', '', { start: '2026-02-01', end: '2026-02-14' }, false);
      expect(spans()).toEqual([1, 1, 1, 1]);
      // What is known of one endpoint says nothing of another: its span in one request.
      await engine.fillDays('tools', 'tool_name', { start: '2026-02-01', end: '2026-02-28' }, false);
      expect(up.asked.filter((a) => a.startsWith(`${PATHS.tools}?`))).toHaveLength(1);
      const stored = await storedDays(store.db, 'tokens', '', '2026-02-01', '2026-02-14');
      expect(stored).toHaveLength(14);
    } finally {
      await store.close();
    }
  });
});

describe('the embedded store’s reads of what is stored', () => {
  it('find which days are stored, final and when written from an index, never reading the answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-plan-'));
    const store = await openStore({ dataDir: dir, file: 'plan.sqlite' });
    // A second handle on the same file that logs each query: the very SQL the store functions run.
    const queries: { sql: string; parameters: readonly unknown[] }[] = [];
    const spy = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new SQLite(join(dir, 'plan.sqlite')) }),
      log: (e) => void queries.push(e.query),
    });
    try {
      await storedDays(spy, 'tokens', '', '2026-02-01', '2026-03-01');
      await dayAnswerCount(spy, 'tokens', '', '2026-02-01', '2026-03-01');
      expect(queries).toHaveLength(2);
      // The days' state from the index of it; their count from the primary key's index alone.
      const indexes = [
        /USING COVERING INDEX day_answer_state\b/,
        /USING COVERING INDEX sqlite_autoindex_day_answer_1\b/,
      ];
      for (const [i, q] of queries.splice(0).entries()) {
        const plan = await spy.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
        );
        expect(plan.rows.map((r) => r.detail).join('; '), q.sql).toMatch(indexes[i]!);
      }
      // A user's email, whether it knows a user: from the index by user, not the rows.
      queries.length = 0; // (the plans asked above are logged too)
      await emailOf({ db: spy }, 'u-1');
      await knownUser(spy, 'u-1');
      expect(queries).toHaveLength(2);
      for (const q of queries.splice(0)) {
        const plan = await spy.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
        );
        expect(plan.rows.map((r) => r.detail).join('; '), q.sql).toMatch(/USING COVERING INDEX user_day_user_email\b/);
      }
    } finally {
      await spy.destroy();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
