/**
 * Operating the server: the probes (`/livez`, `/readyz`, `/metrics`), the host names it answers for (DNS
 * rebinding), where state-changing requests may come from, and the configuration of an IPv6 listener.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { raw } from '../test/http';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { readServerConfig } from './config';
import { readCoreConfig } from './core/config';
import type { Peer } from './core/forwarded';
import { createHostGuard } from './core/hosts';
import { createLogger } from './core/log';
import { createMetrics, routeOf } from './core/metrics';
import { openStore, type StoreDb } from './store/db';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function startApp(env: Record<string, string>, opts: { store?: StoreDb; lines?: string[] } = {}) {
  const config = readServerConfig({ DEMO_TODAY: '2026-06-01', DEMO_USERS: '20', DEMO_REPOS: '3', ...env });
  const logger = createLogger((l) => opts.lines?.push(l));
  const app = createApp(config, { logger, store: opts.store, metrics: createMetrics() });
  const s = createServer((req, res) => app.handler(req, res, () => res.end('spa')));
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  apps.set(`http://127.0.0.1:${(s.address() as AddressInfo).port}`, app);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const apps = new Map<string, ReturnType<typeof createApp>>();

/** A request with these headers, reaching the server at `port`. */
const asRequest = (headers: Record<string, string>, port?: number) =>
  ({ headers, socket: { localPort: port } }) as unknown as IncomingMessage;

describe('host names', () => {
  it('answers loopback names, HOST, PUBLIC_URL and ALLOWED_HOSTS, and no other', () => {
    const g = createHostGuard({
      host: '10.0.0.5',
      publicUrl: new URL('https://dash.example.com'),
      allowedHosts: 'proxy.internal, Other.Example',
    });
    for (const host of [
      'localhost:5173',
      '127.0.0.1',
      '[::1]:80',
      '10.0.0.5:5173',
      'dash.example.com',
      'proxy.internal:8080',
      'other.example',
    ])
      expect(g.hostAllowed(asRequest({ host })), host).toBe(true);
    for (const host of ['rebound.example', 'dash.example.com.evil', '127.0.0.2', '', 'a b'])
      expect(g.hostAllowed(asRequest({ host })), host).toBe(false);
    expect(g.hostAllowed(asRequest({}))).toBe(false);
  });

  it('adds no wildcard listener to its names; ALLOWED_HOSTS=* turns the check off', () => {
    // HOST=0.0.0.0 without PUBLIC_URL makes the default public address http://0.0.0.0:port.
    const wildcard = createHostGuard({ host: '0.0.0.0', publicUrl: readCoreConfig({ HOST: '0.0.0.0' }).publicUrl });
    expect(wildcard.hostAllowed(asRequest({ host: '0.0.0.0:8080' }))).toBe(false);
    expect(wildcard.names).toEqual(['localhost', '127.0.0.1', '[::1]']);
    // Listed with a port, or in capitals, or as an IPv6 address: the name is what counts.
    const listed = createHostGuard({
      host: '127.0.0.1',
      allowedHosts: 'dash.example.com:8443,DASH2.example.com,fd00::5',
    });
    for (const host of ['dash.example.com', 'dash2.example.com:80', '[fd00::5]:8080'])
      expect(listed.hostAllowed(asRequest({ host })), host).toBe(true);
    expect(createHostGuard({ host: '::1' }).hostAllowed(asRequest({ host: '[::1]:5173' }))).toBe(true);
    expect(
      createHostGuard({ host: '0.0.0.0', allowedHosts: '*' }).hostAllowed(asRequest({ host: 'any.example' })),
    ).toBe(true);
  });

  it('takes a change from its own names only, compared by Origin, never by the Host it came with', () => {
    const g = createHostGuard({ host: '127.0.0.1' });
    // A page on a name that resolves to 127.0.0.1 sends its own Origin and the same Host.
    expect(g.originAllowed(asRequest({ host: 'rebound.example', origin: 'http://rebound.example' }))).toBe(false);
    expect(g.originAllowed(asRequest({ origin: 'http://127.0.0.1:5173' }, 5173))).toBe(true);
    // An opaque origin (a sandboxed frame, a page under no-referrer) says nothing of where it came from.
    expect(g.originAllowed(asRequest({ origin: 'null' }))).toBe(false);
    expect(g.originAllowed(asRequest({ origin: 'null', 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(g.originAllowed(asRequest({ 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(g.originAllowed(asRequest({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:9999' }))).toBe(false);
    expect(g.originAllowed(asRequest({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost:5173' }, 5173))).toBe(
      true,
    );
    // curl and scripts send neither.
    expect(g.originAllowed(asRequest({}))).toBe(true);
  });

  it('takes a change from an origin the server is reached at: its scheme, name and port', () => {
    const g = createHostGuard({ host: '127.0.0.1', allowedHosts: 'dash.internal' });
    const from = (origin: string, port = 5173, peer?: Peer) =>
      g.originAllowed(asRequest({ host: `127.0.0.1:${port}`, origin }, port), peer);
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:5173',
      'http://[::1]:5173',
      'http://dash.internal:5173',
    ])
      expect(from(origin), origin).toBe(true);
    // Another program on the same machine, on another port, is another site; so is https, which the server does not speak.
    for (const origin of [
      'http://localhost:9999',
      'http://127.0.0.1',
      'https://127.0.0.1:5173',
      'http://127.0.0.1:5173/x',
    ])
      expect(from(origin), origin).toBe(false);
    // A default port is the scheme's.
    expect(from('http://localhost', 80)).toBe(true);
    expect(from('http://localhost:80', 80)).toBe(true);
    // PUBLIC_URL's origin, whatever port the server listens on behind it; its name elsewhere is not it.
    const pub = createHostGuard({ host: '0.0.0.0', publicUrl: new URL('https://dash.example.com/dashboard') });
    const at = (origin: string, peer?: Peer) =>
      pub.originAllowed(asRequest({ host: 'dash.example.com', origin }, 8080), peer);
    expect(at('https://dash.example.com')).toBe(true);
    expect(at('https://dash.example.com:444')).toBe(false);
    expect(at('http://dash.example.com')).toBe(false);
    // Behind a trusted proxy, the scheme and host it says the reader used.
    const proxied = createHostGuard({ host: '127.0.0.1', allowedHosts: 'dash.example.com' });
    const via = (origin: string, peer: Peer) =>
      proxied.originAllowed(asRequest({ host: '127.0.0.1:8080', origin }, 8080), peer);
    const peer: Peer = { address: '198.51.100.7', hidden: false, proto: 'https', host: 'dash.example.com:8443' };
    expect(via('https://dash.example.com:8443', peer)).toBe(true);
    expect(via('https://dash.example.com', peer)).toBe(false);
    expect(via('https://dash.example.com', { ...peer, host: 'dash.example.com' })).toBe(true);
    expect(via('https://dash.example.com', { address: '127.0.0.1', hidden: false })).toBe(false);
  });

  it('refuses a page under another name over HTTP, and a change posted from one (421, 403)', async () => {
    const base = await startApp({});
    const rebound = await raw(base, '/api/config', { headers: { host: 'rebound.example:5173' } });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).detail).toMatch(/ALLOWED_HOSTS/);
    expect((await raw(base, '/api/config')).status).toBe(200);
    const posted = await raw(base, '/api/teams/mapping', {
      method: 'PUT',
      headers: { origin: 'http://rebound.example:5173', 'content-type': 'text/csv' },
    });
    expect(posted.status).toBe(403);
    expect(JSON.parse(posted.body).detail).toMatch(/dashboard’s own pages/);
  });
});

describe('probes', () => {
  it('/livez, /readyz and /api/health answer for any host, without a log line each', async () => {
    const lines: string[] = [];
    const store = await openStore({ dataDir: ':memory:' });
    const base = await startApp({}, { store, lines });
    for (const path of ['/livez', '/readyz', '/api/health']) {
      const r = await raw(base, path, { headers: { host: '10.1.2.3:8080' } });
      expect(r.status, path).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ status: 'ok' });
    }
    expect(lines.filter((l) => /"msg":"request"/.test(l))).toEqual([]);
    await store.close();
  });

  it('/readyz answers 503 naming what is not ready: a store that does not answer', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const base = await startApp({}, { store });
    await store.close();
    const r = await raw(base, '/readyz');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).detail).toBe('Not ready: store: it does not answer.');
    // /livez still answers: the process is alive, only not ready.
    expect((await raw(base, '/livez')).status).toBe(200);
  });

  it('/readyz answers 503 once the server is told to stop, so that readers are sent elsewhere', async () => {
    const base = await startApp({});
    expect((await raw(base, '/readyz')).status).toBe(200);
    apps.get(base)!.drain();
    const r = await raw(base, '/readyz');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).detail).toBe('Not ready: server: stopping.');
    expect((await raw(base, '/livez')).status).toBe(200);
  });

  it('/metrics counts requests by route, and the service’s answers by endpoint and status, retries apart', async () => {
    const base = await startApp({ DEMO_FAULTS: 'tokens.model=429x1' });
    const path = '/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-02&group_by=model';
    expect((await raw(base, path)).status).toBe(200);
    await raw(base, '/api/users/usr_0123abc');
    await raw(base, '/no/such/thing.png');
    // Refused before any route (421, 403), or unknown: never a label of their own.
    await raw(base, '/api/aaa/bbb', { headers: { host: 'rebound.example' } });
    await raw(base, '/api/ccc/ddd', { method: 'POST', headers: { origin: 'http://evil.example' } });
    await raw(base, '/auth/eee');
    const m = (await raw(base, '/metrics')).body;
    expect(m).toMatch(
      /^dashboard_http_requests_total\{route="\/api\/v1\/analytics\/tokens",method="GET",status="200"\} 1$/m,
    );
    expect(m).toMatch(/^dashboard_upstream_requests_total\{endpoint="\/api\/v1\/analytics\/tokens",status="429"\} 1$/m);
    expect(m).toMatch(/^dashboard_upstream_requests_total\{endpoint="\/api\/v1\/analytics\/tokens",status="200"\} 1$/m);
    expect(m).toMatch(/^dashboard_upstream_retries_total\{endpoint="\/api\/v1\/analytics\/tokens"\} 1$/m);
    expect(m).toMatch(/^dashboard_http_request_duration_seconds_count\{route="\/api\/v1\/analytics\/tokens"\} 1$/m);
    // An id or an unknown path never becomes a label of its own.
    expect(m).not.toMatch(/usr_0123abc|thing\.png|aaa|ccc|eee/);
    expect(m).toMatch(/^dashboard_http_requests_total\{route="other",method="GET",status="421"\} 1$/m);
    expect(m).toMatch(/^dashboard_http_requests_total\{route="other",method="POST",status="403"\} 1$/m);
  });

  it('/metrics names each route of the table by its path, a pattern by its label, whichever feature it belongs to', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const base = await startApp({}, { store });
    for (const path of [
      '/api/health',
      '/api/me',
      '/api/readiness',
      '/api/marks?start=2026-05-01&end=2026-05-31',
      '/api/teams/analytics/tools?startDate=2026-05-29&endDate=2026-05-30',
      '/api/users/usr_0123abc?start=2026-05-29&end=2026-05-30',
    ])
      expect((await raw(base, path)).status, path).toBeLessThan(500);
    // Routes of a pattern whatever their method (the router's type asks each pattern for its label).
    for (const path of ['/api/marks/m-1', '/api/alert-rules/r-1'])
      expect((await raw(base, path, { method: 'DELETE' })).status, path).toBeLessThan(500);
    const m = (await raw(base, '/metrics')).body;
    for (const route of [
      '/api/health',
      '/api/me',
      '/api/readiness',
      '/api/marks',
      '/api/teams/analytics/:endpoint',
      '/api/users/:id',
    ])
      expect(m, route).toContain(`dashboard_http_requests_total{route="${route}",method="GET"`);
    for (const route of ['/api/marks/:id', '/api/alert-rules/:id'])
      expect(m, route).toContain(`dashboard_http_requests_total{route="${route}",method="DELETE"`);
    expect(m).not.toMatch(/route="other"|usr_0123abc/);
    await store.close();
  });

  it('/metrics reports the sync’s lag and what is stored, from the store', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const base = await startApp({}, { store });
    await raw(base, '/api/v1/analytics/tokens?startDate=2026-05-29&endDate=2026-05-30&group_by=model');
    const m = (await raw(base, '/metrics')).body;
    // The latest day is 2026-05-31; the newest stored 2026-05-30.
    expect(m).toMatch(/^dashboard_sync_lag_days\{endpoint="tokens",group_by="model"\} 1$/m);
    expect(m).toMatch(/^dashboard_store_days\{endpoint="tokens",group_by="model"\} 2$/m);
    expect(m).toMatch(/^dashboard_sync_last_error_timestamp_seconds 0$/m);
    await store.close();
  });

  it('/metrics still answers when the store cannot be read, saying the store is down', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const base = await startApp({}, { store });
    expect((await raw(base, '/metrics')).body).toMatch(/^dashboard_store_up 1$/m);
    await store.close();
    await new Promise((r) => setTimeout(r, 1100)); // past the scrape's one-second reuse
    const m = await raw(base, '/metrics');
    expect(m.status).toBe(200);
    expect(m.body).toMatch(/^dashboard_http_requests_total\{route="\/metrics",method="GET",status="200"\} 1$/m);
    expect(m.body).toMatch(/^dashboard_store_up 0$/m);
  });

  it('/metrics asks for METRICS_TOKEN when it is set', async () => {
    const base = await startApp({ METRICS_TOKEN: 's3cret-token' });
    expect((await raw(base, '/metrics')).status).toBe(401);
    expect((await raw(base, '/metrics', { headers: { authorization: 'Bearer wrong-token!' } })).status).toBe(401);
    const ok = await raw(base, '/metrics', { headers: { authorization: 'Bearer s3cret-token' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('names routes from a fixed list and the route table’s labels', () => {
    const table = (p: string) => (p === '/api/teams/summary' ? p : undefined);
    expect(routeOf('/api/v1/analytics/users', table)).toBe('/api/v1/analytics/users');
    expect(routeOf('/api/teams/summary', table)).toBe('/api/teams/summary');
    expect(routeOf('/api/teams/summary')).toBe('other');
    expect(routeOf('/assets/index-3f2a.js')).toBe('/assets');
    expect(routeOf('/users/usr_1')).toBe('page');
    expect(routeOf('/api/whatever/x')).toBe('other');
    expect(routeOf('/auth/whatever')).toBe('other');
  });
});

describe('request ids', () => {
  it('keeps a valid X-Request-Id from a proxy in front: in the answer, the log and the request to the service', async () => {
    const seen: (string | undefined)[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.headers['x-request-id'] as string | undefined);
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"title":"Service Unavailable","status":503}');
    });
    servers.push(upstream);
    await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', () => ok()));
    const lines: string[] = [];
    const base = await startApp(
      { ANALYTICS_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, UPSTREAM_RETRIES: '0' },
      { lines },
    );
    const path = '/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-02';
    const kept = await raw(base, path, { headers: { 'x-request-id': 'edge-7f3a:42', authorization: 'Bearer k' } });
    expect(kept.headers['x-request-id']).toBe('edge-7f3a:42');
    expect(seen).toEqual(['edge-7f3a:42']);
    const refused = await raw(base, '/api/nothing-here', { headers: { 'x-request-id': 'edge-7f3a:43' } });
    expect(JSON.parse(refused.body).requestId).toBe('edge-7f3a:43');
    expect(lines.some((l) => l.includes('"requestId":"edge-7f3a:42"'))).toBe(true);
    // Too long, or with characters a log or a header should not carry: a new id of our own.
    for (const bad of ['x'.repeat(129), 'a b', 'id\u00e9']) {
      const r = await raw(base, '/api/nothing-here', { headers: { 'x-request-id': bad } });
      expect(JSON.parse(r.body).requestId).toMatch(/^req_[0-9A-Z]{26}$/);
      expect(r.headers['x-request-id']).toBe(JSON.parse(r.body).requestId);
    }
  });
});

describe('configuration', () => {
  it('HOST=::1 without PUBLIC_URL makes a valid address (it crashed with Invalid URL)', () => {
    expect(readCoreConfig({ HOST: '::1', PORT: '5173' }).publicUrl.href).toBe('http://[::1]:5173/');
  });

  it('refuses a stop timeout that is not a number of milliseconds', () => {
    expect(readCoreConfig({ SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).toBe(2500);
    expect(() => readCoreConfig({ SHUTDOWN_TIMEOUT_MS: 'abc' })).toThrow(
      'SHUTDOWN_TIMEOUT_MS must be a number of milliseconds (0–600000)',
    );
  });
});
