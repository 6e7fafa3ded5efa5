/**
 * BASE_PATH: how it is read and checked, the public address built with it, the prefix taken off a
 * request (the probes at both addresses, 404 outside it), the page's addresses, and sign-in under it
 * against a real OpenID provider.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../test/http';
import { CookieJar, request, startProvider, walkSignIn, type TestProvider, signInEnv } from '../test/oidc';
import { createApp } from './app';
import { readAuthConfig } from './auth/config';
import { createSessions } from './auth/session';
import { readServerConfig } from './config';
import { toSlack, type Digest } from './digest/digest';
import { readBasePath, stripBase } from './core/base-path';

describe('BASE_PATH', () => {
  it('is the root when unset, empty or `/`, and loses one trailing slash', () => {
    expect(readBasePath({})).toBe('');
    expect(readBasePath({ BASE_PATH: '' })).toBe('');
    expect(readBasePath({ BASE_PATH: '/' })).toBe('');
    expect(readBasePath({ BASE_PATH: '/dashboard' })).toBe('/dashboard');
    expect(readBasePath({ BASE_PATH: '/dashboard/' })).toBe('/dashboard');
    expect(readBasePath({ BASE_PATH: '/tools/agent-usage_2.v1~x' })).toBe('/tools/agent-usage_2.v1~x');
  });

  it('refuses what is not a plain path, naming the variable', () => {
    for (const bad of [
      'dashboard',
      '//dashboard',
      '/dashboard//',
      '/a//b',
      '/../etc',
      '/a/..',
      '/a/./b',
      '/.',
      '/dash?x=1',
      '/dash#top',
      '/dash%2Fboard',
      '/dash board',
      '/dash"><script>',
      'https://corp.example/dashboard',
    ])
      expect(() => readBasePath({ BASE_PATH: bad }), bad).toThrow(/^BASE_PATH must be a path like \/dashboard/);
    expect(() => readServerConfig({ BASE_PATH: '/a/../b' })).toThrow(/BASE_PATH/);
  });

  it('takes the prefix off a request’s target once, and says when a target is outside it', () => {
    expect(stripBase('', '/users?x=1')).toBe('/users?x=1');
    expect(stripBase('/dashboard', '/dashboard/')).toBe('/');
    expect(stripBase('/dashboard', '/dashboard')).toBe('/');
    expect(stripBase('/dashboard', '/dashboard?start=2026-05-01')).toBe('/?start=2026-05-01');
    expect(stripBase('/dashboard', '/dashboard/users/usr_1?q=a')).toBe('/users/usr_1?q=a');
    expect(stripBase('/dashboard', '/dashboard/dashboard/x')).toBe('/dashboard/x');
    expect(stripBase('/dashboard', '/dashboard/api/config')).toBe('/api/config');
    for (const outside of ['/', '/api/config', '/dashboardx', '/dashboard-old/', '/Dashboard/', '/x/dashboard/'])
      expect(stripBase('/dashboard', outside), outside).toBeNull();
  });
});

describe('the public address under a base path', () => {
  it('is the origin and the base, whether PUBLIC_URL names the base or not', () => {
    const at = (env: Record<string, string>) => readServerConfig(env).publicUrl.href;
    expect(at({})).toBe('http://127.0.0.1:5173/');
    expect(at({ BASE_PATH: '/dashboard' })).toBe('http://127.0.0.1:5173/dashboard/');
    expect(at({ BASE_PATH: '/dashboard', PUBLIC_URL: 'https://corp.example' })).toBe('https://corp.example/dashboard/');
    expect(at({ BASE_PATH: '/dashboard', PUBLIC_URL: 'https://corp.example/dashboard' })).toBe(
      'https://corp.example/dashboard/',
    );
    expect(at({ BASE_PATH: '/dashboard/', PUBLIC_URL: 'https://corp.example/dashboard/' })).toBe(
      'https://corp.example/dashboard/',
    );
    expect(at({ PUBLIC_URL: 'https://dashboard.example.com/' })).toBe('https://dashboard.example.com/');
  });

  it('refuses a PUBLIC_URL whose path is not the base', () => {
    expect(() => readServerConfig({ PUBLIC_URL: 'https://corp.example/dashboard' })).toThrow(
      /PUBLIC_URL's path \(\/dashboard\) must be BASE_PATH \(\/\).*set BASE_PATH/,
    );
    expect(() => readServerConfig({ BASE_PATH: '/dashboard', PUBLIC_URL: 'https://corp.example/other' })).toThrow(
      /PUBLIC_URL's path \(\/other\) must be BASE_PATH \(\/dashboard\)/,
    );
    expect(() => readServerConfig({ PUBLIC_URL: 'mailto:someone@corp.example' })).toThrow(/PUBLIC_URL must be/);
  });

  it('puts sign-in under the base: the redirect, and the cookies’ path and prefix', () => {
    const env = {
      OIDC_ISSUER: 'https://login.corp.example',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'secret',
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters!',
    };
    const under = readAuthConfig({ ...env, PUBLIC_URL: 'https://corp.example', BASE_PATH: '/dashboard' })!;
    expect(under.basePath).toBe('/dashboard');
    expect(new URL('auth/callback', under.publicUrl).href).toBe('https://corp.example/dashboard/auth/callback');
    // `__Host-` needs `Path=/`: under a base path the cookies are `__Secure-`, with the base as their path.
    const req = {} as IncomingMessage;
    expect(createSessions(under).names(req)).toEqual({
      secure: true,
      session: '__Secure-session',
      state: '__Secure-signin',
    });
    const root = readAuthConfig({ ...env, PUBLIC_URL: 'https://corp.example' })!;
    expect(root.basePath).toBe('');
    expect(createSessions(root).names(req)).toEqual({
      secure: true,
      session: '__Host-session',
      state: '__Host-signin',
    });
    const plain = readAuthConfig({ ...env, PUBLIC_URL: 'http://127.0.0.1:8080', BASE_PATH: '/dashboard' })!;
    expect(createSessions(plain).names(req)).toEqual({ secure: false, session: 'session', state: 'signin' });
  });

  it('links the digest’s pages under the base', () => {
    const week = { start: '2026-04-24', end: '2026-04-30' };
    const digest: Digest = {
      week,
      previous: { start: '2026-04-17', end: '2026-04-23' },
      kpis: [],
      spend: null,
      budgets: [],
      highlights: {
        week,
        teams: [],
        complete: true,
        notes: [],
        highlights: [
          {
            kind: 'spike',
            severity: 'warning',
            title: 'A day far above usual',
            detail: '',
            link: { path: '/users/usr_1', query: { start: week.start } },
          },
        ],
      },
      readiness: { repositories: 4, top: { id: 'lint_config', name: 'Linter configured', lifts: 2, helps: 2 } },
    };
    const text = (url: string) =>
      JSON.stringify(toSlack(digest, readServerConfig({ PUBLIC_URL: url, BASE_PATH: '/dashboard' }).publicUrl));
    for (const url of ['https://corp.example', 'https://corp.example/dashboard']) {
      expect(text(url)).toContain(
        '<https://corp.example/dashboard/users/usr_1?start=2026-04-24|A day far above usual>',
      );
      expect(text(url)).toContain('https://corp.example/dashboard/?start=2026-04-24&end=2026-04-30');
      expect(text(url)).toContain(
        '<https://corp.example/dashboard/readiness|Fix Linter configured to bring 2 repositories to level 3>',
      );
    }
  });
});

const servers: Server[] = [];
let provider: TestProvider | undefined;
afterAll(async () => {
  servers.forEach((s) => s.close());
  await provider?.close();
});

/** A server on a free port answering with the app (its `next` says which address it was given). */
async function serve(app: ReturnType<typeof createApp>): Promise<string> {
  const s = createServer((req, res) => app.handler(req, res, () => res.end(`page ${req.url}`)));
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('a server under /dashboard', () => {
  const env = { DEMO_TODAY: '2026-06-01', DEMO_USERS: '5', DEMO_REPOS: '1', BASE_PATH: '/dashboard/' };
  let base: string;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    app = createApp(readServerConfig(env));
    base = await serve(app);
  });

  it('answers the probes at the root and under the base', async () => {
    for (const path of ['/livez', '/dashboard/livez', '/readyz', '/dashboard/readyz', '/api/health']) {
      const r = await raw(base, path);
      expect(r.status, path).toBe(200);
      expect(JSON.parse(r.body), path).toEqual({ status: 'ok' });
    }
    for (const path of ['/metrics', '/dashboard/metrics'])
      expect((await raw(base, path)).body, path).toContain('dashboard_http_requests_total');
  });

  it('answers 404 outside the base, and everything else below it as at the root', async () => {
    for (const path of ['/', '/api/config', '/users', '/assets/index.js', '/dashboardx/', '/auth/login']) {
      const r = await raw(base, path);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body).detail, path).toBe('The dashboard is served under /dashboard/ (BASE_PATH).');
    }
    const config = await raw(base, '/dashboard/api/config');
    expect(config.status).toBe(200);
    expect(JSON.parse(config.body)).toMatchObject({ basePath: '/dashboard', demo: true });
    const tokens = await raw(base, '/dashboard/api/v1/analytics/tokens?startDate=2026-05-01&endDate=2026-05-02');
    expect(tokens.status).toBe(200);
    expect(JSON.parse(tokens.body).data).toHaveLength(2);
    expect((await raw(base, '/dashboard/api/nothing')).status).toBe(404);
    // The page and the static files are given the address below the base.
    expect((await raw(base, '/dashboard/')).body).toBe('page /');
    // The base without its slash is the home page's address with it, as the router names it.
    for (const [path, to] of [
      ['/dashboard', '/dashboard/'],
      ['/dashboard?start=2026-05-01', '/dashboard/?start=2026-05-01'],
    ]) {
      const r = await raw(base, path!);
      expect(r.status, path).toBe(308);
      expect(r.headers.location, path).toBe(to);
    }
    expect((await raw(base, '/dashboard/users/usr_1?q=a')).body).toBe('page /users/usr_1?q=a');
    expect((await raw(base, '/dashboard/assets/index-abc.js')).body).toBe('page /assets/index-abc.js');
    // Counted by the route the root would give it.
    expect((await raw(base, '/metrics')).body).toMatch(/dashboard_http_requests_total\{route="\/api\/config"/);
  });

  it('gives the page its base: its assets, its preloads and its configuration', () => {
    // As Vite builds it with `base: './'`.
    const built = [
      '<html><head>',
      '<link rel="icon" href="./favicon.svg" type="image/svg+xml" />',
      '<script type="module" crossorigin src="./assets/index-abc.js"></script>',
      '<link rel="modulepreload" crossorigin href="./assets/app-def.js">',
      '<link rel="stylesheet" crossorigin href="./assets/index-ghi.css">',
      '</head><body><a href="#main">Skip to content</a></body></html>',
    ].join('\n');
    const page = app.renderIndex(built, '/?start=2026-05-01&end=2026-05-07');
    expect(page).toContain('href="/dashboard/favicon.svg"');
    expect(page).toContain('src="/dashboard/assets/index-abc.js"');
    expect(page).toContain('href="/dashboard/assets/app-def.js"');
    expect(page).toContain('href="/dashboard/assets/index-ghi.css"');
    expect(page).not.toMatch(/(src|href)="\.\//);
    // The skip link stays on the page (no `<base href>` sends it to the base's address).
    expect(page).toContain('<a href="#main">');
    expect(page).not.toContain('<base');
    expect(page).toContain(
      'href="/dashboard/api/v1/analytics/tokens?startDate=2026-05-01&amp;endDate=2026-05-07&amp;group_by=model"',
    );
    expect(page).toContain('&quot;basePath&quot;:&quot;/dashboard&quot;');
    expect(app.renderIndex(built, '/users?start=2026-05-01&end=2026-05-14')).toContain(
      'href="/dashboard/api/users?start=2026-05-01&amp;end=2026-05-14&amp;sort=credits&amp;dir=desc&amp;offset=0&amp;limit=200"',
    );
    // At the root, the same build is named from the root.
    const root = createApp(readServerConfig({ ...env, BASE_PATH: '' })).renderIndex(built, '/');
    expect(root).toContain('src="/assets/index-abc.js"');
    expect(root).toContain('&quot;basePath&quot;:&quot;&quot;');
  });
});

describe('sign-in under /dashboard', () => {
  let base: string;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    const s = createServer((req, res) => app.handler(req, res, () => res.end(`page ${req.url}`)));
    servers.push(s);
    await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    provider = await startProvider(`${base}/dashboard/auth/callback`);
    app = createApp(
      readServerConfig({
        DEMO_TODAY: '2026-06-01',
        DEMO_USERS: '5',
        DEMO_REPOS: '1',
        BASE_PATH: '/dashboard',
        ...signInEnv(provider.issuer, base),
      }),
    );
  }, 60_000);

  it('sends a reader to sign in under the base, calls back under it, and keeps its cookies there', async () => {
    const jar = new CookieJar();
    const page = await request(jar, new URL('/dashboard/tools?start=2026-05-01', base));
    expect(page.res.status).toBe(302);
    expect(page.res.headers.get('location')).toBe(
      `/dashboard/auth/login?returnTo=${encodeURIComponent('/tools?start=2026-05-01')}`,
    );
    expect((await request(jar, new URL('/dashboard/api/config', base))).res.status).toBe(401);
    // The probes stay open at both addresses.
    expect((await request(jar, new URL('/livez', base))).res.status).toBe(200);
    expect((await request(jar, new URL('/dashboard/readyz', base))).res.status).toBe(200);

    const login = await request(jar, new URL(page.res.headers.get('location')!, base));
    expect(login.res.status).toBe(302);
    const to = new URL(login.res.headers.get('location')!);
    expect(to.searchParams.get('redirect_uri')).toBe(`${base}/dashboard/auth/callback`);
    expect(login.res.headers.getSetCookie().join('\n')).toMatch(
      /^signin=[^;]+; Max-Age=600; Path=\/dashboard; HttpOnly; SameSite=Lax$/m,
    );

    const { callback } = await walkSignIn(jar, to, 'admin@acme.example', { stopAtCallback: true });
    expect(callback!.pathname).toBe('/dashboard/auth/callback');
    const back = await request(jar, callback!);
    expect(back.res.status).toBe(302);
    expect(back.res.headers.get('location')).toBe('/dashboard/tools?start=2026-05-01');
    expect(back.res.headers.getSetCookie().join('\n')).toMatch(
      /^session=[^;]+; Max-Age=43200; Path=\/dashboard; HttpOnly; SameSite=Lax$/m,
    );

    const again = await request(jar, new URL('/dashboard/tools?start=2026-05-01', base));
    expect(again.body).toBe('page /tools?start=2026-05-01');
    expect(JSON.parse((await request(jar, new URL('/dashboard/api/me', base))).body)).toMatchObject({
      email: 'admin@acme.example',
      role: 'admin',
    });

    const out = await request(jar, new URL('/dashboard/auth/logout', base), {
      method: 'POST',
      headers: { origin: base },
    });
    expect(out.res.status).toBe(200);
    expect(out.body).toContain('<a href="/dashboard/auth/login">Sign in</a>');
    expect(out.res.headers.getSetCookie().join('\n')).toMatch(/^session=; Max-Age=0; Path=\/dashboard;/m);
  });
});
