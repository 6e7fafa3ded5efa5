/**
 * The store's read worker: a real worker thread reading the embedded store's file beside the
 * server's connection gives exactly the merged users the server's own thread reads, and a thread
 * that cannot start hands its reads back to the server's thread, logged once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/log';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { createSyncEngine, type Fetched } from '../sync/engine';
import { openStore } from './db';
import { claimStore } from './queries';
import { parsePrices, priceOf } from '../spend/prices';
import { createReadWorker, type StoreReads } from './read-worker';
import { mergedUsers } from './users-queries';
import { userRowSchema } from '../../api/schemas';
import { mergeUserRows, type MergedUser } from '../../lib/user-merge';

const demo = createDemoService({
  seed: 'read-worker',
  users: 50,
  repos: 2,
  reportsPerRepo: 2,
  today: '2026-03-20',
  keys: DEFAULT_KEYS,
});
const dir = mkdtempSync(join(tmpdir(), 'read-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function logs() {
  const lines: string[] = [];
  return { lines, logger: createLogger((l) => void lines.push(l)) };
}

describe('the store read worker', async () => {
  const store = await openStore({ dataDir: dir, file: 'store.sqlite' });
  afterAll(() => store.close());
  await claimStore(store.db, 'demo seed=read-worker');
  const fetcher = async (path: string, search: string): Promise<Fetched> => {
    const r = demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } });
    return r;
  };
  const engine = createSyncEngine(store, fetcher, {
    latestDay: () => demo.latestDay(),
    refreshDays: 2,
    maxSpanDays: 31,
    usersPageSize: 20,
    reportsPageSize: 10,
  });
  const RANGES = [
    { start: '2026-02-01', end: '2026-02-28' },
    { start: '2026-02-20', end: '2026-03-19' },
    { start: '2026-03-05', end: '2026-03-05' },
  ];
  for (const r of RANGES) {
    await engine.fillUsers(r, false);
    await engine.fillDays('tokens', '', r, false);
  }
  const here: StoreReads = {
    mergedUsers: (s, e) => mergedUsers(store.db, s, e),
    spendByUser: () => Promise.reject(new Error('not in this thread')),
  };
  const PRICES = parsePrices(
    '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}, {"from": "2026-02-15", "tier": "thinking", "perMillionCredits": 20}]}',
  );
  if (!PRICES.ok) throw new Error('the test prices are refused');
  const LIST = PRICES.prices;

  /** Each user's spend over the range, priced from the service's own `/tokens` answer. */
  function serviceSpend(start: string, end: string): Map<string, number> {
    const body = JSON.parse(
      demo.handle({
        method: 'GET',
        url: `/api/v1/analytics/tokens?startDate=${start}&endDate=${end}`,
        headers: { authorization: 'Bearer demo-owner' },
      }).body,
    ) as {
      data: {
        date: string;
        by_user: { user_id: string; by_model: { model_id: string; model_tier: string; billable_tokens: number }[] }[];
      }[];
    };
    const out = new Map<string, number>();
    for (const d of body.data)
      for (const u of d.by_user)
        for (const m of u.by_model)
          out.set(
            u.user_id,
            (out.get(u.user_id) ?? 0) + (m.billable_tokens * priceOf(LIST, d.date, m.model_id, m.model_tier)) / 1e6,
          );
    return out;
  }

  /** The browser's merge of the range's stored rows, in day order (as a walk of `/users` gives them). */
  async function browserMerge(start: string, end: string): Promise<MergedUser[]> {
    const rows = await store.db
      .selectFrom('user_day')
      .select('row')
      .where('day', '>=', start)
      .where('day', '<=', end)
      .orderBy('day')
      .orderBy('user_id')
      .execute();
    return mergeUserRows(rows.map((r) => userRowSchema.parse(JSON.parse(r.row)))).sort((a, b) =>
      a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0,
    );
  }

  /**
   * The thread's table is the browser's merge of the stored rows exactly, and the server thread's
   * (grouped in SQL, its sums in another order) to the last digits of the weighted autonomy ratio.
   */
  async function expectTable(table: MergedUser[], start: string, end: string) {
    expect(table).toEqual(await browserMerge(start, end));
    const sql = await mergedUsers(store.db, start, end);
    expect(table.map((u) => u.userId)).toEqual(sql.map((u) => u.userId));
    for (const [i, u] of table.entries()) {
      expect(u.autonomyRatio).toBeCloseTo(sql[i]!.autonomyRatio, 9);
      expect({ ...u, autonomyRatio: 0 }).toEqual({ ...sql[i]!, autonomyRatio: 0 });
    }
  }

  it('reads in a thread of its own exactly what the server’s thread reads, several reads at once', async () => {
    const { lines, logger } = logs();
    const reads = createReadWorker(
      join(dir, 'store.sqlite'),
      { mergedUsers: () => Promise.reject(new Error('not here')), spendByUser: here.spendByUser },
      logger,
    );
    try {
      expect(reads.state()).toBe('idle');
      // Started ahead of the first read (a server that syncs in the background does so).
      reads.start();
      expect(reads.state()).toBe('worker');
      const answers = await Promise.all(RANGES.map((r) => reads.mergedUsers(r.start, r.end)));
      expect(reads.state()).toBe('worker');
      for (const [i, r] of RANGES.entries()) {
        expect(answers[i]!.length).toBeGreaterThan(0);
        await expectTable(answers[i]!, r.start, r.end);
      }
      // Each person's spend, priced in the thread from the stored `/tokens` days, is the service's priced.
      for (const r of RANGES) {
        const spent = await reads.spendByUser(r.start, r.end, LIST);
        const expected = serviceSpend(r.start, r.end);
        expect([...spent.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [id, v] of expected) expect(Math.abs(spent.get(id)! - v)).toBeLessThanOrEqual(1e-9 * Math.max(1, v));
      }
      // What the sync writes later is read too (the worker's connection sees the server's writes).
      const later = { start: '2026-01-20', end: '2026-01-31' };
      expect(await reads.mergedUsers(later.start, later.end)).toEqual([]);
      await engine.fillUsers(later, false);
      const after = await reads.mergedUsers(later.start, later.end);
      expect(after.length).toBeGreaterThan(0);
      await expectTable(after, later.start, later.end);
      expect(lines).toEqual([]);
    } finally {
      await reads.close();
    }
  });

  it('reads days ahead into its memory while it has room, and not at all without', async () => {
    const r = RANGES[0]!;
    const roomy = createReadWorker(join(dir, 'store.sqlite'), here, logs().logger);
    const full = createReadWorker(join(dir, 'store.sqlite'), here, logs().logger, { maxBytes: 1 });
    try {
      expect(await roomy.preload('users', r.start, r.end)).toBe(true);
      expect(await roomy.preload('tokens', r.start, r.end)).toBe(true);
      expect(await full.preload('users', r.start, r.end)).toBe(false);
      // Either way the tables are the same.
      await expectTable(await roomy.mergedUsers(r.start, r.end), r.start, r.end);
      await expectTable(await full.mergedUsers(r.start, r.end), r.start, r.end);
    } finally {
      await Promise.all([roomy.close(), full.close()]);
    }
  });

  it('does one read at a time, the ones a reader waits for before the tables built ahead', async () => {
    const { logger } = logs();
    const reads = createReadWorker(join(dir, 'store.sqlite'), here, logger);
    try {
      const done: string[] = [];
      const r = RANGES[0]!;
      const read = (name: string, background: boolean) =>
        reads.mergedUsers(r.start, r.end, background).then((u) => {
          expect(u.length).toBeGreaterThan(0);
          done.push(name);
        });
      // The first read ahead is handed to the thread at once; the reader's read goes before the others.
      await Promise.all([read('ahead 1', true), read('ahead 2', true), read('ahead 3', true), read('reader', false)]);
      expect(done).toEqual(['ahead 1', 'reader', 'ahead 2', 'ahead 3']);
    } finally {
      await reads.close();
    }
  });

  it('hands the reads back to the server’s thread when the thread cannot open the store, and says so once', async () => {
    const { lines, logger } = logs();
    const r = RANGES[0]!;
    const reads = createReadWorker(join(dir, 'no-such-store.sqlite'), here, logger);
    try {
      expect(await reads.mergedUsers(r.start, r.end)).toEqual(await mergedUsers(store.db, r.start, r.end));
      expect(reads.state()).toBe('in-process');
      expect(await reads.mergedUsers(r.start, r.end)).toHaveLength(
        (await mergedUsers(store.db, r.start, r.end)).length,
      );
      const logged = lines.filter((l) => l.includes('store read worker stopped'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/no-such-store\.sqlite: unable to open database file/);
    } finally {
      await reads.close();
    }
  });
});
