/**
 * `GET /api/readiness/friction` over HTTP on the e2e demo organization: the answer's shape, its teams the outermost
 * owning teams of the readiness answer's repositories, each shown criterion's sides of three teams or more with
 * their figures, a hidden one's without; a bad range a 400; and, signed in, a viewer refused, a manager kept to
 * their teams (RESTRICT_ORG_VIEW or not).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { frictionAnswerSchema, FRICTION_PATH } from '../../api/friction';
import { readinessAnswerSchema } from '../../api/readiness';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { isWithin } from '../teams/tree';

const ENV = { DEMO_TODAY: '2026-06-01', DEMO_SEED: 'acme', DATA_DIR: ':memory:' };
const servers: Server[] = [];
const stores: StoreDb[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  await Promise.all(stores.map((s) => s.close()));
});

async function serve(env: Record<string, string>) {
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  const store = (await openAppStore(config, storeConfig))!;
  stores.push(store);
  const app = createApp(config, { store, storeConfig, logger: createLogger(() => {}) });
  const s = createServer((req, res) => app.handler(req, res, () => res.end('the page')));
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('readiness priced in friction over HTTP', () => {
  it('compares the outermost owning teams of the demo, sides of three teams or more with figures', async () => {
    const base = await serve(ENV);
    const range = 'start=2026-05-02&end=2026-05-31';
    const res = await fetch(`${base}${FRICTION_PATH}?${range}`);
    expect(res.status).toBe(200);
    const a = frictionAnswerSchema.parse(await res.json());
    const readiness = readinessAnswerSchema.parse(await (await fetch(`${base}/api/readiness`)).json());
    const owners = [...new Set(readiness.repos.flatMap((r) => (r.team ? [r.team] : [])))];
    const outer = owners.filter((t) => !owners.some((o) => o !== t && isWithin(t, o)));
    expect(a.teams).toBe(outer.length);
    expect(a.minTeams).toBe(3);
    expect(a.range).toEqual({ start: '2026-05-02', end: '2026-05-31' });
    for (const c of a.criteria) {
      expect(c.shown).toBe(c.failing.teams >= 3 && c.passing.teams >= 3);
      for (const side of [c.failing, c.passing]) {
        expect(side.names.length).toBe(side.teams);
        for (const t of side.names) expect(outer).toContain(t);
        if (!c.shown) expect(side.toolCallsPerTurn).toBeNull();
      }
    }
    // The demo's mapping gives enough teams on both sides for the view to show.
    expect(a.criteria.some((c) => c.shown)).toBe(true);
    const bad = await fetch(`${base}${FRICTION_PATH}?start=2026-05-31&end=2026-05-02`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toMatch(/start/);
  }, 120_000);
});
