/**
 * Outgoing requests through a corporate forward proxy: a real proxy on loopback, the only one that can
 * resolve the service's and the OpenID provider's names (`*.internal`), so a request that bypassed it fails.
 * It carries the sync and the users walk; NO_PROXY sends a host direct; a proxy that
 * is down is named in the 502 (without its credentials) and the server stays up.
 */
import { lookup } from 'node:dns/promises';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../../test/http';
import { CookieJar, request as step, signInEnv, startProvider, walkSignIn } from '../../test/oidc';
import { makePki, trustCa } from '../../test/pki';
import { createApp } from '../app';
import { readServerConfig } from '../config';
import { applyEgress, proxyFor, readEgress } from '../core/egress';
import { createLogger } from '../core/log';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { demoListener } from '../demo/transport';
import { openStore, type StoreDb } from '../store/db';

const servers: Server[] = [];
const listen = async (s: Server) => {
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return (s.address() as AddressInfo).port;
};

/** A forward proxy that asks for `user:s3cret` and alone knows that `*.internal` names are this machine. */
function forwardProxy() {
  const seen: string[] = [];
  const authorized = (h: string | undefined) => h === `Basic ${Buffer.from('user:s3cret').toString('base64')}`;
  const server = createServer((req, res) => {
    // A plain-HTTP request in absolute form: GET http://service.internal:1234/path
    seen.push(`${req.method} ${req.url}`);
    const u = new URL(req.url!);
    if (!authorized(req.headers['proxy-authorization'])) return void res.writeHead(407).end();
    if (!u.hostname.endsWith('.internal')) return void res.writeHead(502).end();
    const headers = { ...req.headers, host: u.host };
    delete headers['proxy-authorization'];
    const up = request(
      { host: '127.0.0.1', port: u.port, path: u.pathname + u.search, method: req.method, headers },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  // A tunnel (CONNECT host:port), as clients open for https and may for http.
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    if (!authorized(req.headers['proxy-authorization']) || !host!.endsWith('.internal'))
      return void socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const up = connect(Number(port), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return { server, seen };
}

let proxy: ReturnType<typeof forwardProxy>;
let proxyPort: number;
let servicePort: number;
let restore = () => {};
const stores: StoreDb[] = [];

beforeAll(async () => {
  proxy = forwardProxy();
  proxyPort = await listen(proxy.server);
  const demo = createDemoService({
    seed: 'acme',
    users: 12,
    repos: 2,
    reportsPerRepo: 2,
    today: '2026-03-01',
    keys: DEFAULT_KEYS,
  });
  servicePort = await listen(createServer(demoListener(demo)));
});
afterEach(() => {
  restore();
  restore = () => {};
});
afterAll(async () => {
  servers.forEach((s) => s.close());
  for (const s of stores) await s.close();
});

/** A dashboard server on the service's internal name, its outgoing requests set up from `env` as main.ts does. */
async function dashboard(env: Record<string, string>) {
  const lines: string[] = [];
  const config = readServerConfig({
    ANALYTICS_BASE_URL: `http://service.internal:${servicePort}`,
    API_KEY: 'demo-owner',
    ...env,
  });
  restore = applyEgress(config.egress);
  const store = await openStore({ dataDir: ':memory:' });
  stores.push(store);
  const app = createApp(config, { store, logger: createLogger((l) => lines.push(l)) });
  const port = await listen(createServer((req, res) => app.handler(req, res, () => res.end('page'))));
  return { app, base: `http://127.0.0.1:${port}`, lines };
}

const PROXY = () => `http://user:s3cret@127.0.0.1:${proxyPort}`;

describe('through a forward proxy', () => {
  it('no name under .internal resolves here: only the proxy can reach them', async () => {
    await expect(lookup('service.internal')).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
  });

  it('carries the sync: every endpoint, the users walk page by page, readiness', async () => {
    const { app, base, lines } = await dashboard({ HTTP_PROXY: PROXY() });
    const before = proxy.seen.length;
    const run = await app.scheduler!.run({ start: '2026-02-01', end: '2026-02-03' });
    expect(run.failures).toBe(0);
    // Tunnelled, so the proxy sees where, not what: the answers themselves show that everything came through.
    expect(proxy.seen.slice(before)).toContain(`CONNECT service.internal:${servicePort}`);
    const users = await raw(base, '/api/users?start=2026-02-01&end=2026-02-03&limit=100');
    expect(users.status).toBe(200);
    expect(JSON.parse(users.body).total).toBeGreaterThan(0);
    const status = JSON.parse((await raw(base, '/api/sync')).body);
    expect(status.stored.readinessReports).toBeGreaterThan(0);
    expect(status.stored.analytics.map((a: { endpoint: string }) => a.endpoint)).toEqual(
      expect.arrayContaining(['tokens', 'tools', 'activity', 'productivity']),
    );
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('sends a host in NO_PROXY direct (here, where it does not resolve)', async () => {
    const { base } = await dashboard({ HTTP_PROXY: PROXY(), NO_PROXY: 'example.com,.internal' });
    const before = proxy.seen.length;
    const r = await raw(base, '/api/v1/analytics/tokens?startDate=2026-02-10&endDate=2026-02-11&group_by=model');
    expect(r.status).toBe(502);
    expect(JSON.parse(r.body).detail).toBe('The service could not be reached or its answer was cut off.');
    expect(proxy.seen.length).toBe(before);
  });

  it('names a proxy that is down, without its credentials, and stays up', async () => {
    const closed = createServer();
    const port = await listen(closed);
    closed.close();
    const { base, lines } = await dashboard({ http_proxy: `http://user:s3cret@127.0.0.1:${port}` });
    const r = await raw(base, '/api/v1/analytics/tokens?startDate=2026-02-12&endDate=2026-02-13&group_by=model');
    expect(r.status).toBe(502);
    const detail = JSON.parse(r.body).detail as string;
    expect(detail).toBe(
      `The service could not be reached through the proxy http://***@127.0.0.1:${port}: the proxy refused, could not be reached, or could not reach the service.`,
    );
    expect(r.body + lines.join('\n')).not.toContain('s3cret');
    expect((await raw(base, '/livez')).status).toBe(200);
  });
});

describe('sign-in through the forward proxy', () => {
  it('finds the OpenID provider, takes its keys and redeems the code through the proxy, trusting a private CA', async () => {
    // The provider on an https name only the proxy resolves, under a certificate of the organization's own CA.
    const pki = makePki(['idp.internal']);
    const untrust = trustCa(pki.ca);
    let handler: Parameters<typeof createServer>[1] = (_q, r) => void r.end();
    const port = await listen(createServer((q, r) => handler!(q, r)));
    const base = `http://127.0.0.1:${port}`;
    const idp = await startProvider(`${base}/auth/callback`, undefined, undefined, 0, {
      ...pki,
      name: 'idp.internal',
    });
    try {
      const config = readServerConfig({ ...signInEnv(idp.issuer, base), HTTPS_PROXY: PROXY() });
      restore = applyEgress(config.egress);
      const store = await openStore({ dataDir: ':memory:' });
      stores.push(store);
      const app = createApp(config, { store });
      handler = (q, r) => app.handler(q, r, () => r.end('page'));
      const before = proxy.seen.length;
      // The reader's browser reaches the provider's pages through the same proxy (this process's global one).
      const jar = new CookieJar();
      const { step: last } = await walkSignIn(jar, new URL(`${base}/`), 'admin@acme.example');
      expect(last.url.href).toBe(`${base}/`);
      const me = await step(jar, new URL(`${base}/api/me`));
      expect(me.res.status).toBe(200);
      expect(JSON.parse(me.body).email).toBe('admin@acme.example');
      // Discovery, the keys and the code's exchange: only the proxy can reach idp.internal, so they went through it.
      expect(proxy.seen.slice(before)).toContain(`CONNECT ${new URL(idp.issuer).host}`);
    } finally {
      untrust();
      await idp.close();
      pki.remove();
    }
  });
});

describe('the proxy settings', () => {
  it('read both spellings, keep loopback direct, and say which proxy a request takes', () => {
    const s = readEgress({
      https_proxy: 'http://p.corp:3128',
      HTTP_PROXY: 'http://q.corp:8080',
      no_proxy: 'corp.example, .svc:8443',
    })!;
    expect(s.noProxy).toBe('corp.example, .svc:8443,localhost,127.0.0.1,::1,[::1]');
    expect(proxyFor(s, new URL('https://api.example.com/x'))).toBe('http://p.corp:3128');
    expect(proxyFor(s, new URL('http://api.example.com/x'))).toBe('http://q.corp:8080');
    expect(proxyFor(s, new URL('https://api.corp.example/x'))).toBeUndefined();
    expect(proxyFor(s, new URL('https://a.svc:8443/x'))).toBeUndefined();
    expect(proxyFor(s, new URL('https://a.svc/x'))).toBe('http://p.corp:3128');
    expect(proxyFor(s, new URL('http://localhost:5173/'))).toBeUndefined();
    expect(proxyFor(s, new URL('http://[::1]:5173/'))).toBeUndefined();
    expect(readEgress({})).toBeUndefined();
    expect(() => readEgress({ HTTPS_PROXY: 'proxy.corp:3128' })).toThrow('HTTPS_PROXY must be a proxy URL');
  });
});
