/**
 * The analytics copy across restarts, on both stores: beside PostgreSQL a replica keeps its copy in its own folder
 * (DATA_DIR or ANALYTICS_FILE) as the embedded store's server does beside its file, a restart copies only the days
 * that changed, and `/readyz` sends no reader to a server whose copy has not caught up with the store.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../test/app-server';
import { raw } from '../test/http';
import { freshDatabase, pgAvailable } from '../test/postgres';
import { putUsersDay } from '../test/store-days';
import { createLogger } from './core/log';
import { readStoreConfig } from './store/config';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const DEMO = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'copy-restart', DEMO_USERS: '30', DEMO_REPOS: '2' };
const RANGE = { start: '2026-01-19', end: '2026-03-31' };

/** A server on the store `env` names, as main.ts makes it; its log's lines, and how to stop it. */
async function start(env: Record<string, string>) {
  const lines: { msg: string; days?: number; file?: string }[] = [];
  const started = await startApp(
    { ...DEMO, ...env },
    createLogger((l) => lines.push(JSON.parse(l))),
  );
  return { ...started, lines };
}

/** `/readyz` asked every few milliseconds until it answers 200; the answers before that. */
async function untilReady(base: string) {
  const before: { status: number; body: string }[] = [];
  for (let i = 0; i < 3000; i++) {
    const r = await raw(base, '/readyz');
    if (r.status === 200) return before;
    before.push(r);
    await new Promise((ok) => setTimeout(ok, 5));
  }
  throw new Error('never ready');
}

const caughtUp = (lines: { msg: string; days?: number }[]) =>
  lines.filter((l) => l.msg === 'the analytics copy caught up with the store').map((l) => l.days);

describe('where the analytics copy is kept', () => {
  it('beside PostgreSQL: DATA_DIR when it is set, ANALYTICS_FILE above all, else a temporary file', () => {
    const pg = { DATABASE_URL: 'postgres://u@db/dashboard' };
    expect(readStoreConfig({ ...pg, DATA_DIR: '/data' }).analyticsFile).toBe(join('/data', 'analytics.duckdb'));
    expect(readStoreConfig({ ...pg }).analyticsFile).toBe('temporary');
    expect(readStoreConfig({ ...pg, DATA_DIR: '/data', ANALYTICS_FILE: '/copy/a.duckdb' }).analyticsFile).toBe(
      '/copy/a.duckdb',
    );
    // Beside the embedded store, its folder's own (app.ts), unless ANALYTICS_FILE says otherwise.
    expect(readStoreConfig({ DATA_DIR: '/data' }).analyticsFile).toBeUndefined();
    expect(readStoreConfig({ ANALYTICS_FILE: '/copy/a.duckdb' }).analyticsFile).toBe('/copy/a.duckdb');
  });
});

describe('a server on an empty store', () => {
  it('is ready at once: it has nothing to copy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'copy-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await start({ DATA_DIR: dir, SYNC_BACKGROUND: '1' });
    expect((await raw(server.base, '/readyz')).status).toBe(200);
    await server.stop();
  });
});

const ENGINES = [
  { name: 'the embedded store', available: true, url: async () => undefined },
  {
    name: 'PostgreSQL',
    available: pgAvailable(),
    url: async () => {
      const d = (await freshDatabase())!;
      cleanups.push(d.drop);
      return d.url;
    },
  },
];

describe.each(ENGINES)('a restarted server on $name', ({ available, url }) => {
  it.skipIf(!available)(
    'keeps its copy in its folder, copies at start only the days that changed, and is ready only once caught up',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'copy-restart-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const databaseUrl = await url();
      const env = { DATA_DIR: dir, ...(databaseUrl && { DATABASE_URL: databaseUrl }) };
      // The store filled by a sync, its server's copy elsewhere (a command's, say).
      const filler = await start({ ...env, SYNC_BACKGROUND: '0', ANALYTICS_FILE: 'temporary' });
      await filler.app.sync!.fillUsers(RANGE, false);
      await filler.app.sync!.fillDays('tokens', '', RANGE, false);
      await filler.stop();
      const days = 2 * 72;

      // The first start makes the copy: readers are kept away until it holds every stored day.
      const first = await start({ ...env, SYNC_BACKGROUND: '1' });
      const waited = await untilReady(first.base);
      expect(waited.length).toBeGreaterThan(0);
      expect(waited[0]!.status).toBe(503);
      expect(JSON.parse(waited[0]!.body).detail).toContain('analytics copy: catching up with the store');
      // Every stored day (those a reader's first page copied meanwhile apart).
      expect(caughtUp(first.lines)).toHaveLength(1);
      expect(caughtUp(first.lines)[0]).toBeGreaterThan(days / 2);
      expect((await raw(first.base, '/metrics')).body).toMatch(/^dashboard_analytics_copy_caught_up 1$/m);
      await first.stop();
      expect(existsSync(join(dir, 'analytics.duckdb'))).toBe(true);

      // Started again on its kept copy: nothing to copy.
      const second = await start({ ...env, SYNC_BACKGROUND: '1' });
      await untilReady(second.base);
      expect(caughtUp(second.lines)).toEqual([0]);
      // A day the sync wrote again while it was stopped is the one day copied at the next start.
      await putUsersDay(second.store, '2026-03-02', [], 'rewritten');
      await second.stop();
      const third = await start({ ...env, SYNC_BACKGROUND: '1' });
      await untilReady(third.base);
      expect(caughtUp(third.lines)).toEqual([1]);
      const page = await raw(third.base, '/api/users?start=2026-03-02&end=2026-03-02');
      expect(page.status).toBe(200);
      expect(JSON.parse(page.body).total).toBe(0);
      await third.stop();
    },
  );
});
