/**
 * What readers' pages read, made ahead of them: a server that syncs in the background says it is ready (`/readyz`)
 * once the presets' users tables are made and, restarted on a store holding days, its first sync run is done; and a
 * mapping saved or removed here is answered once what the users pages read for it is made (each person's team and
 * access, who is in grace).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { lastDays, type DayRange } from '../lib/dates';
import { startApp } from '../test/app-server';
import { raw } from '../test/http';
import type { Mapping } from './teams/mapping';

/** The mappings the users tables made everything ahead for, each once that making had finished. */
const aheadFor: (Mapping | null)[] = [];
/** The ranges of the users tables made, each once made. */
const tables: DayRange[] = [];
vi.mock('./analytics/users', async (original) => {
  const real = await original<typeof import('./analytics/users')>();
  return {
    ...real,
    createUsersTables: (...args: Parameters<typeof real.createUsersTables>) => {
      const t = real.createUsersTables(...args);
      return {
        ...t,
        ahead: async (...a: Parameters<typeof t.ahead>) => {
          await t.ahead(...a);
          aheadFor.push(a[1]);
        },
        get: async (...a: Parameters<typeof t.get>) => {
          const made = await t.get(...a);
          tables.push(a[0]);
          return made;
        },
      };
    },
  };
});

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const DEMO = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'made-ahead', DEMO_USERS: '20', DEMO_REPOS: '2' };

const start = (env: Record<string, string>) => startApp({ ...DEMO, ...env });

describe('made ahead of readers', () => {
  it('is ready once the presets’ users tables are made, and on a restart its first sync run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'made-ahead-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // The store holds the last 90 days (a sync's), the copy not yet.
    const filler = await start({ DATA_DIR: dir, SYNC_BACKGROUND: '0', ANALYTICS_FILE: 'temporary' });
    await filler.app.sync!.fillUsers(lastDays(90, '2026-03-31'), false);
    await filler.stop();

    // The service slow to answer: the sync's run outlasts the copy's catch-up.
    const server = await start({ DATA_DIR: dir, SYNC_BACKGROUND: '1', DEMO_LATENCY_MS: '300' });
    cleanups.push(server.stop);
    // As main.ts does: the sync walks what is missing and its latest days again.
    server.app.scheduler!.start();
    cleanups.push(() => server.app.scheduler!.stop());
    let ready = 0;
    for (let i = 0; i < 3000 && (ready = (await raw(server.base, '/readyz')).status) !== 200; i++)
      await new Promise((ok) => setTimeout(ok, 5));
    expect(ready).toBe(200);
    expect(server.app.scheduler!.status().last?.finishedAt).toBeDefined();
    const made = tables.map((r) => `${r.start}..${r.end}`);
    for (const days of [30, 7, 90]) {
      const r = lastDays(days, '2026-03-31');
      expect(made, `the last ${days} days`).toContain(`${r.start}..${r.end}`);
    }
  });

  it('answers a saved or removed mapping once the users pages’ tables for it are made', async () => {
    const server = await start({ DATA_DIR: ':memory:', SYNC_BACKGROUND: '0' });
    cleanups.push(server.stop);
    const put = await fetch(`${server.base}/api/teams/mapping`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.com,Data\n' }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(aheadFor.at(-1)?.teams).toEqual(['Data']);
    const before = aheadFor.length;

    const removed = await fetch(`${server.base}/api/teams/mapping`, { method: 'DELETE' });
    expect(removed.status, await removed.clone().text()).toBe(200);
    // The demo's own mapping is in force again, and was made for before the answer.
    expect(aheadFor.length).toBe(before + 1);
    expect(aheadFor.at(-1)?.teams).not.toContain('Data');
  });
});
