/**
 * Behind a TLS-terminating proxy (TRUST_PROXY, core/forwarded.ts): a real https proxy on loopback, under a
 * certificate of a private CA, in front of the dashboard, adding `X-Forwarded-Proto`, `-Host` and `-For` as
 * nginx does. With TRUST_PROXY the sign-in's redirect and cookies follow the public scheme and host, and the
 * audit log and the edit rule see the client the proxy names; without it, the same headers change nothing.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { raw } from '../test/http';
import { CookieJar, request as step, signInEnv, startProvider, walkSignIn } from '../test/oidc';
import { makePki, trustCa, type TestPki } from '../test/pki';
import { createApp } from './app';
import { readServerConfig } from './config';
import { peerOf, readTrustProxy } from './core/forwarded';
import { createLogger } from './core/log';
import { openStore } from './store/db';

const servers: Server[] = [];
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => servers.forEach((s) => s.close()));

const listen = async (s: Server) => {
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return (s.address() as AddressInfo).port;
};

/** A dashboard on loopback, set up (`configure`) once its address is known: a proxy and a provider need it first. */
async function dashboard() {
  const lines: string[] = [];
  let app: ReturnType<typeof createApp> | undefined;
  const port = await listen(createServer((q, r) => app!.handler(q, r, () => r.end('page'))));
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    async configure(env: Record<string, string>) {
      const store = await openStore({ dataDir: ':memory:' });
      cleanups.push(() => store.close());
      app = createApp(readServerConfig({ DEMO_USERS: '12', DEMO_TODAY: '2026-03-01', ...env }), {
        store,
        logger: createLogger((l) => lines.push(l)),
      });
    },
    /** The audit lines and the request log's lines. */
    logged: (msg: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg),
  };
}

/**
 * A proxy that terminates TLS in front of `target`, as nginx with `proxy_set_header X-Forwarded-Proto $scheme;
 * X-Forwarded-Host $host:$server_port; X-Forwarded-For …`, keeping its own upstream `Host`. `client` is the
 * address it says the reader has (a reader elsewhere, where this test's is on loopback).
 */
async function tlsProxy(pki: TestPki, target: number, client: string) {
  const server = createTlsServer({ key: pki.key, cert: pki.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const headers = {
      ...req.headers,
      host: `127.0.0.1:${target}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': req.headers.host!,
      'x-forwarded-for': client,
    };
    const up = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (a) => {
      res.writeHead(a.statusCode!, a.rawHeaders);
      a.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  return `https://localhost:${await listen(server as unknown as Server)}`;
}

const FORGED = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'dash.example.com',
  'x-forwarded-for': '198.51.100.7',
};

describe('TRUST_PROXY', () => {
  it('is a hop count or a list of addresses; anything else is refused naming it', () => {
    for (const off of [undefined, '', '0', 'false']) expect(readTrustProxy({ TRUST_PROXY: off })).toBeUndefined();
    const one = readTrustProxy({ TRUST_PROXY: '1' })!;
    expect([one('10.0.0.1', 0), one('10.0.0.1', 1)]).toEqual([true, false]);
    const listed = readTrustProxy({ TRUST_PROXY: 'loopback, 10.0.0.0/8' })!;
    expect([listed('127.0.0.1', 0), listed('10.1.2.3', 1), listed('192.0.2.1', 0)]).toEqual([true, true, false]);
    expect(() => readTrustProxy({ TRUST_PROXY: 'yes' })).toThrow(/^TRUST_PROXY must be a number of proxies/);
    expect(() => readTrustProxy({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/^TRUST_PROXY must be/);
    expect(() => readTrustProxy({ TRUST_PROXY: '99' })).toThrow('TRUST_PROXY must be a number of proxies from 0 to 20');
  });

  it('takes the client, scheme and host from trusted hops only', () => {
    const req = (remote: string, headers: Record<string, string>) =>
      ({ socket: { remoteAddress: remote }, headers }) as unknown as IncomingMessage;
    const chain = { ...FORGED, 'x-forwarded-for': '203.0.113.5, 198.51.100.7, 10.0.0.2' };
    // Not trusted: the connection's address, and the forwarded ones make the client unknown.
    expect(peerOf(req('127.0.0.1', chain), undefined)).toEqual({ address: '127.0.0.1', hidden: true });
    expect(peerOf(req('127.0.0.1', {}), undefined)).toEqual({ address: '127.0.0.1', hidden: false });
    // One hop trusted: the client is the address the proxy added last.
    expect(peerOf(req('10.0.0.1', chain), readTrustProxy({ TRUST_PROXY: '1' }))).toEqual({
      address: '10.0.0.2',
      hidden: false,
      proto: 'https',
      host: 'dash.example.com',
    });
    // A list: the walk goes on while the hops are trusted, and stops at the first that is not.
    expect(peerOf(req('10.0.0.1', chain), readTrustProxy({ TRUST_PROXY: '10.0.0.0/8' })).address).toBe('198.51.100.7');
    // A peer outside the list is not a proxy: its headers are ignored.
    expect(peerOf(req('192.0.2.1', chain), readTrustProxy({ TRUST_PROXY: '10.0.0.0/8' }))).toEqual({
      address: '192.0.2.1',
      hidden: true,
    });
    // Any header a proxy adds when it relays makes the client unknown, whoever connects.
    for (const name of ['forwarded', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'via'])
      expect(peerOf(req('127.0.0.1', { [name]: '203.0.113.9' }), undefined), name).toEqual({
        address: '127.0.0.1',
        hidden: true,
      });
    // A trusted proxy that relays without naming its client in X-Forwarded-For leaves it unknown too.
    expect(peerOf(req('127.0.0.1', { 'x-real-ip': '203.0.113.9' }), one()).hidden).toBe(true);
    expect(peerOf(req('127.0.0.1', { 'x-real-ip': '203.0.113.9', 'x-forwarded-for': '127.0.0.1' }), one())).toEqual({
      address: '127.0.0.1',
      hidden: false,
    });
    // A scheme other than http(s) and a host that is not one are not taken.
    const odd = peerOf(req('127.0.0.1', { 'x-forwarded-proto': 'gopher', 'x-forwarded-host': 'a b/c' }), one());
    expect([odd.proto, odd.host]).toEqual([undefined, undefined]);
  });
});

const one = () => readTrustProxy({ TRUST_PROXY: '1' });

describe('sign-in behind a proxy that terminates TLS', () => {
  it('with TRUST_PROXY and no PUBLIC_URL, the redirect and the cookies follow the public https address; the audit names the reader', async () => {
    const pki = makePki(['localhost']);
    cleanups.push(trustCa(pki.ca), () => pki.remove());
    const d = await dashboard();
    const front = await tlsProxy(pki, d.port, '198.51.100.7');
    // The provider knows the dashboard by its public address only.
    const idp = await startProvider(`${front}/auth/callback`);
    cleanups.push(() => idp.close());
    await d.configure({ ...signInEnv(idp.issuer, ''), TRUST_PROXY: 'loopback' });

    const jar = new CookieJar();
    const login = await step(jar, new URL(`${front}/auth/login`));
    expect(login.res.status).toBe(302);
    expect(new URL(login.res.headers.get('location')!).searchParams.get('redirect_uri')).toBe(`${front}/auth/callback`);
    expect(login.res.headers.getSetCookie()[0]).toMatch(/^__Host-signin=[^;]+;.*; Secure/);

    const { step: last } = await walkSignIn(jar, new URL(`${front}/`), 'admin@acme.example');
    expect(last.url.href).toBe(`${front}/`);
    expect(jar.get(new URL(front).host, '__Host-session')).toBeTruthy();
    const me = await step(jar, new URL(`${front}/api/me`));
    expect(JSON.parse(me.body).email).toBe('admin@acme.example');
    expect(d.logged('audit').find((l) => l.event === 'sign-in')).toMatchObject({
      who: 'admin@acme.example',
      client: '198.51.100.7',
    });
    // Sign-out from the public address's own pages.
    const out = await step(jar, new URL(`${front}/auth/logout`), { method: 'POST', headers: { origin: front } });
    expect(out.res.status).toBe(200);
  });

  it('without TRUST_PROXY, the forwarded headers change nothing: PUBLIC_URL makes the redirect, the cookies stay plain', async () => {
    const d = await dashboard();
    const idp = await startProvider(`${d.base}/auth/callback`);
    cleanups.push(() => idp.close());
    await d.configure(signInEnv(idp.issuer, d.base));
    const login = await raw(d.base, '/auth/login', { headers: FORGED });
    expect(new URL(login.headers.location!).searchParams.get('redirect_uri')).toBe(`${d.base}/auth/callback`);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^signin=/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('sign-in without PUBLIC_URL needs TRUST_PROXY', () => {
    expect(() => readServerConfig(signInEnv('https://idp.example', ''))).toThrow(
      'Sign-in (OIDC_ISSUER) needs PUBLIC_URL as well',
    );
  });
});

describe('without sign-in, behind a proxy', () => {
  const put = (base: string, headers: Record<string, string>) =>
    raw(base, '/api/teams/mapping', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.com,Data\n' }),
    });

  it('with TRUST_PROXY: the mapping is edited only by a reader the proxy says is on this machine; the host checked is the forwarded one', async () => {
    const d = await dashboard();
    await d.configure({ TRUST_PROXY: '1', ALLOWED_HOSTS: 'dash.example.com' });
    expect((await put(d.base, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(403);
    expect((await put(d.base, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    await raw(d.base, '/api/config', { headers: FORGED });
    expect(d.logged('request').at(-1)).toMatchObject({ path: '/api/config', client: '198.51.100.7' });
    // The reader asked the proxy for a name this server does not answer for.
    expect((await raw(d.base, '/api/config', { headers: { 'x-forwarded-host': 'rebound.example' } })).status).toBe(421);
  });

  it('without it: a proxy on this machine that says it relayed, by any header, relays a reader elsewhere', async () => {
    const d = await dashboard();
    await d.configure({});
    const relayed: Record<string, string>[] = [
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { 'x-client-ip': '203.0.113.9' },
      { 'true-client-ip': '203.0.113.9' },
      { 'cf-connecting-ip': '203.0.113.9' },
      { via: '1.1 nginx' },
      { 'x-forwarded-host': 'dash.example.com' },
      { 'x-forwarded-proto': 'https' },
    ];
    const mark = (headers: Record<string, string>) =>
      raw(d.base, '/api/marks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ day: '2026-02-20', team: '', text: 'Relayed' }),
      });
    for (const headers of relayed) {
      const mapping = await put(d.base, headers);
      expect(mapping.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(mapping.body).detail).toMatch(/only from the machine the dashboard runs on/);
      expect((await mark(headers)).status, JSON.stringify(headers)).toBe(403);
    }
    // Marks read through such a proxy are not offered for editing.
    expect((await mark({})).status).toBe(201);
    const listed = await raw(d.base, '/api/marks/all', { headers: { 'x-real-ip': '203.0.113.9' } });
    expect(JSON.parse(listed.body).marks.map((m: { editable: boolean }) => m.editable)).toEqual([false]);
    expect((await put(d.base, {})).status).toBe(200);
  });

  it('without it: any forwarded address means a reader elsewhere, and the forwarded host is not what is checked', async () => {
    const d = await dashboard();
    await d.configure({});
    const r = await put(d.base, { 'x-forwarded-for': '127.0.0.1' });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).detail).toMatch(/only from the machine the dashboard runs on/);
    expect((await put(d.base, {})).status).toBe(200);
    expect((await raw(d.base, '/api/config', { headers: { 'x-forwarded-host': 'rebound.example' } })).status).toBe(200);
    await raw(d.base, '/api/config', { headers: FORGED });
    expect(d.logged('request').at(-1)).toMatchObject({ path: '/api/config', client: '127.0.0.1' });
  });
});
