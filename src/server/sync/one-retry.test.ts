/**
 * The one retry policy with a store in front: a persistent failure of the service costs three upstream
 * calls (one and UPSTREAM_RETRIES=2) for a page view, however many of its requests need the same days,
 * and each reader gets the service's own answer, its request id included. (The demo's injected 429 is
 * retried as a 503 is, after its Retry-After of 1 s.)
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';

const closing: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of closing) await c();
});

async function start() {
  const env = {
    DEMO_TODAY: '2026-04-01',
    DEMO_SEED: 'one-retry',
    DEMO_USERS: '40',
    DATA_DIR: ':memory:',
    DEMO_FAULTS: 'tokens=429',
  };
  const config = readServerConfig(env);
  const storeConfig = { ...readStoreConfig(env), background: false };
  const store = (await openAppStore(config, storeConfig)) as StoreDb;
  const app = createApp(config, { store, storeConfig });
  // Every question the demo service is asked, by the proxy or by a fill.
  const asked: string[] = [];
  const handle = app.demo!.handle;
  app.demo!.handle = (req) => (asked.push(req.url), handle(req));
  const server: Server = createServer((req, res) => app.handler(req, res, () => res.end()));
  closing.push(() => new Promise((r) => server.close(r)), app.close, store.close);
  const base = await new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  const get = (path: string) =>
    new Promise<{ status: number; requestId: unknown; body: { requestId?: string; detail?: string } }>((resolve) =>
      request(`${base}${path}`, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'], body: JSON.parse(body) }),
        );
      }).end(),
    );
  return { get, asked };
}

describe('a persistent failure of the service, with a store', () => {
  it("costs three upstream calls for one request, answered with the service's own error", async () => {
    const { get, asked } = await start();
    const r = await get('/api/v1/analytics/tokens?startDate=2026-03-01&endDate=2026-03-14');
    expect(asked).toHaveLength(3);
    expect(r.status).toBe(429);
    expect(r.body.detail).toBe('Injected fault: too many requests.');
    expect(r.body.requestId).toBe(r.requestId);
  });

  it('costs three for a page asking for the range and the one before at once (the usage page with a store)', async () => {
    const { get, asked } = await start();
    const [range, previous] = await Promise.all([
      get('/api/teams/analytics/tokens?startDate=2026-03-15&endDate=2026-03-28'),
      get('/api/teams/analytics/tokens?startDate=2026-03-01&endDate=2026-03-14'),
    ]);
    expect(asked).toHaveLength(3);
    for (const r of [range, previous]) {
      expect(r.status).toBe(429);
      expect(r.body.detail).toBe('Injected fault: too many requests.');
    }
    // One refusal, told to both.
    expect(previous.body.requestId).toBe(range.body.requestId);
  });

  it('costs three for the same request asked twice at once', async () => {
    const { get, asked } = await start();
    const path = '/api/v1/analytics/tokens?startDate=2026-03-01&endDate=2026-03-14';
    const [a, b] = await Promise.all([get(path), get(path)]);
    expect(asked).toHaveLength(3);
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(b.body.requestId).toBe(a.body.requestId);
  });
});
