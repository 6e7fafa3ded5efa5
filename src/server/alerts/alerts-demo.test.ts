/**
 * The people's rules on the demo organization's own days, through the store and the analytics copy: a person's
 * day far above their usual opens the alert the week's highlights name for that day (the same rule), and a
 * day later, that day no longer the latest, it resolves.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highlightsSchema } from '../../api/insights';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { addAlertRule, listAlerts } from '../store/alerts-queries';

let store: StoreDb;
let server: Server;
let base: string;
let app: ReturnType<typeof createApp>;
let latest = '2026-05-11';

beforeAll(async () => {
  const env = { DEMO_TODAY: '2026-05-13', DATA_DIR: ':memory:' };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  app = createApp(config, { store, storeConfig });
  // The latest day, moved on by the test (the demo's clock is its start's).
  app.demo!.latestDay = () => latest;
  server = createServer((req, res) => app.handler(req, res, () => res.end()));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server.close();
  await app.close();
  await store.close();
});

describe('a person’s day far above their usual, on the demo’s days', () => {
  it('opens the alert the highlights name for the latest day, and resolves it the day after', async () => {
    await addAlertRule(store.db, { kind: 'person-day', scope: '', threshold: null, enabled: true }, null);
    const opened = await app.alerts!.check();
    expect(opened.day).toBe('2026-05-11');
    expect(opened.opened.length).toBeGreaterThan(0);
    const highlights = highlightsSchema.parse(await (await fetch(`${base}/api/highlights`)).json());
    expect(highlights.complete).toBe(true);
    // Each alert's person has a highlighted day of the week: this one (the highlights list the largest five).
    const spikes = highlights.highlights.filter((h) => h.kind === 'spike').map((h) => h.title);
    for (const a of opened.opened.slice(0, 1)) {
      expect(a.link).toBe(`/users/${encodeURIComponent(a.key)}?start=2026-04-14&end=2026-05-11`);
      const who = a.summary.split(' used ')[0]!;
      expect(spikes.some((t) => t.startsWith(`${who} used `) && t.endsWith('on May 11, 2026'))).toBe(true);
    }
    // The same day again: nothing new.
    expect((await app.alerts!.check()).opened).toEqual([]);
    // The next day: the alerts of May 11 resolve, but for the people whose May 12 is far above their usual too.
    const before = (await listAlerts(store.db, 100)).open;
    latest = '2026-05-12';
    const next = await app.alerts!.check();
    const after = (await listAlerts(store.db, 100)).open;
    // Each of May 11's alerts is either resolved or still open (its person far above their usual on May 12 too).
    const resolved = new Set(next.resolved.map((r) => r.id));
    for (const a of before) expect(resolved.has(a.id) !== after.some((x) => x.id === a.id)).toBe(true);
    expect(next.resolved.length).toBeGreaterThan(0);
    expect(
      after
        .filter((a) => a.opened_day === '2026-05-12')
        .map((a) => a.key)
        .sort(),
    ).toEqual(next.opened.map((a) => a.key).sort());
  }, 60_000);
});
