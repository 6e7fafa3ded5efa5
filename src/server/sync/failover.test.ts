/**
 * PostgreSQL going away under a sync (a real process, `npm run sync`'s code, on a cluster of this file's own):
 * its connections terminated again and again mid-backfill, or the server stopped and started mid-sync. The
 * process stays up, the steps that failed are tried again once the store is back, and the store ends holding
 * exactly the service's answers; meanwhile a reader is told 503 (the store cannot be reached), and the pool
 * comes back by itself.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../api/paths';
import { createCluster, findPgBins, type Cluster } from '../../test/postgres-setup';
import { pgAvailable, pgSkipReason } from '../../test/postgres';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { faultKind } from '../core/errors';
import { createDemoService } from '../demo/service';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { createSyncEngine, DAY_ENDPOINTS, type DayEndpoint } from './engine';
import { createStoreAnswerer } from './serve';

const ENV = {
  DEMO_SEED: 'failover',
  DEMO_USERS: '600',
  DEMO_REPOS: '3',
  DEMO_TODAY: '2026-03-05',
  DEMO_FAULTS: '',
  SYNC_REFRESH_DAYS: '2',
};
/** Five steps of the backfill, each a walk of six `/users` pages. */
const RANGE = { start: '2026-01-01', end: '2026-02-28' };
const demo = createDemoService(readServerConfig(ENV).demo!);
const LATEST = demo.latestDay();
/** The demo's own answer: the reference the store is held to. */
const direct = (path: string, search: string) =>
  demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } });

/** What the process-level handlers caught in this test process (a connection's unhandled 'error' would be one). */
const unhandled: unknown[] = [];
const record = (e: unknown) => void unhandled.push(e);

let cluster: Cluster | undefined;
beforeAll(async () => {
  process.on('uncaughtException', record).on('unhandledRejection', record);
  if (pgAvailable()) cluster = await createCluster(findPgBins()!, { crashSafe: true });
}, 60_000);
afterAll(() => {
  process.off('uncaughtException', record).off('unhandledRejection', record);
  cluster?.destroy();
});

async function database(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster!.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(cluster!.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `npm run sync` over the range, slowed (each answer 100 ms) so that the faults land mid-sync. */
function runSync(url: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/server/sync-cli.ts', '--from', RANGE.start, '--to', RANGE.end],
    { env: { ...process.env, ...ENV, DEMO_LATENCY_MS: '100', DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      running = false;
      resolve(signal ? -1 : code);
    }),
  );
  const lines = () =>
    log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { exited, log: () => log, lines, running: () => running };
}

/** Days stored so far, or 0 while the store cannot be read (not made yet, or down). */
async function daysStored(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return Number((await client.query('select count(*) as n from day_answer')).rows[0].n);
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(test: () => Promise<boolean>, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await test()); await sleep(25)) {
    if (Date.now() > deadline) throw new Error('timed out');
  }
}

async function walkUsers(get: (search: string) => Promise<{ body: string } | null>) {
  const rows: unknown[] = [];
  for (let cursor: string | undefined, i = 0; i < 100; i++) {
    const q = new URLSearchParams({ startDate: RANGE.start, endDate: RANGE.end, limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const body = JSON.parse((await get(`?${q}`))!.body) as {
      data: unknown[];
      meta: { has_more: boolean; next_cursor?: string };
    };
    rows.push(...body.data);
    if (!body.meta.has_more) return rows;
    cursor = body.meta.next_cursor;
  }
  throw new Error('walk did not end');
}

/** The store answers every day-based path and `/users` over the range as the service does, asking it nothing. */
async function expectComplete(store: StoreDb) {
  const asked: string[] = [];
  const engine = createSyncEngine(store, async (path, search) => (asked.push(path + search), direct(path, search)), {
    latestDay: () => LATEST,
    refreshDays: 2,
    maxSpanDays: 31,
    usersPageSize: 100,
    reportsPageSize: 100,
  });
  const answer = createStoreAnswerer(store, engine, () => LATEST);
  for (const [endpoint, groupings] of Object.entries(DAY_ENDPOINTS)) {
    for (const g of groupings) {
      const search = `?${new URLSearchParams({ startDate: RANGE.start, endDate: RANGE.end, ...(g ? { group_by: g } : {}) })}`;
      const path = PATHS[endpoint as DayEndpoint];
      expect(JSON.parse((await answer(path, search))!.body), `${endpoint} ${g}`).toEqual(
        JSON.parse(direct(path, search).body),
      );
    }
  }
  expect(await walkUsers((s) => answer(PATHS.users, s))).toEqual(await walkUsers(async (s) => direct(PATHS.users, s)));
  expect(asked).toEqual([]);
  const reports = await store.db.selectFrom('readiness_report').select('report_id').orderBy('seq').execute();
  const all = JSON.parse(direct(PATHS.readiness, '?limit=100000').body) as { reports: { reportId: string }[] };
  expect(reports.map((r) => r.report_id)).toEqual(all.reports.map((r) => r.reportId));
}

/** A server of the dashboard on the same store (a replica, or the server beside `npm run sync`). */
async function reader(url: string) {
  const env = { ...ENV, DATABASE_URL: url, SYNC_BACKGROUND: '0' };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  const store = (await openAppStore(config, storeConfig))!;
  const app = createApp(config, { store, storeConfig });
  const server = createServer((req, res) => app.handler(req, res, () => res.end()));
  const base = await new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  const get = async (path: string) => {
    const r = await fetch(base + path);
    return { status: r.status, headers: r.headers, body: await r.text() };
  };
  const close = async () => {
    await new Promise((r) => server.close(r));
    await app.close();
    await store.close();
  };
  return { store, get, close };
}

/** How the sync fared, from its log: the steps that failed and were tried again, and those it gave up on. */
function failures(lines: Record<string, unknown>[]) {
  const failed = lines.filter((l) => l.msg === 'sync step failed');
  return { retried: failed.filter((l) => l.retryInMs !== undefined).length, given: failed.length };
}

describe.skipIf(!pgAvailable())(
  `PostgreSQL going away under a sync${pgAvailable() ? '' : ` (${pgSkipReason})`}`,
  () => {
    it('its connections terminated again and again mid-backfill: the sync stays up and stores everything', async () => {
      const url = await database('terminated');
      const sync = runSync(url);
      await until(async () => (await daysStored(url)) > 0);
      const admin = new pg.Client({ connectionString: url });
      admin.on('error', () => undefined);
      await admin.connect();
      const terminated: number[] = [];
      const started = performance.now();
      while (sync.running() && terminated.length < 20) {
        const r = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        terminated.push(r.rowCount ?? 0);
        await sleep(250);
      }
      await admin.end();
      expect(await sync.exited, sync.log()).toBe(0);
      const done = sync.lines().find((l) => l.msg === 'sync done');
      expect(done, sync.log()).toBeDefined();
      // The kills hit the sync's connections, and none ended it (an unhandled 'error' event exits with 1).
      expect(terminated.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
      const f = failures(sync.lines());
      expect(f.retried).toBe(f.given);
      console.info(
        `terminated ${terminated.reduce((a, b) => a + b)} connections in ${terminated.length} rounds; ` +
          `${f.retried} fills tried again; the sync ended ${Math.round(performance.now() - started)} ms after the first round`,
      );

      const check = await reader(url);
      try {
        await expectComplete(check.store);
      } finally {
        await check.close();
      }
      expect(unhandled).toEqual([]);
    }, 120_000);

    it('the server stopped and started mid-sync: readers get 503 meanwhile, then the sync goes on and stores everything', async () => {
      const url = await database('restarted');
      const page = '/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-07';
      const replica = await reader(url);
      try {
        const sync = runSync(url);
        await until(async () => (await daysStored(url)) > 0);
        await cluster!.stop('immediate');

        // Down: a reader is told so, with Retry-After, and the probe says so within its 2 s.
        const r = await replica.get(page);
        expect(r.status, r.body).toBe(503);
        expect(r.headers.get('retry-after')).toBe('5');
        expect((JSON.parse(r.body) as { detail: string }).detail).toMatch(/The store cannot be reached just now/);
        const ping = await replica.store.ping().then(
          () => 'answered',
          (e: unknown) => faultKind(e),
        );
        expect(ping).toBe('store-unavailable');
        await sleep(2_000);
        expect(sync.running(), sync.log()).toBe(true);

        await cluster!.start();
        const up = performance.now();
        // The pool comes back by itself: dead connections are replaced.
        await until(() =>
          replica.store.ping().then(
            () => true,
            () => false,
          ),
        );
        const pingBack = performance.now() - up;
        await until(async () => (await replica.get(page)).status === 200);
        const readerBack = performance.now() - up;
        expect(await sync.exited, sync.log()).toBe(0);
        const syncDone = performance.now() - up;
        expect(
          sync.lines().find((l) => l.msg === 'sync done'),
          sync.log(),
        ).toBeDefined();
        const f = failures(sync.lines());
        expect(f.retried).toBeGreaterThan(0);
        expect(f.retried).toBe(f.given);
        console.info(
          `after the restart: the pool answered in ${Math.round(pingBack)} ms, a reader in ${Math.round(readerBack)} ms, ` +
            `the sync ended after ${Math.round(syncDone)} ms; ${f.retried} fills tried again`,
        );
        expect(JSON.parse((await replica.get(page)).body)).toEqual(
          JSON.parse(direct(PATHS.tokens, page.slice(page.indexOf('?'))).body),
        );
        await expectComplete(replica.store);
      } finally {
        await replica.close();
      }
      expect(unhandled).toEqual([]);
    }, 120_000);
  },
);
