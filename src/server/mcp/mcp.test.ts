/**
 * The MCP server at /mcp, driven by the SDK's own client (Client + StreamableHTTPClientTransport) against real
 * dashboards on loopback ports, signed in through the test OpenID provider: it initializes and lists its tools;
 * each tool answers what the page's route answers the same reader for the same question; a question the route
 * refuses is a tool error carrying the route's status and detail; and the reader's role, teams and privacy mode
 * hold (a viewer gets no one's rows, a manager their people only, by pseudonym in privacy mode, no team under k).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURE_IDS } from '../../api/figures';
import { readinessAnswerSchema } from '../../api/readiness';
import { isStale, reportAgeDays } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { signInEnv, signedIn, startProvider, request, type CookieJar, type TestProvider } from '../../test/oidc';
import { pseudonym } from '../auth/privacy';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readDemoConfig } from '../demo/config';
import { createDemoService } from '../demo/service';
import { readStoreConfig } from '../store/config';

const dir = mkdtempSync(join(tmpdir(), 'mcp-'));
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'mcp', DEMO_USERS: '60' };
const START = '2026-04-01';
const END = '2026-04-30';
const RANGE = `start=${START}&end=${END}`;
const SECRET = 'mcp-test-privacy-secret-of-32-characters!';
const TOOLS = ['alerts', 'figures', 'goals', 'list_figures', 'marks', 'readiness', 'reconciliation', 'teams', 'users'];
/** Each tool's route, and the route's name of each of its parameters named otherwise (the tool's own: null). */
const ROUTES: Record<string, { path: string; names?: Record<string, string | null> }> = {
  figures: { path: '/api/figures', names: { measures: 'measure', teams: 'team' } },
  users: { path: '/api/users', names: { teams: 'team' } },
  readiness: { path: '/api/readiness', names: { teams: 'team', repo: null } },
  marks: { path: '/api/marks', names: { teams: 'team' } },
  goals: { path: '/api/goals', names: { teams: 'team' } },
  reconciliation: { path: '/api/reconciliation', names: { teams: 'team' } },
};
/** A goal's date: weeks after the latest day with data. */
const GOAL_BY = '2026-07-31';

const { core, pair, others } = (() => {
  const org = createDemoService(readDemoConfig(DEMO)).world().org;
  const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
  const active = org.users.filter(
    (u, i) => u.email !== null && org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]! > 0,
  );
  return { core: active.slice(0, 5), pair: active.slice(5, 7), others: active.slice(7) };
})();
/** Core's manager is one of its people; the viewer is one of Else's. */
const lead = core[0]!;
const EMAILS = { admin: 'admin@acme.example', lead: lead.email!, viewer: others[0]!.email! };

const servers: Server[] = [];
const cleanups: (() => Promise<void>)[] = [];
let provider: TestProvider;
const base = { plain: '', private: '', open: '' };

async function listen() {
  let app: ReturnType<typeof createApp> | undefined;
  const server = createServer((req, res) => app!.handler(req, res, () => res.end('the page')));
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    at,
    start: async (env: Record<string, string>) => {
      const full = { ...DEMO, DATA_DIR: ':memory:', ...env };
      const config = readServerConfig(full);
      const storeConfig = readStoreConfig(full);
      const store = (await openAppStore(config, storeConfig))!;
      app = createApp(config, { store, storeConfig });
      cleanups.push(async () => {
        await app!.close();
        await store.close();
      });
      return at;
    },
  };
}

beforeAll(async () => {
  const ls = [await listen(), await listen(), await listen()];
  provider = await startProvider(ls.map((l) => `${l.at}/auth/callback`));
  const teams = join(dir, 'teams.csv');
  const rows = [
    ['', 'Core', lead.email!],
    ...core.map((p) => [p.email!, 'Core', '']),
    ...pair.map((p) => [p.email!, 'Core/Pair', '']),
    ...others.slice(0, 10).map((p) => [p.email!, 'Else', '']),
  ];
  writeFileSync(teams, ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n');
  base.plain = await ls[0]!.start({ TEAMS_FILE: teams, ...signInEnv(provider.issuer, ls[0]!.at) });
  base.private = await ls[1]!.start({
    TEAMS_FILE: teams,
    ...signInEnv(provider.issuer, ls[1]!.at),
    PRIVACY_MIN_GROUP: '3',
    PRIVACY_SECRET: SECRET,
  });
  // Without sign-in, and under a base path: the tools' requests are made under it too.
  base.open = `${await ls[2]!.start({ TEAMS_FILE: teams, BASE_PATH: '/dash' })}/dash`;
}, 60_000);

afterAll(async () => {
  servers.forEach((s) => s.close());
  await provider?.close();
  for (const c of cleanups.splice(0)) await c();
  rmSync(dir, { recursive: true, force: true });
});

/** A personal API token of a signed-in reader, made as the tokens screen makes one. */
async function tokenOf(at: string, jar: CookieJar): Promise<string> {
  const r = await request(jar, new URL(`${at}/api/api-tokens`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'assistant', days: 30 }),
  });
  expect(r.res.status, r.body).toBe(201);
  return (JSON.parse(r.body) as { token: string }).token;
}

/**
 * A reader of a dashboard: their MCP client, with a personal API token of theirs as its bearer (or their session's
 * cookie, `by: 'session'`), and their reader of the routes (signed in).
 */
async function reader(where: keyof typeof base, who?: keyof typeof EMAILS, by: 'token' | 'session' = 'token') {
  const jar = who ? await signedIn(base[where], EMAILS[who]) : undefined;
  const url = new URL(`${base[where]}/mcp`);
  const headers: Record<string, string> = !jar
    ? {}
    : by === 'token'
      ? { authorization: `Bearer ${await tokenOf(base[where], jar)}` }
      : { cookie: jar.header(url) };
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  cleanups.push(() => client.close());
  const route = async (path: string) => {
    const r = jar ? await request(jar, new URL(base[where] + path)) : null;
    const res = r?.res ?? (await fetch(base[where] + path));
    const body = r?.body ?? (await res.text());
    return { status: res.status, body };
  };
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  /** A tool's answer, which must not be an error. */
  const tool = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await call(name, args);
    const t = (r.content[0] as { text: string }).text;
    expect(r.isError, `${name}: ${t}`).toBeFalsy();
    return JSON.parse(t) as Record<string, unknown>;
  };
  /** A route's JSON answer, which must be a 200. */
  const page = async (path: string) => {
    const r = await route(path);
    expect(r.status, `${path}: ${r.body}`).toBe(200);
    return JSON.parse(r.body) as Record<string, unknown>;
  };
  return { client, call, tool, page, route, jar };
}

/** A tool error's route answer: its status and detail. */
const errorOf = (r: CallToolResult) => {
  expect(r.isError).toBe(true);
  return JSON.parse((r.content[0] as { text: string }).text) as { status: number; detail: string };
};

describe('the MCP server', () => {
  it('is asked as the API is: a 401 without credentials, POST only, no request from another site', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string> = {}, at = base.plain) =>
      fetch(`${at}/mcp`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    const anonymous = await post();
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { detail: string }).detail).toMatch(/^Sign in first/);
    await expect(reader('plain')).rejects.toThrow(/401/);

    const admin = await signedIn(base.plain, EMAILS.admin);
    const cookie = admin.header(new URL(base.plain));
    expect((await post({ cookie })).status).toBe(200);
    // A page of another site (DNS rebinding, a form) is refused; an MCP client sends no Origin.
    expect((await post({ cookie, origin: 'http://evil.example' })).status).toBe(403);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${base.plain}/mcp`, { method, headers: { cookie } });
      expect([r.status, r.headers.get('allow')], method).toEqual([405, 'POST']);
    }
    // A session's cookie serves as well as a token; a revoked token is refused as on the API.
    const bySession = await reader('plain', 'viewer', 'session');
    expect((await bySession.client.listTools()).tools).toHaveLength(TOOLS.length);
    const token = await tokenOf(base.plain, admin);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await post(bearer)).status).toBe(200);
    const list = await request(admin, new URL(`${base.plain}/api/api-tokens`));
    const id = (JSON.parse(list.body) as { tokens: { id: string }[] }).tokens[0]!.id;
    const revoke = await request(admin, new URL(`${base.plain}/api/api-tokens/${id}`), { method: 'DELETE' });
    expect(revoke.res.status, revoke.body).toBe(200);
    const revoked = await post(bearer);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { detail: string }).detail).toMatch(/^This API token was revoked/);

    // Without sign-in, /mcp is open as the dashboard is.
    expect((await post({}, base.open)).status).toBe(200);
    const open = await reader('open');
    expect((await open.client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(await open.tool('users', { start: START, end: END, limit: 3 })).toEqual(
      await open.page(`/api/users?${RANGE}&limit=3`),
    );
  });

  it('lists its tools, each described, and the figures with their definitions', async () => {
    const admin = await reader('plain', 'admin');
    const { tools } = await admin.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) expect(t.description!.length, t.name).toBeGreaterThan(80);
    const figures = tools.find((t) => t.name === 'figures')!;
    expect(figures.inputSchema.required).toEqual(['measures']);
    expect(JSON.stringify(figures.inputSchema.properties)).toContain('"enum":["total","day","week","team","person"]');
    const list = (await admin.tool('list_figures')) as { measures: Record<string, unknown>[] };
    expect(list.measures.map((m) => m.id)).toEqual(MEASURE_IDS);
    expect(list.measures.find((m) => m.id === 'creditsPerCommit')).toMatchObject({
      label: 'Credits per commit',
      unit: 'standard credits',
      better: 'down',
      formula: expect.stringMatching(/^credits ÷ commits: a ratio of the sums/),
      // No price list here: spend is not given.
      available: true,
    });
    expect(list.measures.find((m) => m.id === 'spend')).toMatchObject({ available: false });
  });

  it('answers an admin as the pages do, tool by tool', async () => {
    const admin = await reader('plain', 'admin');
    const q = { start: START, end: END };
    const same = async (name: string, args: Record<string, unknown>, path: string) =>
      expect(await admin.tool(name, args), name).toEqual(await admin.page(path));
    await same(
      'figures',
      { ...q, measures: ['credits', 'active', 'adoption'], by: 'team' },
      `/api/figures?${RANGE}&measure=credits&measure=active&measure=adoption&by=team`,
    );
    await same(
      'figures',
      { ...q, measures: ['credits'], by: 'person', top: 3, compare: 'none' },
      `/api/figures?${RANGE}&measure=credits&by=person&top=3&compare=none`,
    );
    await same(
      'figures',
      { ...q, measures: ['toolCallsPerTurn'], by: 'week', teams: ['Core'] },
      `/api/figures?${RANGE}&measure=toolCallsPerTurn&by=week&team=Core`,
    );
    await same('teams', {}, '/api/teams');
    await same(
      'users',
      { ...q, sort: 'commits', dir: 'asc', limit: 5, offset: 2, teams: ['Core', 'Else'] },
      `/api/users?${RANGE}&sort=commits&dir=asc&limit=5&offset=2&team=Core&team=Else`,
    );
    expect((await admin.tool('alerts')).open).toEqual((await admin.page('/api/alerts')).open);
    await same('marks', {}, '/api/marks/all');
    await same('marks', { ...q, teams: ['Core'] }, `/api/marks?${RANGE}&team=Core`);

    // The teams summary's row of Core, as figures by team gives it.
    const summary = (await admin.page(`/api/teams/summary?${RANGE}`)) as {
      rows: { team: string; current: Record<string, number> }[];
    };
    const byTeam = (await admin.tool('figures', { ...q, measures: ['credits', 'active'], by: 'team' })) as {
      rows: { key: string; current: Record<string, number> }[];
    };
    const row = (t: string) => summary.rows.find((r) => r.team === t)!.current;
    for (const r of byTeam.rows)
      expect(r.current, r.key).toEqual({ credits: row(r.key).credits, active: row(r.key).active });

    // Readiness: the levels of every repository, and what to fix next as the fixes' CSV counts it.
    const readiness = (await admin.tool('readiness')) as {
      repositories: number;
      levels: { counts: number[] };
      fixes: { id: string; repositories: number; liftedAlone: number }[];
      repos: { key: string; level: number }[];
    };
    expect(readiness.repositories).toBeGreaterThan(0);
    expect(readiness.levels.counts.reduce((a, b) => a + b, 0)).toBe(readiness.repositories);
    const csv = parse((await admin.route('/api/readiness/fixes.csv')).body, { columns: true }) as Record<
      string,
      string
    >[];
    expect(readiness.fixes).toEqual(
      csv.slice(0, 20).map((f) => ({
        id: f.criterion,
        name: f.name,
        level: f.level === '' ? null : Number(f.level),
        pillar: f.pillar,
        repositories: Number(f.repositories),
        liftedAlone: Number(f.lifted_alone),
      })),
    );
    const one = readiness.repos[0]!;
    const repo = (await admin.tool('readiness', { repo: `https://${one.key}` })) as { key: string; level: number };
    expect(repo).toMatchObject({ key: one.key, level: one.level });
    const missing = await admin.call('readiness', { repo: 'nowhere/nothing' });
    expect(missing.isError).toBe(true);

    // A bad question is the route's 400, with its detail.
    const bad = errorOf(await admin.call('figures', { ...q, measures: ['credits'], top: 5 }));
    const route = JSON.parse((await admin.route(`/api/figures?${RANGE}&measure=credits&top=5`)).body) as {
      detail: string;
    };
    expect(bad).toMatchObject({ status: 400, detail: route.detail });
    expect(
      errorOf(await admin.call('figures', { measures: ['credits'], start: '2026-04-31', end: END })),
    ).toMatchObject({ status: 400, detail: 'start must be a day (YYYY-MM-DD), got "2026-04-31".' });
    expect((await admin.call('figures', { measures: ['nothing'] })).isError).toBe(true);
  });

  it('keeps a manager to their teams and people, and refuses a viewer other people’s rows', async () => {
    const mgr = await reader('plain', 'lead');
    const people = (await mgr.tool('figures', { start: START, end: END, measures: ['credits'], by: 'person' })) as {
      rows: { key: string }[];
    };
    expect(new Set(people.rows.map((r) => r.key))).toEqual(new Set([...core, ...pair].map((p) => p.id)));
    expect(await mgr.tool('users', { start: START, end: END })).toEqual(await mgr.page(`/api/users?${RANGE}`));
    const outside = errorOf(await mgr.call('figures', { measures: ['credits'], teams: ['Else'] }));
    expect(outside.status).toBe(403);
    expect(outside.detail).toBe(
      (JSON.parse((await mgr.route('/api/figures?measure=credits&team=Else')).body) as { detail: string }).detail,
    );

    const viewer = await reader('plain', 'viewer');
    const users = errorOf(await viewer.call('users'));
    expect(users).toMatchObject({ status: 403, detail: expect.stringMatching(/^Other people’s rows are shown/) });
    expect(users.detail).toBe((JSON.parse((await viewer.route('/api/users')).body) as { detail: string }).detail);
    expect(errorOf(await viewer.call('teams')).status).toBe(403);
    const org = await viewer.tool('figures', { start: START, end: END, measures: ['active'] });
    expect(org).toEqual(await viewer.page(`/api/figures?${RANGE}&measure=active`));
    expect(
      await viewer.tool('figures', { start: START, end: END, measures: ['credits'], user: others[0]!.id }),
    ).toEqual(await viewer.page(`/api/figures?${RANGE}&measure=credits&user=${others[0]!.id}`));
  });

  it('holds privacy mode: pseudonyms only, no team under k, no one else’s figures by id', async () => {
    const mgr = await reader('private', 'lead');
    const table = (await mgr.tool('users', { start: START, end: END, limit: 100 })) as {
      users: { userId: string; email: string | null }[];
    };
    expect(table.users.map((u) => u.userId).sort()).toEqual(
      [...core, ...pair].map((p) => pseudonym(SECRET, p.id)).sort(),
    );
    expect(table.users.every((u) => u.email === null)).toBe(true);
    const byTeam = (await mgr.tool('figures', { start: START, end: END, measures: ['members'], by: 'team' })) as {
      rows: { key: string; current: { members: number } }[];
    };
    expect(byTeam.rows).toEqual([expect.objectContaining({ key: 'Core', current: { members: 7 } })]);
    const tree = JSON.stringify(await mgr.tool('teams'));
    expect(tree).not.toContain('Core/Pair');
    expect(tree).not.toContain('@');
    const pairAlone = errorOf(await mgr.call('figures', { measures: ['credits'], teams: ['Core/Pair'] }));
    expect(pairAlone).toMatchObject({
      status: 403,
      detail: expect.stringMatching(/^Privacy mode \(PRIVACY_MIN_GROUP=3\)/),
    });
    const someone = errorOf(await mgr.call('figures', { measures: ['credits'], user: core[1]!.id }));
    expect(someone).toMatchObject({
      status: 403,
      detail: expect.stringMatching(/^Privacy mode \(PRIVACY_MIN_GROUP=3\)/),
    });
    expect(await mgr.tool('figures', { measures: ['credits'], user: lead.id })).toEqual(
      await mgr.page(`/api/figures?measure=credits&user=${lead.id}`),
    );
    const note = (await mgr.tool('list_figures')) as { notes: string[] };
    expect(note.notes.join(' ')).toMatch(/Privacy mode \(PRIVACY_MIN_GROUP=3\)/);
  });

  it('takes each tool’s parameters as its route takes them: the same names and the same choices', async () => {
    const admin = await reader('plain', 'admin');
    const { tools } = await admin.client.listTools();
    const doc = (await admin.page('/api/openapi.json')) as {
      paths: Record<string, { get: { parameters: { name: string; in: string; schema: JsonSchema }[] } }>;
    };
    interface JsonSchema {
      enum?: string[];
      items?: JsonSchema;
      type?: string | string[];
    }
    const choices = (x: JsonSchema | undefined): string[] | undefined => {
      const e = x?.enum ?? x?.items?.enum;
      return e && [...e].sort();
    };
    const compared: string[] = [];
    for (const t of tools) {
      const r = ROUTES[t.name];
      const props = (t.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      if (!r) {
        expect(Object.keys(props), `${t.name} takes nothing`).toEqual([]);
        continue;
      }
      const params = doc.paths[r.path]!.get.parameters.filter((p) => p.in === 'query');
      const asRoute = (k: string) => (r.names && k in r.names ? r.names[k] : k);
      // Each of the route's parameters is the tool's, and each of the tool's the route's (but its own).
      expect(params.map((p) => p.name).sort(), t.name).toEqual(
        Object.keys(props)
          .map(asRoute)
          .filter((k): k is string => k !== null)
          .sort(),
      );
      for (const [k, schema] of Object.entries(props)) {
        const name = asRoute(k);
        if (name === null) continue;
        const p = params.find((x) => x.name === name)!;
        // A choice of the route is the tool's: the same values, neither more nor fewer.
        expect(choices(schema), `${t.name} ${k}`).toEqual(choices(p.schema));
        if (choices(p.schema)) compared.push(`${t.name} ${k}`);
        expect(schema.type === 'array', `${t.name} ${k}: a list`).toBe(
          p.schema.type === 'array' || choices(p.schema.items) !== undefined,
        );
      }
    }
    expect(compared).toEqual(
      expect.arrayContaining(['figures measures', 'figures by', 'figures compare', 'users sort', 'users who']),
    );
  });

  it('answers each tool to an admin, a manager with and without privacy mode, and a viewer, as its route does', async () => {
    // A goal of Core on each dashboard, so that the goals tool has one to give.
    for (const where of ['plain', 'private'] as const) {
      const jar = await signedIn(base[where], EMAILS.admin);
      const made = await request(jar, new URL(`${base[where]}/api/goals`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ team: 'Core', kind: 'weekly-active', target: 0.8, by: GOAL_BY }),
      });
      expect(made.res.status, made.body).toBe(201);
    }
    const readers = {
      admin: await reader('plain', 'admin'),
      manager: await reader('plain', 'lead'),
      'manager in privacy mode': await reader('private', 'lead'),
      viewer: await reader('plain', 'viewer'),
    };
    /** Which tools answered whom (the others refused them as their routes do). */
    const answered = new Map<string, Set<string>>();
    for (const [who, r] of Object.entries(readers)) {
      /** The route's answer, asked again while it is a range still being filled (the tool waits for it too). */
      const settled = async (path: string) => {
        for (let i = 0; ; i++) {
          const a = await r.route(path);
          if (a.status !== 202 || i > 100) return a;
          await new Promise((ok) => setTimeout(ok, 200));
        }
      };
      const same = async (
        name: string,
        args: Record<string, unknown>,
        path: string,
        pick: (x: Record<string, unknown>) => unknown = (x) => x,
      ) => {
        const where = `${who}: ${name} ${JSON.stringify(args)}`;
        const [got, page] = [await r.call(name, args), await settled(path)];
        const text = (got.content[0] as { text: string }).text;
        if (page.status === 200) {
          expect(got.isError, `${where}: ${text}`).toBeFalsy();
          expect(pick(JSON.parse(text) as Record<string, unknown>), where).toEqual(
            pick(JSON.parse(page.body) as Record<string, unknown>),
          );
          answered.set(name, (answered.get(name) ?? new Set()).add(who));
          return JSON.parse(text) as Record<string, unknown>;
        }
        expect(page.status, `${where}: ${page.body}`).toBeGreaterThanOrEqual(400);
        expect(errorOf(got), where).toMatchObject({
          status: page.status,
          detail: (JSON.parse(page.body) as { detail: string }).detail,
        });
        return undefined;
      };
      const q = { start: START, end: END };
      const listed = (await r.tool('list_figures')) as { measures: { id: string }[] };
      expect(listed.measures.map((m) => m.id)).toEqual(MEASURE_IDS);
      answered.set('list_figures', (answered.get('list_figures') ?? new Set()).add(who));
      await same(
        'figures',
        { ...q, measures: ['credits', 'active'], by: 'week' },
        `/api/figures?${RANGE}&measure=credits&measure=active&by=week`,
      );
      await same('teams', {}, '/api/teams');
      await same('users', { ...q, limit: 5 }, `/api/users?${RANGE}&limit=5`);
      await same('alerts', {}, '/api/alerts', (x) => x.open);
      await same('marks', {}, '/api/marks/all');
      await same('marks', q, `/api/marks?${RANGE}`);
      const goals = await same('goals', {}, '/api/goals');
      if (who !== 'viewer')
        expect(
          (goals?.goals as { team: string }[]).map((g) => g.team),
          who,
        ).toEqual(['Core']);
      await same('goals', { teams: ['Core'] }, '/api/goals?team=Core');
      await same('reconciliation', q, `/api/reconciliation?${RANGE}`);
      // Readiness: the repositories the route gives this reader, each at the level its latest report scores.
      const route = await settled('/api/readiness');
      const tool = await r.call('readiness');
      if (route.status === 200) {
        const keys = readinessAnswerSchema.parse(JSON.parse(route.body)).repos.map((x) => x.key);
        const t = JSON.parse((tool.content[0] as { text: string }).text) as { repos: { key: string }[] };
        expect(t.repos.map((x) => x.key).sort(), who).toEqual([...keys].sort());
        answered.set('readiness', (answered.get('readiness') ?? new Set()).add(who));
      } else expect(errorOf(tool).status, who).toBe(route.status);
    }
    // Each tool answered an admin and a manager in both modes; a viewer is refused other people's rows.
    for (const name of TOOLS)
      expect([...(answered.get(name) ?? [])], name).toEqual(
        expect.arrayContaining(['admin', 'manager', 'manager in privacy mode']),
      );
    expect(answered.get('users')?.has('viewer')).toBe(false);
    expect(answered.get('figures')?.has('viewer')).toBe(true);
  }, 120_000);

  it('says how old each repository’s latest report is and whether it is stale, as the pages mark it', async () => {
    const admin = await reader('plain', 'admin');
    const { latestDay } = (await admin.page('/api/config')) as { latestDay: string };
    interface Repo {
      key: string;
      level: number;
      ageDays: number;
      staleAfter: number;
      stale: boolean;
    }
    const expected = async () => {
      const a = readinessAnswerSchema.parse(await admin.page('/api/readiness'));
      return a.repos.map((x) => {
        const latest = Math.max(...a.reports.filter((r) => repoKey(r.repoUrl) === x.key).map((r) => r.createdAt));
        const ageDays = reportAgeDays(latest, latestDay);
        return { key: x.key, ageDays, staleAfter: x.staleAfter!, stale: isStale(ageDays, x.staleAfter!) };
      });
    };
    const tool = async () => (await admin.tool('readiness')) as { stale: number; repos: Repo[] };
    const before = await tool();
    const now = await expected();
    expect(before.repos.map(({ key, ageDays, staleAfter, stale }) => ({ key, ageDays, staleAfter, stale }))).toEqual(
      now,
    );
    expect(before.repos.every((x) => x.staleAfter === 30)).toBe(true);
    expect(before.stale).toBe(now.filter((x) => x.stale).length);

    // A stale-report alert rule of fewer days: the repositories it covers are stale after those.
    const jar = await signedIn(base.plain, EMAILS.admin);
    const ages = [...new Set(now.map((x) => x.ageDays))].sort((a, b) => a - b);
    expect(ages.length, 'reports of different ages').toBeGreaterThan(1);
    const threshold = ages[0]!;
    const made = await request(jar, new URL(`${base.plain}/api/alert-rules`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'readiness-stale', scope: '', threshold }),
    });
    expect(made.res.status, made.body).toBe(201);
    try {
      const after = await tool();
      expect(after.repos.every((x) => x.staleAfter === threshold)).toBe(true);
      const stale = now.filter((x) => x.ageDays > threshold).map((x) => x.key);
      expect(stale.length).toBeGreaterThan(0);
      expect(after.repos.filter((x) => x.stale).map((x) => x.key)).toEqual(stale);
      expect(after.stale).toBe(stale.length);
      // One repository's answer says it too.
      const one = (await admin.tool('readiness', { repo: stale[0] })) as unknown as Repo;
      expect(one).toMatchObject({ key: stale[0], staleAfter: threshold, stale: true });
    } finally {
      const id = (JSON.parse(made.body) as { id: string }).id;
      await request(jar, new URL(`${base.plain}/api/alert-rules/${id}`), { method: 'DELETE' });
    }
  });
});
