/**
 * The server against a misbehaving upstream: retries with backoff and
 * Retry-After, the concurrency cap, the demo's fault injection, and random
 * input that must never produce a 500.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { readServerConfig } from './config';
import { createLogger } from './core/log';
import { DEFAULT_KEYS } from './demo/auth';
import { breakSchema, parseFaults, pickFault } from './demo/faults';
import { makeHostile } from './demo/hostile';
import { createDemoService } from './demo/service';
import { demoListener } from './demo/transport';
import { Limiter, retryDelay } from './upstream/retry';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));
const listen = (s: Server) =>
  new Promise<string>((resolve) => {
    servers.push(s);
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
  });

async function startApp(env: Record<string, string>, lines: string[] = []) {
  const { handler } = createApp(readServerConfig(env), { logger: createLogger((l) => lines.push(l)) });
  return listen(createServer((req, res) => handler(req, res, () => res.end('spa'))));
}

function get(base: string, path: string, headers: Record<string, string> = {}) {
  const u = new URL(base);
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const tokens = '/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-02';

describe('retries', () => {
  let hits = 0;
  let mode = '';
  let upstream: string;
  let inFlight = 0;
  let maxInFlight = 0;
  beforeAll(async () => {
    upstream = await listen(
      createServer((_req, res) => {
        hits++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const done = (status: number, headers: Record<string, string> = {}, body = '{}') =>
          setTimeout(() => {
            inFlight--;
            res.writeHead(status, { 'content-type': 'application/json', ...headers });
            res.end(body);
          }, 20);
        if (mode === '503-once') return done(hits === 1 ? 503 : 200);
        if (mode === '429-after-1') return done(hits === 1 ? 429 : 200, hits === 1 ? { 'retry-after': '1' } : {});
        if (mode === '429-long') return done(429, { 'retry-after': '120' });
        if (mode === '500') return done(500, {}, '{"title":"x","detail":"y","status":500,"requestId":"req_1"}');
        if (mode === '502-always') return done(502);
        done(200);
      }),
    );
  });
  const reset = (m: string) => {
    mode = m;
    hits = 0;
    maxInFlight = 0;
  };

  it('retries a 503 and succeeds', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    reset('503-once');
    expect((await get(base, tokens)).status).toBe(200);
    expect(hits).toBe(2);
  });
  it('honours Retry-After on 429', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    reset('429-after-1');
    const t0 = Date.now();
    expect((await get(base, tokens)).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(hits).toBe(2);
  });
  it('passes a 429 with a long Retry-After straight back, with the header', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    reset('429-long');
    const r = await get(base, tokens);
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('120');
    expect(hits).toBe(1);
  });
  it('does not retry a 500, and gives up on a 502 after the bounded retries', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k', UPSTREAM_RETRIES: '2' });
    reset('500');
    expect((await get(base, tokens)).status).toBe(500);
    expect(hits).toBe(1);
    reset('502-always');
    expect((await get(base, tokens)).status).toBe(502);
    expect(hits).toBe(3);
  });
  it('caps concurrent upstream requests', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k', UPSTREAM_CONCURRENCY: '3' });
    reset('');
    const all = await Promise.all(Array.from({ length: 12 }, () => get(base, tokens)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(hits).toBe(12);
    expect(maxInFlight).toBeLessThanOrEqual(3);
  });
  it('never puts the key in error bodies or logs', async () => {
    const lines: string[] = [];
    const base = await startApp({ ANALYTICS_BASE_URL: 'http://127.0.0.1:9', API_KEY: 'super-secret-key-123' }, lines);
    const r = await get(base, tokens, { authorization: 'Bearer browser-secret-456' });
    expect(r.status).toBe(502);
    const all = r.body + JSON.stringify(r.headers) + lines.join('\n');
    expect(all).not.toContain('super-secret-key-123');
    expect(all).not.toContain('browser-secret-456');
  });
});

describe('retry policy', () => {
  const r = (status: number, headers: Record<string, string> = {}, local = false) => ({
    status,
    headers,
    body: '',
    local,
  });
  it.each([
    [r(503), 0, 2, true],
    [r(500), 0, 2, false],
    [r(404), 0, 2, false],
    [r(503), 2, 2, false],
    [r(504, {}, true), 0, 2, false],
    [r(429, { 'retry-after': '2' }), 0, 2, true],
    [r(429, { 'retry-after': '60' }), 0, 2, false],
  ])('%j attempt %i of %i retries → %s', (ans, attempt, retries, retry) => {
    expect(retryDelay(ans, attempt, retries) !== null).toBe(retry);
  });
  it('waits what Retry-After says', () => {
    expect(retryDelay(r(429, { 'retry-after': '2' }), 0, 2)).toBe(2000);
  });
  it('the limiter runs at most max at once', async () => {
    const l = new Limiter(2);
    let now = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        l.run(async () => {
          peak = Math.max(peak, ++now);
          await new Promise((res) => setTimeout(res, 5));
          now--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });
});

describe('demo fault injection', () => {
  it('parses the fault list and counts down', () => {
    const rules = parseFaults('tokens.model=500x2,activity=429,readiness=hang:0.5');
    expect(rules.map((r) => [r.endpoint, r.group, r.mode, r.remaining, r.share])).toEqual([
      ['tokens', 'model', '500', 2, 1],
      ['activity', undefined, '429', Infinity, 1],
      ['readiness', undefined, 'hang', Infinity, 0.5],
    ]);
    expect(pickFault(rules, 'tokens', null)).toBeUndefined();
    expect(pickFault(rules, 'tokens', 'model')).toBe('500');
    expect(pickFault(rules, 'tokens', 'model')).toBe('500');
    expect(pickFault(rules, 'tokens', 'model')).toBeUndefined();
    expect(() => parseFaults('tokens=explode')).toThrow(/DEMO_FAULTS/);
  });
  it('breaks the schema of a body and makes content hostile', () => {
    expect(breakSchema('{"data":[{"date":"2026-01-01","billable_tokens":12}]}')).toContain('"billable_tokens":"12"');
    const h = makeHostile({
      repoUrl: 'https://x/y',
      apps: { '.': { description: 'd' } },
      data: [{ tool: 'Read', n: 1 }],
    }) as {
      repoUrl: string;
      data: { tool: string; n: number }[];
    };
    expect(h.repoUrl.startsWith('javascript:')).toBe(true);
    expect(h.data[0]!.tool).toContain('<script>');
    expect(h.data[0]!.n).toBe(1);
  });
  it('serves each fault over HTTP', async () => {
    const demo = createDemoService({
      seed: 'acme',
      users: 10,
      repos: 2,
      reportsPerRepo: 3,
      today: '2026-03-01',
      keys: DEFAULT_KEYS,
      faults: parseFaults('tools=500x1,activity=429x1,productivity=malformedx1,users=truncatedx1,tokens=schemax1'),
    });
    const base = await listen(createServer(demoListener(demo)));
    const q = '?startDate=2026-02-01&endDate=2026-02-02';
    const auth = { authorization: 'Bearer demo-owner' };
    expect((await get(base, `/api/v1/analytics/tools${q}`, auth)).status).toBe(500);
    expect((await get(base, `/api/v1/analytics/tools${q}`, auth)).status).toBe(200);
    const limited = await get(base, `/api/v1/analytics/activity${q}`, auth);
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '1']);
    const malformed = await get(base, `/api/v1/analytics/productivity${q}`, auth);
    expect(() => JSON.parse(malformed.body)).toThrow(SyntaxError);
    // Half the promised body, then the connection drops.
    await expect(get(base, `/api/v1/analytics/users${q}`, auth)).rejects.toThrow('aborted');
    expect((await get(base, `/api/v1/analytics/tokens${q}`, auth)).body).toMatch(/"billable_tokens":"\d+"/);
  });
  it('delays its answers and hangs over HTTP too', async () => {
    const demo = createDemoService({
      seed: 'acme',
      users: 5,
      repos: 2,
      reportsPerRepo: 3,
      today: '2026-03-01',
      keys: DEFAULT_KEYS,
      faults: parseFaults('readiness=hangx1'),
      latencyMs: 150,
    });
    const server = createServer(demoListener(demo));
    const base = await listen(server);
    const auth = { authorization: 'Bearer demo-owner' };
    const hung = await Promise.race([
      get(base, '/api/organization/maturity-level-reports', auth),
      new Promise((r) => setTimeout(() => r('no answer'), 400)),
    ]);
    expect(hung).toBe('no answer');
    server.closeAllConnections(); // lets go of the hung request
    const t0 = Date.now();
    expect((await get(base, '/api/organization/maturity-level-reports', auth)).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });
});

describe('random input never makes a 500', () => {
  const demo = createDemoService({
    seed: 'acme',
    users: 12,
    repos: 3,
    reportsPerRepo: 3,
    today: '2026-03-01',
    keys: DEFAULT_KEYS,
  });
  const paths = ['tokens', 'tools', 'activity', 'productivity', 'users'].map((p) => `/api/v1/analytics/${p}`);
  paths.push('/api/organization/maturity-level-reports');
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '2026-02-01',
      '2026-02-28',
      '2026-03-01',
      '2025-12-31',
      '0',
      '-1',
      '101',
      'model',
      'client',
      'tool_name',
    ),
    fc
      .date({ min: new Date('2025-01-01'), max: new Date('2027-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  );
  const query = fc.dictionary(
    fc.constantFrom('startDate', 'endDate', 'group_by', 'limit', 'cursor', 'startAfter', 'repoId', 'x'),
    value,
  );
  it('from the demo service', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths), query, (path, q) => {
        const r = demo.handle({
          method: 'GET',
          url: `${path}?${new URLSearchParams(q)}`,
          headers: { authorization: 'Bearer demo-owner' },
        });
        expect(r.status).not.toBe(500);
        expect([200, 400]).toContain(r.status);
        if (r.status === 400) expect(JSON.parse(r.body).detail.length).toBeGreaterThan(5);
      }),
      { numRuns: 300 },
    );
  });
  it('from the dashboard server, whatever the path', async () => {
    const base = await startApp({ DEMO_TODAY: '2026-03-01', DEMO_USERS: '12', DEMO_REPOS: '3' });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths, '/api/', '/api/v1/analytics/', '/api/x'),
        fc.string(),
        query,
        async (path, junk, q) => {
          const suffix = encodeURIComponent(junk).slice(0, 30);
          const r = await get(base, `${path}${suffix ? `/${suffix}` : ''}?${new URLSearchParams(q)}`);
          expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
