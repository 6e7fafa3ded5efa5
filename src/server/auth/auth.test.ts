/**
 * Sign-in against a real OpenID provider (oidc-provider on loopback, started here), through the
 * dashboard's HTTP server on the demo organization: the gate on every route, the roles (admin,
 * manager of a team in the mapping, viewer) and what each may ask for, the refusals the issue lists
 * (tampered, expired and foreign-issuer cookies, a wrong state, a replayed code, an open redirect),
 * the audit lines, and the refuse-to-start rule.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EncryptJWT } from 'jose';
import { hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamsAnswerSchema, teamsSummarySchema } from '../../api/teams';
import {
  CookieJar,
  request,
  startProvider,
  walkSignIn,
  type TestProvider,
  signInEnv,
  TEST_SESSION_SECRET,
} from '../../test/oidc';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { safeReturnTo } from './session';

const SECRET = TEST_SESSION_SECRET;
let provider: TestProvider;
let base: string;
let server: Server;
let store: StoreDb;
const logs: string[] = [];
let manager: { email: string; team: string };
let outsider: { userId: string; email: string | null };
let member: { userId: string; email: string };
/** The app answering the test server's requests (a second one with RESTRICT_ORG_VIEW=1 shares its address). */
let current: ReturnType<typeof createApp>;
let restricted: ReturnType<typeof createApp>;
let open: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  const env = {
    DEMO_TODAY: '2026-04-01',
    DEMO_SEED: 'auth',
    DEMO_USERS: '60',
    DATA_DIR: ':memory:',
    ...signInEnv(provider.issuer, base),
    PSEUDONYMIZE: '1',
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  open = current = createApp(config, { store, storeConfig, logger: createLogger((l) => logs.push(l)) });
  restricted = createApp(readServerConfig({ ...env, RESTRICT_ORG_VIEW: '1' }), {
    store,
    storeConfig,
    logger: createLogger((l) => logs.push(l)),
  });
  server.on('request', (req, res) => current.handler(req, res, () => res.end('the page')));
}, 60_000);

afterAll(async () => {
  server.close();
  await provider.close();
  await store.close();
});

async function signIn(email: string, returnTo = '/') {
  const jar = new CookieJar();
  const { step } = await walkSignIn(jar, new URL(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`, base), email);
  return { jar, step };
}
const api = (jar: CookieJar, path: string, init?: RequestInit) => request(jar, new URL(path, base), init);
const RANGE = 'start=2026-03-01&end=2026-03-31';

/** Every `/users` row the reader is given over March (walking the pages), and every user in `/tokens`' per-user split. */
async function serviceRows(jar: CookieJar) {
  const users: string[] = [];
  let cursor = '';
  for (;;) {
    const r = await api(jar, `/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-31&limit=100${cursor}`);
    expect(r.res.status).toBe(200);
    const page = JSON.parse(r.body) as {
      data: { user_id: string }[];
      meta: { has_more: boolean; next_cursor: string };
    };
    users.push(...page.data.map((u) => u.user_id));
    if (!page.meta.has_more) break;
    cursor = `&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
  }
  const t = await api(jar, '/api/v1/analytics/tokens?startDate=2026-03-01&endDate=2026-03-31');
  expect(t.res.status).toBe(200);
  const days = JSON.parse(t.body) as { data: { billable_tokens: number; by_user: { user_id: string }[] }[] };
  expect(days.data.some((d) => d.billable_tokens > 0)).toBe(true); // the day's organization totals stay
  return {
    users: [...new Set(users)],
    byUser: [...new Set(days.data.flatMap((d) => d.by_user.map((u) => u.user_id)))],
  };
}

describe('sign-in with OpenID Connect', () => {
  it('sends a reader with no session to sign in; the API answers 401; health and assets stay open', async () => {
    const jar = new CookieJar();
    const page = await api(jar, '/tools?start=2026-03-01');
    expect(page.res.status).toBe(302);
    expect(page.res.headers.get('location')).toBe(
      `/auth/login?returnTo=${encodeURIComponent('/tools?start=2026-03-01')}`,
    );
    for (const path of [
      '/api/config',
      '/api/v1/analytics/activity?startDate=2026-03-01&endDate=2026-03-02',
      '/api/users',
      '/api/teams',
    ]) {
      expect((await api(jar, path)).res.status, path).toBe(401);
    }
    expect((await api(jar, '/api/health')).res.status).toBe(200);
  });

  it('signs an admin in (PKCE, state, nonce) and returns to the page asked for, with a sealed HttpOnly cookie', async () => {
    const jar = new CookieJar();
    const login = await api(jar, '/auth/login?returnTo=/teams');
    const to = new URL(login.res.headers.get('location')!);
    expect(to.origin).toBe(provider.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('state')).toBeTruthy();
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(`${base}/auth/callback`);
    const browser = new CookieJar();
    const walk = await walkSignIn(browser, new URL('/auth/login?returnTo=/teams', base), 'admin@acme.example', {
      stopAtCallback: true,
    });
    // The provider's answer opened in another browser (without the sign-in's cookie) is refused.
    expect((await request(new CookieJar(), walk.callback!)).res.status).toBe(400);
    const step = await request(browser, walk.callback!);
    expect(step.res.status).toBe(302);
    expect(step.res.headers.get('location')).toBe('/teams');
    const set = step.res.headers.getSetCookie().find((c) => c.startsWith('session='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).not.toMatch(/admin@acme/); // sealed: nothing readable
    expect(logs.some((l) => /"msg":"audit","event":"sign-in","who":"admin@acme.example","role":"admin"/.test(l))).toBe(
      true,
    );
    expect(logs.join('\n')).not.toContain(set.split(';')[0]!.split('=')[1]!);
  });

  it('an admin sees everything, edits the mapping, and signs out', async () => {
    const { jar } = await signIn('admin@acme.example');
    expect(JSON.parse((await api(jar, '/api/me')).body)).toMatchObject({ email: 'admin@acme.example', role: 'admin' });
    expect((await api(jar, `/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-02`)).res.status).toBe(200);
    const users = JSON.parse((await api(jar, `/api/users?${RANGE}&limit=1000`)).body) as {
      users: { userId: string; email: string }[];
    };
    expect(users.users.length).toBeGreaterThan(10);
    const teams = teamsAnswerSchema.parse(JSON.parse((await api(jar, '/api/teams')).body));
    // Pick a manager of a team and one of its people, and someone outside it, for the next tests.
    const team = teams.teams.find((t) => t.managers.length > 0 && t.members > 2)!;
    manager = { email: team.managers[0]!, team: team.path };
    const mine = JSON.parse(
      (await api(jar, `/api/users?${RANGE}&limit=1000&team=${encodeURIComponent(team.path)}`)).body,
    ) as {
      users: { userId: string; email: string }[];
    };
    const managers = new Set<string>();
    const collect = (ts: typeof teams.teams): void =>
      ts.forEach((t) => (t.managers.forEach((m) => managers.add(m)), collect(t.children)));
    collect(teams.teams);
    member = mine.users.find((u) => u.email && !managers.has(u.email.toLowerCase()))!;
    const theirs = new Set(mine.users.map((u) => u.userId));
    outsider = users.users.find((u) => !theirs.has(u.userId))!;
    const put = await api(jar, '/api/teams/mapping', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.example,Data\n' }),
    });
    expect(put.res.status).toBe(200);
    expect((await api(jar, '/api/teams/mapping', { method: 'DELETE' })).res.status).toBe(200);
    const out = await api(jar, '/auth/logout', { method: 'POST', headers: { origin: base } });
    expect(out.res.status).toBe(200);
    expect((await api(jar, '/api/me')).res.status).toBe(401);
  });

  it('a manager sees only their teams: the users table is limited to them, anyone else’s page and rows are refused', async () => {
    const { jar } = await signIn(manager.email);
    const me = JSON.parse((await api(jar, '/api/me')).body) as { role: string; teams: string[]; orgView: boolean };
    expect(me.role).toBe('manager');
    expect(me.teams).toContain(manager.team);
    expect(me.orgView).toBe(true);
    // The tree names the managers of their own teams only; the mapping (everyone's team) is for admins.
    const tree = teamsAnswerSchema.parse(JSON.parse((await api(jar, '/api/teams')).body));
    const shown: string[] = [];
    const walk = (ts: typeof tree.teams): void =>
      ts.forEach((t) => (t.managers.length > 0 && shown.push(t.path), walk(t.children)));
    walk(tree.teams);
    expect(shown).toContain(manager.team);
    expect(shown.every((t) => me.teams.some((m) => t === m || t.startsWith(`${m}/`)))).toBe(true);
    expect((await api(jar, '/api/teams/mapping')).res.status).toBe(403);
    const table = JSON.parse((await api(jar, `/api/users?${RANGE}&limit=1000`)).body) as {
      users: { userId: string }[];
    };
    expect(table.users.map((u) => u.userId)).toContain(member.userId);
    expect(table.users.map((u) => u.userId)).not.toContain(outsider.userId);
    const csv = (await api(jar, `/api/users.csv?${RANGE}`)).body;
    expect(csv).not.toContain(outsider.userId);
    expect(csv).not.toMatch(/@acme\.example/);
    expect((await api(jar, `/api/users/${encodeURIComponent(member.userId)}?${RANGE}`)).res.status).toBe(200);
    expect((await api(jar, `/api/users/${encodeURIComponent(outsider.userId)}?${RANGE}`)).res.status).toBe(403);
    // The service's per-user answers carry their people's rows only.
    const rows = await serviceRows(jar);
    expect(rows.users).toContain(member.userId);
    expect(rows.users).not.toContain(outsider.userId);
    expect(rows.users.every((u) => table.users.some((t) => t.userId === u))).toBe(true);
    expect(rows.byUser).toContain(member.userId);
    expect(rows.byUser).not.toContain(outsider.userId);
    expect(rows.byUser.every((u) => table.users.some((t) => t.userId === u))).toBe(true);
    // Organization-wide aggregates stay visible.
    expect((await api(jar, `/api/v1/analytics/activity?startDate=2026-03-01&endDate=2026-03-02`)).res.status).toBe(200);
    const other = (
      await api(jar, `/api/teams/analytics/activity?startDate=2026-03-01&endDate=2026-03-02&team=Unassigned`)
    ).res;
    expect(other.status).toBe(403);
    const put = await api(jar, '/api/teams/mapping', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.example,Data\n' }),
    });
    expect(put.res.status).toBe(403);
    expect(logs.some((l) => l.includes('"event":"view user"') && l.includes(member.userId))).toBe(true);
    expect(logs.some((l) => l.includes('"event":"refused"') && l.includes(outsider.userId))).toBe(true);
  });

  it('a viewer sees organization-wide figures and their own page, never another person’s row', async () => {
    const self = member.email;
    // Sign in as a person of the organization who manages nothing.
    const { jar } = await signIn(self);
    // Their own page is found by their email, for the header's link.
    expect(JSON.parse((await api(jar, '/api/me')).body)).toMatchObject({
      role: 'viewer',
      teams: [],
      userId: member.userId,
      orgView: true,
    });
    // The team tree counts each team's people (and names its managers): not a viewer's to read.
    const tree = await api(jar, '/api/teams');
    expect(tree.res.status).toBe(403);
    expect(tree.body).not.toMatch(/"managers"|@acme/);
    expect((await api(jar, '/api/teams/mapping')).res.status).toBe(403);
    expect((await api(jar, `/api/teams/summary?${RANGE}`)).res.status).toBe(403);
    expect((await api(jar, `/api/v1/analytics/activity?startDate=2026-03-01&endDate=2026-03-02`)).res.status).toBe(200);
    expect((await api(jar, `/api/users/${encodeURIComponent(member.userId)}?${RANGE}`)).res.status).toBe(200);
    expect((await api(jar, `/api/users/${encodeURIComponent(outsider.userId)}?${RANGE}`)).res.status).toBe(403);
    expect((await api(jar, `/api/users?${RANGE}`)).res.status).toBe(403);
    expect((await api(jar, `/api/users.csv?${RANGE}`)).res.status).toBe(403);
    expect((await api(jar, `/api/teams/top-users?${RANGE}`)).res.status).toBe(403);
    // The service's per-user answers: their own row, nobody else's.
    const rows = await serviceRows(jar);
    expect(rows.users).toEqual([member.userId]);
    expect(rows.byUser.length).toBeGreaterThan(0);
    expect(new Set(rows.byUser)).toEqual(new Set([member.userId]));
  });

  it('a look-alike address (U+212A KELVIN SIGN for a k) signs in as itself, never finding the page of the one it folds into', async () => {
    const { jar: admin } = await signIn('admin@acme.example');
    const users = (
      JSON.parse((await api(admin, `/api/users?${RANGE}&limit=1000`)).body) as {
        users: { userId: string; email: string | null }[];
      }
    ).users;
    const managers = new Set<string>();
    const collect = (ts: { managers: string[]; children: unknown[] }[]): void =>
      ts.forEach((t) => (t.managers.forEach((m) => managers.add(m)), collect(t.children as typeof ts)));
    collect(teamsAnswerSchema.parse(JSON.parse((await api(admin, '/api/teams')).body)).teams);
    // Someone of the organization with a `k` in their address, who manages nothing (a viewer, as the look-alike is).
    const kim = users.find((u) => u.email && /k.*@/.test(u.email) && !managers.has(u.email))!;
    expect(kim).toBeDefined();
    const kelvin = kim.email!.replace('k', '\u212A');
    expect(kelvin.toLowerCase()).toBe(kim.email);
    const { jar, step } = await signIn(kelvin);
    expect(step.res.status, step.body).toBe(200);
    expect(JSON.parse((await api(jar, '/api/me')).body)).toMatchObject({ email: kelvin, role: 'viewer', userId: null });
    expect((await api(jar, `/api/users/${encodeURIComponent(kim.userId)}?${RANGE}`)).res.status).toBe(403);
    // The person themselves finds their page.
    const own = await signIn(kim.email!);
    expect(JSON.parse((await api(own.jar, '/api/me')).body)).toMatchObject({ email: kim.email, userId: kim.userId });
  });

  it('with RESTRICT_ORG_VIEW=1 a manager sees their teams’ figures only, never the organization’s', async () => {
    current = restricted;
    try {
      const { jar } = await signIn(manager.email);
      const me = JSON.parse((await api(jar, '/api/me')).body) as { teams: string[]; orgView: boolean };
      expect(me.orgView).toBe(false);
      const days = 'startDate=2026-03-01&endDate=2026-03-02';
      expect((await api(jar, `/api/v1/analytics/activity?${days}`)).res.status).toBe(403);
      expect((await api(jar, `/api/teams/analytics/activity?${days}`)).res.status).toBe(403);
      const team = `team=${encodeURIComponent(manager.team)}`;
      expect((await api(jar, `/api/teams/analytics/activity?${days}&${team}`)).res.status).toBe(200);
      const summary = teamsSummarySchema.parse(JSON.parse((await api(jar, `/api/teams/summary?${RANGE}`)).body));
      expect(summary.rows.length).toBeGreaterThan(0);
      expect(summary.rows.map((r) => r.team)).not.toContain('');
      expect(summary.rows.every((r) => me.teams.some((m) => r.team === m || r.team.startsWith(`${m}/`)))).toBe(true);
      // Top users of their teams (the organization's are not asked for).
      expect((await api(jar, `/api/teams/top-users?${RANGE}`)).res.status).toBe(200);
      // The organization's day totals are not theirs, nor the service's list of everyone active: its pages, each
      // saying whether more follow, would count the organization's people a row at a time.
      expect((await api(jar, `/api/v1/analytics/tokens?${days}`)).res.status).toBe(403);
      const walk = await api(jar, `/api/v1/analytics/users?${days}&limit=1`);
      expect(walk.res.status).toBe(403);
      expect(walk.body).toContain('RESTRICT_ORG_VIEW');
      expect(walk.body).not.toContain(outsider.userId);
    } finally {
      current = open;
    }
  });

  it('refuses an email nobody allowed, and an unverified one, without a session', async () => {
    for (const email of ['someone@elsewhere.example', 'unverified@acme.example']) {
      const { step, jar } = await signIn(email);
      expect(step.res.status).toBe(403);
      expect((await api(jar, '/api/me')).res.status).toBe(401);
    }
    expect(logs.some((l) => l.includes('"event":"sign-in refused"') && l.includes('someone@elsewhere.example'))).toBe(
      true,
    );
  });

  it('refuses tampered, expired and foreign-issuer cookies', async () => {
    const { jar } = await signIn('admin@acme.example');
    const host = new URL(base).host;
    const sealed = jar.get(host, 'session')!;
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const key = new Uint8Array(hkdfSync('sha256', SECRET, 'agent-usage-dashboard', 'session cookie', 32));
    const seal = (iss: string, exp: number) =>
      new EncryptJWT({ email: 'admin@acme.example', name: null, purpose: 'session' })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuer(iss)
        .setIssuedAt()
        .setExpirationTime(exp)
        .encrypt(key);
    const now = Math.floor(Date.now() / 1000);
    for (const [what, value] of [
      ['tampered', tampered],
      ['expired', await seal(provider.issuer + '/', now - 10)],
      ['foreign issuer', await seal('https://other-idp.example/', now + 3600)],
      ['garbage', 'not-a-session'],
    ] as const) {
      const j = new CookieJar();
      j.set(host, 'session', value);
      expect((await api(j, '/api/me')).res.status, what).toBe(401);
    }
    // The genuine one still works.
    expect((await api(jar, '/api/me')).res.status).toBe(200);
  });

  it('refuses a wrong state and a replayed code', async () => {
    const jar = new CookieJar();
    const { callback } = await walkSignIn(jar, new URL('/auth/login', base), 'admin@acme.example', {
      stopAtCallback: true,
    });
    const forged = new URL(callback!);
    forged.searchParams.set('state', 'not-the-state');
    const wrong = await request(jar, forged);
    expect(wrong.res.status).toBe(400);
    // The sign-in state is single-use: the right callback after that, or the same one twice, is refused.
    const jar2 = new CookieJar();
    const second = await walkSignIn(jar2, new URL('/auth/login', base), 'admin@acme.example', { stopAtCallback: true });
    const first = await request(jar2, second.callback!);
    expect(first.res.status).toBe(302);
    const replay = await request(jar2, second.callback!);
    expect(replay.res.status).toBe(400);
    // Even with a fresh sign-in state, the provider refuses a code already redeemed.
    const jar3 = new CookieJar();
    await request(jar3, new URL('/auth/login', base));
    const again = await request(jar3, second.callback!);
    expect(again.res.status).toBe(400);
  });

  it('never sends the reader to another site after sign-in', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/.//evil.example/x',
      '/\\evil.example',
      'evil',
      '/%0d%0aLocation:x',
      '',
    ]) {
      expect(safeReturnTo(bad), bad).toMatch(/^\/(?!\/)/);
      expect(new URL(safeReturnTo(bad), 'http://dash.local').host, bad).toBe('dash.local');
    }
    expect(safeReturnTo('/users?start=2026-03-01&team=Data')).toBe('/users?start=2026-03-01&team=Data');
  });
});

describe('the refuse-to-start rule', () => {
  const upstream = { ANALYTICS_BASE_URL: 'https://agent.example', API_KEY: 'k' };
  it('refuses a server holding API_KEY on a public address without sign-in, saying why and how to opt out', () => {
    expect(() => readServerConfig({ ...upstream, HOST: '0.0.0.0' })).toThrow(/Refusing to start: .*ALLOW_ANONYMOUS=1/);
  });
  it('starts on loopback, with ALLOW_ANONYMOUS=1, or with sign-in; the demo on loopback needs nothing', () => {
    expect(readServerConfig({ ...upstream, HOST: '127.0.0.1' }).apiKey).toBe('k');
    expect(readServerConfig({ ...upstream, HOST: '0.0.0.0', ALLOW_ANONYMOUS: '1' }).host).toBe('0.0.0.0');
    const signed = readServerConfig({
      ...upstream,
      HOST: '0.0.0.0',
      OIDC_ISSUER: 'https://idp.example',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
      PUBLIC_URL: 'https://dash.example',
      SESSION_SECRET: SECRET,
    });
    expect(signed.auth?.issuer.href).toBe('https://idp.example/');
    expect(readServerConfig({}).demo).toBeDefined();
  });
  it('refuses half a sign-in configuration, naming what is missing', () => {
    expect(() => readServerConfig({ OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'c' })).toThrow(
      /needs OIDC_CLIENT_SECRET, PUBLIC_URL, SESSION_SECRET/,
    );
    expect(() =>
      readServerConfig({
        OIDC_ISSUER: 'https://idp.example',
        OIDC_CLIENT_ID: 'c',
        OIDC_CLIENT_SECRET: 's',
        PUBLIC_URL: 'https://dash.example',
        SESSION_SECRET: 'short',
      }),
    ).toThrow(/SESSION_SECRET must be at least 32 characters/);
  });
});
