/**
 * The holes a security review found in sign-in, each closed and kept closed: an open redirect through
 * a path that only becomes `//host` once normalised, an address that becomes a manager's only by
 * Unicode folding (U+212A KELVIN SIGN), an email the provider never said was verified, and a sign-out
 * another site could trigger and that left a copy of the cookie working. Against a real OpenID provider
 * (oidc-provider on loopback) and the sign-in gate alone, in front of a page that answers "ok".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, request, walkSignIn } from '../../test/oidc';
import { createLogger } from '../core/log';
import { foldedInto, scopeOf, viewerOf, type Managers } from './access';
import { readAuthConfig } from './config';
import { createAuth } from './routes';
import { memoryRevocations, safeReturnTo, type Revocations } from './session';

const MANAGER = 'kim@acme.example';
let idp: Server;
let server: Server;
let base: string;
const logs: string[] = [];
const env = (extra: Record<string, string> = {}) =>
  readAuthConfig({
    OIDC_ISSUER: `http://127.0.0.1:${(idp.address() as AddressInfo).port}`,
    OIDC_CLIENT_ID: 'dashboard',
    OIDC_CLIENT_SECRET: 'dashboard-secret',
    PUBLIC_URL: base,
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters!',
    ALLOWED_DOMAINS: 'acme.example',
    ...extra,
  })!;
const gateOf = (
  cfg: ReturnType<typeof env>,
  revoked?: Revocations,
  managers: Managers = new Map([['Data', new Set([MANAGER])]]),
) =>
  createAuth({
    cfg,
    logger: createLogger((l) => logs.push(l)),
    managers: () => managers,
    inTeams: async () => false,
    peopleOf: () => () => false,
    emailOf: async () => null,
    userIdOf: async () => null,
    revoked,
    ruleFor: () => undefined,
  });
/** The gate answering the test server's requests; swapped by the tests that need another setting. */
let gate: ReturnType<typeof gateOf>;
/** What the server behind the gate answers (a test that needs emails in an answer sets it). */
let downstream = 'ok';

beforeAll(async () => {
  // Behind the gate, what the route table does with the reader's scope: PSEUDONYMIZE=1's emails rewritten.
  server = createServer(
    (req, res) =>
      void gate.gate(req, res).then((go) => go && res.end(scopeOf(req)?.pseudonymize?.(downstream) ?? downstream)),
  );
  idp = createServer();
  for (const s of [server, idp]) await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Accounts named by their email (`kelvin`'s has U+212A KELVIN SIGN, `omer`'s is `Ömer@…`); `unverified@…`
  // is said unverified, `silent@…` is not said either way.
  const provider = new Provider(env().issuer.origin, {
    clients: [
      {
        client_id: 'dashboard',
        client_secret: 'dashboard-secret',
        redirect_uris: [`${base}/auth/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-provider-cookie-key'] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: id === 'kelvin' ? '\u212Aim@acme.example' : id === 'omer' ? '\u00D6mer@acme.example' : id,
        ...(id.startsWith('silent@') ? {} : { email_verified: !id.startsWith('unverified@') }),
      }),
    }),
  });
  provider.on('server_error', () => undefined);
  idp.on('request', provider.callback());
  gate = gateOf(env());
}, 60_000);

afterAll(() => {
  server.close();
  idp.close();
});

const signIn = async (email: string, returnTo = '/') => {
  const jar = new CookieJar();
  const { step } = await walkSignIn(jar, new URL(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`, base), email);
  return { jar, step };
};
const me = async (jar: CookieJar) => (await request(jar, new URL('/api/me', base))).res.status;
const logout = (jar: CookieJar, headers: Record<string, string> = { origin: base }, at = base) =>
  request(jar, new URL('/auth/logout', at), { method: 'POST', headers });

describe('after sign-in, the reader goes to a page of this dashboard only', () => {
  it('normalises the path first: a `//host` it becomes once resolved, or any other site, falls back to `/`', () => {
    for (const bad of [
      '/.//evil.example/x',
      '/./\\evil.example',
      '/x/..//evil.example',
      '/%2e//evil.example',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      'https://evil.example/',
      'http:evil.example',
      'javascript:alert(1)',
      'evil.example',
    ]) {
      expect(safeReturnTo(bad), bad).toBe('/');
    }
    // An encoded slash stays a segment of this dashboard's path.
    for (const ok of ['/%2F%2Fevil.example', '/%5Cevil.example', '/users?start=2026-03-01#top'])
      expect(safeReturnTo(ok), ok).toBe(ok);
    expect(safeReturnTo('/a/./b/../users')).toBe('/a/users');
  });

  it('ends a sign-in asked with `returnTo=/.//evil.example/x` at `/`', async () => {
    const jar = new CookieJar();
    const start = new URL(`/auth/login?returnTo=${encodeURIComponent('/.//evil.example/x')}`, base);
    const { callback } = await walkSignIn(jar, start, 'ann@acme.example', { stopAtCallback: true });
    const step = await request(jar, callback!);
    expect(step.res.status).toBe(302);
    expect(step.res.headers.get('location')).toBe('/');
  });
});

describe('who signs in is the address the provider verified, never one it folds into', () => {
  it('refuses an address that becomes a manager’s only by Unicode folding (the Kelvin sign), and logs it', async () => {
    const kelvin = '\u212Aim@acme.example';
    expect(kelvin.toLowerCase()).toBe(MANAGER); // the fold the review found
    const { step, jar } = await signIn('kelvin');
    expect(step.res.status).toBe(403);
    expect(step.body).toMatch(/only once its characters are folded/);
    expect(step.body).not.toContain(MANAGER); // whose address it folds into is for the log
    expect(await me(jar)).toBe(401);
    const line = logs.find((l) => l.includes('"event":"sign-in refused"') && l.includes(MANAGER));
    expect(line).toMatch(/only by Unicode folding/);
    // The manager's own address, in any ASCII case, is the manager.
    const real = await signIn('Kim@ACME.example');
    expect(JSON.parse((await request(real.jar, new URL('/api/me', base))).body)).toMatchObject({
      email: MANAGER,
      role: 'manager',
    });
  });

  it('compares addresses by their own characters, ASCII case aside; a fold that reaches another’s grant is refused', () => {
    const managers: Managers = new Map([['Data', new Set([MANAGER])]]);
    const cfg = env({ ADMIN_EMAILS: 'root@acme.example' });
    // NFC alone makes the Kelvin sign a `K`; fullwidth letters and ligatures fold under NFKC.
    for (const claimed of ['\u212Aim@acme.example', '\uFF4Bim@acme.example', 'root@acme.e\uFF58ample'])
      expect(foldedInto(claimed, cfg, managers), claimed).toBe(claimed.normalize('NFKC').toLowerCase());
    expect(viewerOf({ email: '\u212Aim@acme.example', name: null }, cfg, managers)?.role).toBe('viewer');
    for (const fine of ['Kim@ACME.example', 'ann@acme.example', 'J\u00DCrgen@acme.example', 'x@elsewhere.example'])
      expect(foldedInto(fine, cfg, managers), fine).toBeNull();
  });

  it('takes an admin whose address has a non-ASCII capital (Ömer@…) as configured, the domain allowed or not', async () => {
    const omer = '\u00D6mer@acme.example';
    for (const domains of ['acme.example', 'elsewhere.example']) {
      const cfg = env({ ADMIN_EMAILS: `${omer}, root@acme.example`, ALLOWED_DOMAINS: domains });
      expect([...cfg.admins]).toEqual([omer, 'root@acme.example']);
      // Folding makes it `ömer@…`, someone else; the address configured is taken as it is, not refused.
      expect(foldedInto(omer, cfg, undefined), domains).toBeNull();
      gate = gateOf(cfg);
      try {
        const { step, jar } = await signIn('omer');
        expect(step.res.status, `${domains}: ${step.body}`).toBe(200); // signed in, back at the page
        const me = await request(jar, new URL('/api/me', base));
        expect(JSON.parse(me.body), domains).toMatchObject({ email: omer, role: 'admin' });
      } finally {
        gate = gateOf(env());
      }
    }
    // ALLOWED_EMAILS alike; ASCII capitals are still any case.
    const cfg = env({ ALLOWED_EMAILS: `\u00C5sa@elsewhere.example, Bo@Elsewhere.example`, ALLOWED_DOMAINS: '' });
    expect([...cfg.allowedEmails]).toEqual(['\u00C5sa@elsewhere.example', 'bo@elsewhere.example']);
    expect(viewerOf({ email: '\u00C5sa@elsewhere.example', name: null }, cfg, undefined)?.role).toBe('viewer');
    expect(viewerOf({ email: 'BO@elsewhere.example', name: null }, cfg, undefined)?.role).toBe('viewer');
  });

  it('gives a look-alike address (the Kelvin sign) a pseudonym of its own, never the one of the address it folds into', async () => {
    // Kim is no manager here, so `\u212Aim@…` is let in as the viewer it is (their own grant, the domain's).
    gate = gateOf(env({ PSEUDONYMIZE: '1' }), undefined, new Map());
    const kelvin = '\u212Aim@acme.example';
    downstream = JSON.stringify({
      data: [{ user_email: MANAGER }, { user_email: 'Kim@ACME.example' }, { user_email: kelvin }],
    });
    try {
      const { step, jar } = await signIn('kelvin');
      expect(step.res.status, step.body).toBe(200);
      expect(JSON.parse((await request(jar, new URL('/api/me', base))).body)).toMatchObject({
        email: kelvin,
        role: 'viewer',
      });
      const r = await request(jar, new URL('/api/v1/analytics/activity?startDate=2026-03-01&endDate=2026-03-02', base));
      expect(r.res.status).toBe(200);
      const [kim, kimAgain, look] = (JSON.parse(r.body) as { data: { user_email: string }[] }).data.map(
        (d) => d.user_email,
      );
      for (const e of [kim, kimAgain, look]) expect(e).toMatch(/^person-[0-9a-f]{10}@pseudonym\.invalid$/);
      expect(kimAgain).toBe(kim); // the same person, ASCII case aside
      expect(look).not.toBe(kim);
    } finally {
      gate = gateOf(env());
      downstream = 'ok';
    }
  });

  it('refuses an email the provider did not say was verified, unless OIDC_ALLOW_UNVERIFIED_EMAIL=1', async () => {
    for (const email of ['unverified@acme.example', 'silent@acme.example']) {
      const { step, jar } = await signIn(email);
      expect(step.res.status, email).toBe(403);
      expect(await me(jar), email).toBe(401);
    }
    expect(logs.some((l) => l.includes('OIDC_ALLOW_UNVERIFIED_EMAIL=1 if it never does'))).toBe(true);
    gate = gateOf(env({ OIDC_ALLOW_UNVERIFIED_EMAIL: '1' }));
    try {
      const { jar } = await signIn('silent@acme.example');
      expect(await me(jar)).toBe(200);
      // The opt-out is for a provider that says nothing; an email it says is unverified stays refused.
      expect((await signIn('unverified@acme.example')).step.res.status).toBe(403);
    } finally {
      gate = gateOf(env());
    }
    expect(env().allowUnverifiedEmail).toBe(false);
  });
});

describe('sign-out', () => {
  it('is refused unless its Origin is PUBLIC_URL’s origin', async () => {
    const { jar } = await signIn('ann@acme.example');
    const localhost = base.replace('127.0.0.1', 'localhost');
    for (const [what, headers, at] of [
      ['another origin', { origin: 'https://evil.example' }],
      ['a null origin from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
      ['a sibling site', { 'sec-fetch-site': 'same-site' }],
      ['another site’s referer', { referer: 'https://evil.example/page' }],
      ['nothing to tell', {}],
      // Under the pages' `Referrer-Policy: same-origin` a browser's form post from them carries their real Origin:
      // a null one, or none with only Sec-Fetch-Site or a Referer, is not theirs.
      ['a null origin said same-origin', { origin: 'null', 'sec-fetch-site': 'same-origin' }],
      ['no origin, said same-origin', { 'sec-fetch-site': 'same-origin' }],
      ['no origin, our own referer', { referer: `${base}/users` }],
      // The request's own Host is not the dashboard's origin.
      ['the same server under another name', { origin: localhost }, localhost],
    ] as [string, Record<string, string>, string?][]) {
      expect((await logout(jar, headers, at)).res.status, what).toBe(403);
      expect(await me(jar), what).toBe(200);
    }
    expect(logs.some((l) => l.includes('"event":"refused"') && l.includes('/auth/logout'))).toBe(true);
  });

  it('is taken from the dashboard’s own pages: their origin (with or without what else a browser sends)', async () => {
    for (const headers of [
      { origin: base } as Record<string, string>,
      { origin: base, 'sec-fetch-site': 'same-origin', referer: `${base}/users` }, // a form post under same-origin
    ]) {
      const { jar } = await signIn('ann@acme.example');
      expect((await logout(jar, headers)).res.status, JSON.stringify(headers)).toBe(200);
      expect(await me(jar)).toBe(401);
    }
  });

  it('revokes the session on the server: a copy of the cookie kept from before is refused', async () => {
    const { jar } = await signIn('ann@acme.example');
    const other = await signIn('ann@acme.example'); // the same person in another browser
    const host = new URL(base).host;
    const copy = new CookieJar();
    copy.set(host, 'session', jar.get(host, 'session')!);
    expect(await me(copy)).toBe(200);
    expect((await logout(jar)).res.status).toBe(200);
    expect(await me(copy)).toBe(401);
    expect(await me(other.jar)).toBe(200); // only the session signed out of
  });

  it('answers a revocation record it cannot read or write with a plain error, never the internal text', async () => {
    const { jar } = await signIn('ann@acme.example');
    const down = () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432 (internal detail)'), { code: 'ECONNREFUSED' });
    };
    gate = gateOf(env(), { add: down, has: down });
    try {
      const asked = await request(jar, new URL('/api/me', base));
      const out = await logout(jar);
      for (const r of [asked, out]) {
        expect(r.res.status).toBe(503);
        expect(r.body).not.toMatch(/internal detail|ECONNREFUSED/);
      }
      // Not signed out: the cookie stays, to sign out with once the record can be written.
      expect(out.res.headers.getSetCookie().some((c) => /^session=/.test(c))).toBe(false);
    } finally {
      gate = gateOf(env());
    }
    expect(logs.some((l) => l.includes('failed to sign you out') && l.includes('internal detail'))).toBe(true);
    const again = await logout(jar);
    expect(again.res.status).toBe(200);
    expect(again.res.headers.getSetCookie().some((c) => /^session=;/.test(c))).toBe(true);
    expect(await me(jar)).toBe(401);
  });

  it('holds across replicas sharing the revocations, kept until the cookie would have expired', async () => {
    const shared = memoryRevocations();
    const [a, b] = [gateOf(env(), shared), gateOf(env(), shared)];
    gate = a;
    try {
      const { jar } = await signIn('ann@acme.example');
      const host = new URL(base).host;
      const copy = new CookieJar();
      copy.set(host, 'session', jar.get(host, 'session')!);
      expect((await logout(jar)).res.status).toBe(200);
      gate = b;
      expect(await me(copy)).toBe(401);
    } finally {
      gate = gateOf(env());
    }
    const r = memoryRevocations();
    const now = Date.now() / 1000;
    await r.add('old', now - 1);
    await r.add('new', now + 60);
    expect([await r.has('old'), await r.has('new')]).toEqual([false, true]);
  });
});
