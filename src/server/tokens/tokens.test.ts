/**
 * Personal API tokens through the dashboard's HTTP server on the demo organization, signed in with the test OpenID
 * provider: a token made on the screen's routes acts as its person, with their role and teams as the mapping gives
 * them at each request; revoked, expired, over its rate, on a server without sign-in, or asked to act on tokens or
 * change anything, it is refused; it is the MCP endpoint's bearer; privacy mode and RESTRICT_ORG_VIEW answer a token
 * exactly as they answer the person's session; and neither a token nor an Authorization header ever reaches the log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokensAnswerSchema, newApiTokenSchema, TOKENS_NEED_SIGN_IN } from '../../api/api-tokens';
import { errorBodySchema } from '../../api/schemas';
import { CookieJar, request, signedIn, signInEnv, startProvider, type TestProvider } from '../../test/oidc';
import { issueToken, TOKEN_PREFIX } from '../auth/tokens';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readDemoConfig } from '../demo/config';
import { createDemoService } from '../demo/service';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';

const DEMO = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'tokens', DEMO_USERS: '60' };
const START = '2026-03-01';
const END = '2026-03-31';
const RANGE = `start=${START}&end=${END}`;
const DAYS = `startDate=${START}&endDate=${END}`;
const ADMIN = 'admin@acme.example';
const LEAD = 'lead@acme.example';
/** Let in only as a manager in the mapping (their domain is not allowed). */
const PARTNER = 'partner@partner.example';

/** The demo's people with an email who were active in the range. */
function activePeople() {
  const org = createDemoService(readDemoConfig(DEMO)).world().org;
  const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
  return org.users.flatMap((u, i) =>
    u.email !== null && org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]! > 0 ? [u.email] : [],
  );
}
const active = activePeople();
const alpha = active.slice(0, 4);
const tiny = active.slice(4, 5);
const beta = active.slice(5, 9);
const small = active.slice(9, 11);
const csv = (rows: string[][]) => ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n';
const people = [
  ...alpha.map((e) => [e, 'Alpha', '']),
  ...tiny.map((e) => [e, 'Alpha/Tiny', '']),
  ...beta.map((e) => [e, 'Beta', '']),
  ...small.map((e) => [e, 'Small', '']),
];
/** Lead manages Alpha and Beta; the partner, Small. */
const FIRST = csv([['', 'Alpha', LEAD], ['', 'Beta', LEAD], ['', 'Small', PARTNER], ...people]);
/** Beta taken from Lead; the partner manages nothing any more. */
const SECOND = csv([['', 'Alpha', LEAD], ...people]);

let provider: TestProvider;
let base: string;
let server: Server;
let store: StoreDb;
const logs: string[] = [];
const logger = createLogger((l) => logs.push(l));
/** Every token made here: none may be in the log. */
const secrets: string[] = [];
let env: Record<string, string>;
let open: ReturnType<typeof createApp>;
/** The app answering the test server's requests (the others share its address and store). */
let current: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = createServer((req, res) => current.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  env = { ...DEMO, DATA_DIR: ':memory:', ...signInEnv(provider.issuer, base) };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  open = current = createApp(config, { store, storeConfig, logger });
}, 60_000);

afterAll(async () => {
  server.close();
  await provider.close();
  await store.close();
});

/** Another app on the same store, answering at the same address (another replica, or other settings). */
function appWith(extra: Record<string, string | undefined>) {
  const e = { ...env, ...extra };
  for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
  return createApp(readServerConfig(e), { store, storeConfig: readStoreConfig(e), logger });
}
async function on<T>(app: ReturnType<typeof createApp>, fn: () => Promise<T>): Promise<T> {
  current = app;
  try {
    return await fn();
  } finally {
    current = open;
  }
}

const api = (jar: CookieJar, path: string, init?: RequestInit) => request(jar, new URL(path, base), init);
const withToken = async (token: string, path: string, init: RequestInit = {}) => {
  const res = await fetch(new URL(path, base), {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
  });
  return { res, body: await res.text() };
};
const sendJson = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
async function makeToken(jar: CookieJar, name: string, days = 30) {
  const r = await api(jar, '/api/api-tokens', sendJson('POST', { name, days }));
  expect(r.res.status, r.body).toBe(201);
  const made = newApiTokenSchema.parse(JSON.parse(r.body));
  secrets.push(made.token);
  return made;
}
async function upload(jar: CookieJar, text: string) {
  const put = await api(jar, '/api/teams/mapping', sendJson('PUT', { format: 'csv', text }));
  expect(put.res.status, put.body).toBe(200);
}
/** An error answer as the service shapes it, its request id aside (each answer has its own). */
const errorOf = (body: string) => {
  const e = errorBodySchema.parse(JSON.parse(body));
  expect(e.requestId).toMatch(/^req_/);
  return { ...e, requestId: undefined };
};
/** An answer as compared between a session and a token: its status, and its body (an error's without its id). */
const answerOf = (r: { res: Response; body: string }) => ({
  status: r.res.status,
  body: r.res.status >= 400 ? errorOf(r.body) : r.body,
});

describe('personal API tokens', () => {
  let admin: CookieJar;
  let lead: CookieJar;
  let leadToken: string;
  let adminToken: string;
  let revokedToken: string;

  beforeAll(async () => {
    admin = await signedIn(base, ADMIN);
    await upload(admin, FIRST);
    lead = await signedIn(base, LEAD);
  }, 60_000);

  it('is made on the screen’s routes, shown once, listed without itself, and acts as its person', async () => {
    const made = await makeToken(lead, '  Weekly\treport ', 90);
    leadToken = made.token;
    expect(made.token).toMatch(new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(made.about).toMatchObject({ name: 'Weekly report', email: LEAD, state: 'active', revokedAt: null });
    expect(Date.parse(made.about.expiresAt) - Date.parse(made.about.createdAt)).toBe(90 * 86_400_000);
    const list = await api(lead, '/api/api-tokens');
    expect(list.res.status).toBe(200);
    expect(apiTokensAnswerSchema.parse(JSON.parse(list.body)).tokens.map((t) => t.id)).toEqual([made.about.id]);
    expect(list.body).not.toContain(made.token.slice(TOKEN_PREFIX.length));

    // Who it is: the person, with their role and teams.
    const me = await withToken(made.token, '/api/me');
    expect(me.res.status).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ email: LEAD, role: 'manager', teams: ['Alpha', 'Beta'] });
    // What they read: the same as their session reads, the service's documented paths among them (answered here,
    // never with the token passed on to the service, which would refuse it).
    for (const path of [`/api/users?${RANGE}`, `/api/teams/summary?${RANGE}`, `/api/v1/analytics/activity?${DAYS}`]) {
      const [bySession, byToken] = [await api(lead, path), await withToken(made.token, path)];
      expect(byToken.res.status, `${path}: ${byToken.body}`).toBe(200);
      expect(byToken.body, path).toBe(bySession.body);
    }
    const users = JSON.parse((await withToken(made.token, `/api/users?${RANGE}`)).body) as {
      users: { email: string }[];
    };
    expect(new Set(users.users.map((u) => u.email))).toEqual(new Set([...alpha, ...tiny, ...beta]));

    // Their views are audited as their session's are, naming the token.
    const rows = JSON.parse((await withToken(made.token, `/api/users?${RANGE}`)).body) as {
      users: { userId: string; email: string }[];
    };
    const id = rows.users.find((u) => u.email === alpha[0])!.userId;
    expect((await withToken(made.token, `/api/users/${encodeURIComponent(id)}?${RANGE}`)).res.status).toBe(200);
    const viewed = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'view user');
    expect(viewed).toContainEqual(
      expect.objectContaining({ who: LEAD, user: id, credential: `api token ${made.about.id}` }),
    );

    // An admin's token: an admin's reading.
    adminToken = (await makeToken(admin, 'admin script')).token;
    expect(JSON.parse((await withToken(adminToken, '/api/me')).body)).toMatchObject({ role: 'admin' });
    const everyone = JSON.parse((await withToken(adminToken, `/api/users?${RANGE}`)).body) as { users: unknown[] };
    expect(everyone.users.length).toBeGreaterThan(users.users.length);
  });

  it('makes no tokens, acts on none, changes nothing and opens no page; the screen’s changes keep the Origin rule', async () => {
    const mine = apiTokensAnswerSchema.parse(JSON.parse((await api(lead, '/api/api-tokens')).body)).tokens[0]!;
    for (const [token, path, init] of [
      [leadToken, '/api/api-tokens', {}],
      [leadToken, '/api/api-tokens', sendJson('POST', { name: 'another', days: 365 })],
      [leadToken, `/api/api-tokens/${mine.id}`, { method: 'DELETE' }],
      [adminToken, '/api/api-tokens/all', {}],
      [adminToken, '/api/teams/mapping', sendJson('PUT', { format: 'csv', text: SECOND })],
      [adminToken, '/api/marks', sendJson('POST', { day: START, team: '', text: 'from a token' })],
      [adminToken, '/', {}],
    ] as const) {
      const r = await withToken(token, path, init);
      expect(r.res.status, `${init.method ?? 'GET'} ${path}: ${r.body}`).toBe(403);
      expect(errorOf(r.body).title).toBe('Forbidden');
    }
    expect(apiTokensAnswerSchema.parse(JSON.parse((await api(lead, '/api/api-tokens')).body)).tokens).toHaveLength(1);
    expect((await api(admin, '/api/teams/mapping')).body).toContain(`Beta,${LEAD}`);

    // The session's changes: from the dashboard's own pages, as JSON, within the rules.
    const elsewhere = sendJson('POST', { name: 'x', days: 1 }, { origin: 'https://evil.example' });
    expect((await api(lead, '/api/api-tokens', elsewhere)).res.status).toBe(403);
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' };
    expect((await api(lead, '/api/api-tokens', form)).res.status).toBe(415);
    for (const [body, words] of [
      [{ name: 'x', days: 366 }, 'from 1 to 365'],
      [{ name: 'x', days: 0 }, 'from 1 to 365'],
      [{ name: 'x', days: 1.5 }, 'from 1 to 365'],
      [{ name: ' \n', days: 7 }, '"name" is empty'],
      [{ name: 'x'.repeat(81), days: 7 }, 'at most 80'],
      [{ days: 7 }, '"name" must'],
    ] as const) {
      const r = await api(lead, '/api/api-tokens', sendJson('POST', body));
      expect(r.res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(r.body).detail).toContain(words);
    }
    // Everyone's tokens: for admins.
    expect((await api(lead, '/api/api-tokens/all')).res.status).toBe(403);
    const all = apiTokensAnswerSchema.parse(JSON.parse((await api(admin, '/api/api-tokens/all')).body)).tokens;
    expect(all.map((t) => t.email).sort()).toEqual([ADMIN, LEAD]);
  });

  it('refuses a revoked or an expired token with 401 and the error body; a person revokes their own, an admin any', async () => {
    const [one, two] = [await makeToken(lead, 'one'), await makeToken(lead, 'two')];
    revokedToken = one.token;
    const adminOwn = apiTokensAnswerSchema
      .parse(JSON.parse((await api(admin, '/api/api-tokens')).body))
      .tokens.find((t) => t.state === 'active')!;
    // Not another person's: not said to exist.
    expect((await api(lead, `/api/api-tokens/${adminOwn.id}`, { method: 'DELETE' })).res.status).toBe(404);
    const own = await api(lead, `/api/api-tokens/${one.about.id}`, { method: 'DELETE' });
    expect(own.res.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({ revoked: { id: one.about.id, state: 'revoked', revokedBy: LEAD } });
    expect((await api(admin, `/api/api-tokens/${two.about.id}`, { method: 'DELETE' })).res.status).toBe(200);
    const listed = apiTokensAnswerSchema.parse(JSON.parse((await api(lead, '/api/api-tokens')).body)).tokens;
    expect(listed.find((t) => t.id === two.about.id)).toMatchObject({ state: 'revoked', revokedBy: ADMIN });

    const expired = await issueToken(
      store.db,
      { email: LEAD, name: 'old', days: 1 },
      new Date(Date.now() - 2 * 86_400_000),
    );
    secrets.push(expired.token);
    for (const [token, words] of [
      [one.token, 'was revoked on'],
      [two.token, 'was revoked on'],
      [expired.token, 'expired on'],
      [`${TOKEN_PREFIX}${'x'.repeat(43)}`, 'not known here'],
    ] as const) {
      const r = await withToken(token, `/api/users?${RANGE}`);
      expect(r.res.status).toBe(401);
      expect(r.res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(errorOf(r.body)).toMatchObject({ title: 'Unauthorized', status: 401 });
      expect(errorOf(r.body).detail).toContain(words);
    }
    // The one left still acts.
    expect((await withToken(leadToken, '/api/me')).res.status).toBe(200);
  });

  it('follows the mapping at each request: a manager’s token loses a team, a person no longer let in is refused', async () => {
    const partner = await signedIn(base, PARTNER);
    const partnerToken = (await makeToken(partner, 'partner')).token;
    expect(JSON.parse((await withToken(partnerToken, '/api/me')).body)).toMatchObject({ teams: ['Small'] });
    expect((await withToken(leadToken, `/api/users?${RANGE}&team=Beta`)).res.status).toBe(200);

    await upload(admin, SECOND);
    expect(JSON.parse((await withToken(leadToken, '/api/me')).body)).toMatchObject({ teams: ['Alpha'] });
    const beta = await withToken(leadToken, `/api/users?${RANGE}&team=Beta`);
    expect(beta.res.status).toBe(403);
    expect(errorOf(beta.body).detail).toContain('"Beta" is not one of them');
    const users = JSON.parse((await withToken(leadToken, `/api/users?${RANGE}`)).body) as {
      users: { email: string }[];
    };
    expect(new Set(users.users.map((u) => u.email))).toEqual(new Set([...alpha, ...tiny]));
    const gone = await withToken(partnerToken, '/api/me');
    expect(gone.res.status).toBe(403);
    expect(errorOf(gone.body).detail).toContain('may not sign in here any more');
  });

  it('is the MCP endpoint’s bearer: the SDK’s client acts as its person, as the mapping now stands', async () => {
    const connect = async (token: string) => {
      const client = new Client({ name: 'tokens-test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    const client = await connect(leadToken);
    try {
      const call = async (args: Record<string, unknown>) => {
        const r = (await client.callTool({ name: 'users', arguments: args })) as CallToolResult;
        return { error: r.isError === true, body: JSON.parse((r.content[0] as { text: string }).text) as unknown };
      };
      const mine = await call({ start: START, end: END });
      expect(mine.error).toBe(false);
      const emails = (mine.body as { users: { email: string }[] }).users.map((u) => u.email);
      expect(new Set(emails)).toEqual(new Set([...alpha, ...tiny]));
      const taken = await call({ start: START, end: END, teams: ['Beta'] });
      expect(taken).toMatchObject({ error: true, body: { status: 403 } });
    } finally {
      await client.close();
    }
    // The tools' own requests are audited as the token's.
    const refused = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'refused');
    expect(refused).toContainEqual(
      expect.objectContaining({ who: LEAD, path: '/api/users', credential: expect.stringMatching(/^api token /) }),
    );
    // A revoked token does not connect.
    await expect(connect(revokedToken)).rejects.toThrow(/401/);
  });

  it('keeps privacy mode and RESTRICT_ORG_VIEW exactly as for the person’s session', async () => {
    const strict = appWith({ PRIVACY_MIN_GROUP: '3', RESTRICT_ORG_VIEW: '1' });
    await on(strict, async () => {
      const session = await signedIn(base, LEAD);
      const outsider = beta[0]!;
      const answers = [];
      // Who they are, but their name: the provider's, known to a session only.
      const me = (r: { body: string }) => ({ ...(JSON.parse(r.body) as object), name: undefined });
      expect(me(await withToken(leadToken, '/api/me'))).toEqual(me(await api(session, '/api/me')));
      for (const path of [
        '/api/teams',
        `/api/teams/summary?${RANGE}`,
        `/api/users?${RANGE}`,
        `/api/users.csv?${RANGE}`,
        `/api/users?${RANGE}&team=Alpha%2FTiny`,
        `/api/teams/top-users?${RANGE}`,
        `/api/highlights?${RANGE}`,
        `/api/v1/analytics/activity?${DAYS}`,
        `/api/v1/analytics/users?${DAYS}&limit=100`,
        `/api/spend/teams?${RANGE}`,
        `/api/users/${encodeURIComponent(outsider)}?${RANGE}`,
      ]) {
        const [bySession, byToken] = [answerOf(await api(session, path)), answerOf(await withToken(leadToken, path))];
        expect(byToken, path).toEqual(bySession);
        answers.push({ path, ...byToken });
      }
      // The MCP tools, asked with the token, answer as the session's routes do.
      const client = new Client({ name: 'tokens-test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${leadToken}` } },
        }),
      );
      try {
        for (const [name, args, path] of [
          [
            'figures',
            { start: START, end: END, measures: ['credits', 'active'] },
            `/api/figures?${RANGE}&measure=credits&measure=active`,
          ],
          [
            'figures',
            { start: START, end: END, measures: ['credits'], by: 'team' },
            `/api/figures?${RANGE}&measure=credits&by=team`,
          ],
          [
            'figures',
            { start: START, end: END, measures: ['credits'], teams: ['Alpha/Tiny'] },
            `/api/figures?${RANGE}&measure=credits&team=Alpha%2FTiny`,
          ],
          ['teams', {}, '/api/teams'],
          ['users', { start: START, end: END }, `/api/users?${RANGE}`],
        ] as const) {
          const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
          const text = (r.content[0] as { text: string }).text;
          const page = answerOf(await api(session, path));
          const tool =
            r.isError === true
              ? { status: (JSON.parse(text) as { status: number }).status, body: errorOf(text) }
              : { status: 200, body: text };
          expect(tool, `the ${name} tool ${JSON.stringify(args)}`).toEqual(page);
          answers.push({ path: `the ${name} tool`, ...tool });
        }
      } finally {
        await client.close();
      }
      const tools = JSON.stringify(answers.filter((a) => a.path.startsWith('the ')));
      expect(tools).toContain('RESTRICT_ORG_VIEW');
      expect(tools).toContain('PRIVACY_MIN_GROUP=3');
      // Not vacuous: the token was refused what the mode and the setting refuse, and shown pseudonyms.
      const text = JSON.stringify(answers);
      expect(text).toContain('RESTRICT_ORG_VIEW');
      expect(text).toContain('PRIVACY_MIN_GROUP=3');
      expect(text).toMatch(/Person [0-9a-f]{10}/);
      for (const e of alpha) expect(text).not.toContain(e);
    });
  }, 60_000);

  it('is limited in rate per token: 429 with Retry-After, other tokens and sessions unaffected', async () => {
    const limited = appWith({ API_TOKEN_RATE: '2' });
    await on(limited, async () => {
      const other = (await makeToken(lead, 'other')).token;
      expect((await withToken(leadToken, '/api/me')).res.status).toBe(200);
      expect((await withToken(leadToken, '/api/me')).res.status).toBe(200);
      const over = await withToken(leadToken, '/api/me');
      expect(over.res.status).toBe(429);
      expect(Number(over.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(over.res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      expect(errorOf(over.body)).toMatchObject({ title: 'Too Many Requests', status: 429 });
      expect(errorOf(over.body).detail).toContain('API_TOKEN_RATE');
      expect((await withToken(other, '/api/me')).res.status).toBe(200);
      expect((await api(lead, '/api/me')).res.status).toBe(200);
    });
  });

  it('is refused without sign-in, saying why, and never passed on to the service', async () => {
    const anonymous = appWith({
      OIDC_ISSUER: undefined,
      OIDC_CLIENT_ID: undefined,
      OIDC_CLIENT_SECRET: undefined,
      SESSION_SECRET: undefined,
      ADMIN_EMAILS: undefined,
      ALLOWED_DOMAINS: undefined,
    });
    await on(anonymous, async () => {
      for (const path of ['/api/config', `/api/v1/analytics/activity?${DAYS}`, `/api/users?${RANGE}`]) {
        const r = await withToken(leadToken, path);
        expect(r.res.status, path).toBe(401);
        expect(errorOf(r.body).detail).toBe(TOKENS_NEED_SIGN_IN);
      }
      const screen = await fetch(new URL('/api/api-tokens', base));
      expect(screen.status).toBe(403);
      expect(errorOf(await screen.text()).detail).toBe(TOKENS_NEED_SIGN_IN);
      // A reader's own key of the service is not a token: passed on as before.
      const own = await fetch(new URL(`/api/v1/analytics/activity?${DAYS}`, base), {
        headers: { authorization: 'Bearer demo-owner' },
      });
      expect(own.status).toBe(200);
    });
  });

  it('never writes a token or an Authorization header to the log, and audits what tokens do', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    const text = logs.join('\n');
    for (const s of secrets) expect(text).not.toContain(s.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 16));
    expect(text).not.toContain(TOKEN_PREFIX);
    expect(text).not.toMatch(/bearer/i);
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const audit = (event: string) => lines.filter((l) => l.msg === 'audit' && l.event === event);
    expect(audit('api token made').length).toBe(secrets.length - 1);
    expect(audit('api token revoked').map((l) => l.who)).toEqual([LEAD, ADMIN]);
    const reasons = new Set(audit('refused').map((l) => l.reason));
    for (const r of ['revoked api token', 'expired api token', 'unknown api token', 'api token over its rate'])
      expect(reasons).toContain(r);
    // Each request is logged by its path, never its headers.
    expect(lines.some((l) => l.msg === 'request' && l.path === '/api/users')).toBe(true);
  });
});
