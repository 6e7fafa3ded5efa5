/**
 * The dashboard's server: forwarding with key injection, the browser's key
 * when the server has none, nothing but the documented GET paths forwarded,
 * and the headers it adds.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { raw } from '../test/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { readServerConfig } from './config';
import { createLogger } from './core/log';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function startApp(env: Record<string, string>, logLines: string[] = []) {
  const { handler } = createApp(readServerConfig(env), { logger: createLogger((l) => logLines.push(l)) });
  const s = createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 200;
      res.end('spa');
    }),
  );
  servers.push(s);
  return listen(s);
}

let upstream: string;
const seen: Seen[] = [];
/** The days the stand-in service answers by hanging, and by a redirect to another host. */
const HANG = 'startDate=2026-02-03';
const ELSEWHERE = 'startDate=2026-02-04';
beforeAll(async () => {
  const s = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    if (req.url!.startsWith('/api/organization/maturity-level-reports')) {
      res.writeHead(308, { location: '/api/organization/agent-readiness-reports' + req.url!.slice(40) });
      return res.end();
    }
    if (req.url!.startsWith('/api/organization/agent-readiness-reports')) {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'a=b', 'x-request-id': 'req_up' });
      return res.end('{"reports":[]}');
    }
    if (req.url!.includes(HANG)) return; // never answers
    if (req.url!.includes(ELSEWHERE)) {
      res.writeHead(302, { location: 'http://169.254.169.254/latest' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=1' });
    res.end('{"data":[],"meta":{"org_id":"o","start_date":"2026-01-14","end_date":"2026-01-14"}}');
  });
  servers.push(s);
  upstream = await listen(s);
});

const tokens = '/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-02';

describe('demo mode', () => {
  it('answers health and config, and serves the demo service with its own owner key', async () => {
    const base = await startApp({ DEMO_TODAY: '2026-06-01', DEMO_USERS: '20', DEMO_REPOS: '3' });
    expect(JSON.parse((await raw(base, '/api/health')).body)).toEqual({ status: 'ok' });
    expect(JSON.parse((await raw(base, '/api/config')).body)).toEqual({
      demo: true,
      keyRequired: false,
      teams: false,
      signIn: false,
      currency: null,
      historyStart: '2026-01-14',
      latestDay: '2026-05-31',
      basePath: '',
      holidays: [],
    });
    const r = await raw(base, tokens);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).data).toHaveLength(2);
    expect(r.headers['cache-control']).toBe('no-store');
  });
});

describe('the holidays', () => {
  it('reach the browser in the configuration, as UTC days', async () => {
    const base = await startApp({ DEMO_TODAY: '2026-06-01', DEMO_USERS: '5', HOLIDAYS: '2026-12-26,2026-12-25' });
    expect(JSON.parse((await raw(base, '/api/config')).body).holidays).toEqual(['2026-12-25', '2026-12-26']);
  });
});

describe('upstream mode', () => {
  it('injects the server key in place of the browser key and forwards nothing else', async () => {
    const lines: string[] = [];
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'server-secret-key' }, lines);
    seen.length = 0;
    const r = await raw(base, tokens, {
      headers: {
        authorization: 'Bearer browser-key',
        cookie: 'sid=1',
        'x-forwarded-for': '1.2.3.4',
        connection: 'keep-alive, x-foo',
        'x-foo': '1',
      },
    });
    expect(r.status).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(tokens);
    expect(seen[0]!.headers.authorization).toBe('Bearer server-secret-key');
    expect(seen[0]!.headers.cookie).toBeUndefined();
    expect(seen[0]!.headers['x-forwarded-for']).toBeUndefined();
    expect(seen[0]!.headers['x-foo']).toBeUndefined();
    const cfg = JSON.parse((await raw(base, '/api/config')).body);
    expect(cfg).toMatchObject({ demo: false, keyRequired: false });
    expect(JSON.stringify(cfg)).not.toContain('server-secret-key');
    expect(lines.join('\n')).not.toContain('server-secret-key');
    expect(lines.some((l) => JSON.parse(l).path === '/api/v1/analytics/tokens')).toBe(true);
  });

  it("forwards the browser's key when the server has none, and says a key is required", async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream });
    seen.length = 0;
    await raw(base, tokens, { headers: { authorization: 'Bearer browser-key' } });
    expect(seen[0]!.headers.authorization).toBe('Bearer browser-key');
    expect(JSON.parse((await raw(base, '/api/config')).body).keyRequired).toBe(true);
  });

  it.each([
    '/api/v1/analytics/secrets',
    '/api/v1/analytics/../admin',
    '/api/v1/analytics/%2e%2e/admin',
    '/api/v1/analytics//tokens',
    '/api/v1/analytics/tokens%2f..',
    '/api/v1/analytics\\tokens',
    '/api/v1/analytics/tokens/../../../etc/passwd',
    '/api/v1/analytics/x/%2E%2e/tokens',
    '/api/organization/members',
    '/api/v2/analytics/tokens',
  ])('refuses %s without calling the upstream', async (path) => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    seen.length = 0;
    const r = await raw(base, path);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ status: 404, title: 'Not Found', requestId: expect.any(String) });
    expect(seen).toHaveLength(0);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405', async (method) => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    seen.length = 0;
    const r = await raw(base, tokens, { method });
    expect(r.status).toBe(405);
    expect(seen).toHaveLength(0);
  });

  it('follows a redirect within the upstream, never to another host', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k' });
    seen.length = 0;
    const r = await raw(base, '/api/organization/maturity-level-reports?limit=5');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ reports: [] });
    expect(r.headers['x-request-id']).toBe('req_up');
    expect(seen.map((s) => s.url)).toEqual([
      '/api/organization/maturity-level-reports?limit=5',
      '/api/organization/agent-readiness-reports?limit=5',
    ]);
    const away = await raw(base, `/api/v1/analytics/activity?${ELSEWHERE}&endDate=2026-02-05`);
    expect(away.status).toBe(502);
  });

  it('answers 504 with an error body when the upstream hangs', async () => {
    const base = await startApp({ ANALYTICS_BASE_URL: upstream, API_KEY: 'k', UPSTREAM_TIMEOUT_MS: '300' });
    const r = await raw(base, `/api/v1/analytics/tools?${HANG}&endDate=2026-02-05`);
    expect(r.status).toBe(504);
    expect(JSON.parse(r.body)).toMatchObject({ status: 504, title: expect.any(String), detail: expect.any(String) });
  });
});

describe('security headers', () => {
  it('are on every production response', async () => {
    const base = await startApp({ NODE_ENV: 'production', DEMO_TODAY: '2026-06-01', DEMO_USERS: '5', DEMO_REPOS: '1' });
    for (const path of ['/', '/api/health', tokens, '/api/nope']) {
      const r = await raw(base, path);
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('same-origin');
    }
  });
});

describe('the page', () => {
  const html = '<html><head><title>x</title></head><body></body></html>';
  it('inlines the configuration and preloads the first chart’s data for the landing range', () => {
    const { renderIndex } = createApp(readServerConfig({ DEMO_TODAY: '2026-06-01', DEMO_USERS: '5', DEMO_REPOS: '1' }));
    const page = renderIndex(html, '/?start=2026-05-01&end=2026-05-07');
    expect(page).toContain('<meta name="dashboard-config" content="{&quot;demo&quot;:true');
    expect(page).toContain(
      'href="/api/v1/analytics/tokens?startDate=2026-05-01&amp;endDate=2026-05-07&amp;group_by=model"',
    );
    expect(renderIndex(html, '/tools')).not.toContain('rel="preload"');
  });
  it('preloads the users page’s first rows at the address the page asks for (UsersPage.test.tsx)', () => {
    const { renderIndex } = createApp(readServerConfig({ DEMO_TODAY: '2026-06-01', DEMO_USERS: '5', DEMO_REPOS: '1' }));
    const page = renderIndex(
      html,
      '/users?start=2026-05-01&end=2026-05-14&usersSort=user:asc&delegation=auto-high&q=%20o%20',
    );
    const preloads = [...page.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="([^"]+)"/g)];
    expect(preloads.map((m) => m[1]!.replace(/&amp;/g, '&'))).toEqual([
      '/api/users?start=2026-05-01&end=2026-05-14&sort=user&dir=asc&q=o&delegation=auto-high&offset=0&limit=200',
    ]);
    // Without a price list there is no spend to sort by: the page asks for its default sort.
    expect(renderIndex(html, '/users?start=2026-05-01&end=2026-05-14&usersSort=spend:asc')).toContain(
      'href="/api/users?start=2026-05-01&amp;end=2026-05-14&amp;sort=credits&amp;dir=desc&amp;offset=0&amp;limit=200"',
    );
    // Teams are read by the page with those the reader may see: nothing is guessed ahead.
    expect(renderIndex(html, '/users?team=Engineering')).not.toContain('rel="preload"');
  });
  it('preloads nothing when the browser must bring the key, and never inlines a server key', () => {
    const keyless = createApp(readServerConfig({ ANALYTICS_BASE_URL: 'http://127.0.0.1:9' }));
    expect(keyless.renderIndex(html, '/')).not.toContain('rel="preload"');
    expect(keyless.renderIndex(html, '/users')).not.toContain('rel="preload"');
    const keyed = createApp(readServerConfig({ ANALYTICS_BASE_URL: 'http://127.0.0.1:9', API_KEY: 'top-secret-key' }));
    expect(keyed.renderIndex(html, '/')).not.toContain('top-secret-key');
  });
});
