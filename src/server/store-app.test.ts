/**
 * The dashboard server with its store, over HTTP: the documented paths come
 * from the store, identical to the demo service's own answers, a second visit
 * asks the service nothing, and a faulty upstream (the demo's injected faults)
 * never leaves a half-stored day.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { readStoreConfig } from './store/config';
import type { StoreDb } from './store/db';

const servers: Server[] = [];
const stores: StoreDb[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  await Promise.all(stores.map((s) => s.close()));
});

function get(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', () => resolve({ status: -1, body }));
      res.on('aborted', () => resolve({ status: -1, body }));
    });
    req.on('error', () => resolve({ status: -1, body: '' }));
    req.end();
  });
}

async function start(env: Record<string, string>) {
  const full = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'app-store', DEMO_USERS: '60', DATA_DIR: ':memory:', ...env };
  const config = readServerConfig(full);
  const storeConfig = readStoreConfig(full);
  const store = (await openAppStore(config, storeConfig))!;
  stores.push(store);
  const app = createApp(config, { store, storeConfig });
  const reference = createApp(readServerConfig({ ...full, DEMO_FAULTS: '' }));
  const s = createServer((req, res) => app.handler(req, res, () => res.end()));
  const r = createServer((req, res) => reference.handler(req, res, () => res.end()));
  servers.push(s, r);
  const base = await new Promise<string>((ok) =>
    s.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
  const ref = await new Promise<string>((ok) =>
    r.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(r.address() as AddressInfo).port}`)),
  );
  const sync = async () =>
    JSON.parse((await get(base, '/api/sync')).body) as {
      upstreamRequests: number;
      stored: { analytics: { endpoint: string; groupBy: string | null; days: number }[] };
    };
  return { base, ref, sync, app };
}

const march = '?startDate=2026-03-01&endDate=2026-03-31';

describe('the server with its store', () => {
  it('answers from the store as the service does, and asks the service nothing on a second visit', async () => {
    const { base, ref, sync } = await start({});
    const paths = [
      `/api/v1/analytics/tokens${march}`,
      `/api/v1/analytics/tokens${march}&group_by=model`,
      `/api/v1/analytics/tools${march}&group_by=tool_name`,
      `/api/v1/analytics/activity${march}`,
      `/api/v1/analytics/productivity${march}`,
    ];
    for (const p of paths) {
      const [mine, theirs] = await Promise.all([get(base, p), get(ref, p)]);
      expect(mine.status).toBe(200);
      expect(JSON.parse(mine.body)).toEqual(JSON.parse(theirs.body));
    }
    const before = (await sync()).upstreamRequests;
    for (const p of paths) expect((await get(base, p)).status).toBe(200);
    expect((await sync()).upstreamRequests).toBe(before);
    // Parameters the store does not model go to the service, which answers with its documented 400.
    const bad = await get(base, '/api/v1/analytics/tokens?startDate=2026-03-01&endDate=2026-02-01');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).detail).toContain('is before startDate');
  });

  it('answers a request carrying a key of its own with the service, never from the store', async () => {
    const { base } = await start({});
    expect((await get(base, `/api/v1/analytics/productivity${march}`)).status).toBe(200);
    const member = await new Promise<number>((resolve) => {
      const req = request(
        `${base}/api/v1/analytics/productivity${march}`,
        { headers: { authorization: 'Bearer demo-member' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.end();
    });
    expect(member).toBe(403);
  });

  it('relays injected faults as the service gave them and stores a day only once it arrived whole', async () => {
    const { base, ref, sync } = await start({
      DEMO_FAULTS: 'tokens=truncatedx1,tools=schemax1,activity=malformedx1,productivity=500x1',
      UPSTREAM_RETRIES: '0',
    });
    const cases = [
      ['tokens', ''],
      ['tools', ''],
      ['activity', ''],
      ['productivity', ''],
    ] as const;
    for (const [endpoint] of cases) {
      const first = await get(base, `/api/v1/analytics/${endpoint}${march}`);
      const stored = (await sync()).stored.analytics.find((a) => a.endpoint === endpoint && a.groupBy === null);
      expect(stored, `${endpoint}: nothing stored after a fault`).toBeUndefined();
      if (endpoint === 'tokens') expect(first.status).toBe(-1); // cut off on the wire, as the service's was
      if (endpoint === 'tools') expect(first.body).toMatch(/"tool_calls":"\d+"/); // the broken field, relayed
      if (endpoint === 'activity') expect(() => JSON.parse(first.body)).toThrow(SyntaxError);
      if (endpoint === 'productivity') expect(first.status).toBe(500);
      const second = await get(base, `/api/v1/analytics/${endpoint}${march}`);
      const theirs = await get(ref, `/api/v1/analytics/${endpoint}${march}`);
      expect(second.status).toBe(200);
      expect(JSON.parse(second.body)).toEqual(JSON.parse(theirs.body));
      const after = (await sync()).stored.analytics.find((a) => a.endpoint === endpoint && a.groupBy === null);
      expect(after?.days).toBe(31);
    }
  });
});

describe('the teams', () => {
  it("serves the demo organization's tree: top-level teams and Unassigned add up to every user", async () => {
    const { base } = await start({ DEMO_USERS: '150', DEMO_TODAY: '2026-03-01' });
    // The store knows the users it has stored: fill a month of them first.
    const fill = await get(base, '/api/users?start=2026-02-01&end=2026-02-28');
    expect([200, 202]).toContain(fill.status);
    for (let i = 0; i < 50 && (await get(base, '/api/users?start=2026-02-01&end=2026-02-28')).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const teams = JSON.parse((await get(base, '/api/teams')).body) as {
      source: string;
      teams: { path: string; members: number; managers: string[]; children: { members: number }[] }[];
      unassigned: number;
      users: number;
    };
    expect(teams.source).toBe('demo');
    expect(teams.users).toBeGreaterThan(20);
    expect(teams.unassigned).toBeGreaterThan(0);
    // A team's people are everyone the mapping names in it, whether or not they have used the agent yet;
    // Unassigned, the known users it does not name. Together they hold at least every known user.
    expect(teams.teams.reduce((n, t) => n + t.members, 0) + teams.unassigned).toBeGreaterThanOrEqual(teams.users);
    for (const t of teams.teams) {
      expect(t.members).toBeGreaterThanOrEqual(t.children.reduce((n, c) => n + c.members, 0));
      expect(t.managers.length).toBeGreaterThan(0);
    }
  });
});
