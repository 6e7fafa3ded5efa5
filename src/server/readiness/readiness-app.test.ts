/**
 * The readiness endpoints over HTTP, on the demo organization (whose mapping gives teams repositories
 * in every spelling the reports use, some left Unowned): `/api/readiness` lists every repository with
 * its owning team and the service's own reports, a team's only its repositories; the fixes CSV follows
 * the same selection; and who may ask for what, signed in: a manager kept to their teams
 * (RESTRICT_ORG_VIEW) sees their teams' repositories only, and the organization's readiness, through
 * this route or the service's paths, only where allowed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessAnswerSchema, type ReadinessAnswer } from '../../api/readiness';
import { readinessResponseSchema } from '../../api/schemas';
import { teamsAnswerSchema, UNASSIGNED, type TeamView } from '../../api/teams';
import { csvCell } from '../../lib/csv';
import { CRITERIA_BY_ID } from '../../api/criteria';
import { fixesForSet, levelFor, passRate, TARGET_LEVEL } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { CookieJar, request, signInEnv, startProvider, walkSignIn, type TestProvider } from '../../test/oidc';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { isWithin } from '../teams/tree';

const ENV = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'readiness-app', DEMO_USERS: '60', DATA_DIR: ':memory:' };
const servers: Server[] = [];
const stores: StoreDb[] = [];
let provider: TestProvider | undefined;
afterAll(async () => {
  servers.forEach((s) => s.close());
  await provider?.close();
  await Promise.all(stores.map((s) => s.close()));
});

/** A server on a free port, answering with whichever app `current` returns. */
async function listen(current: () => ReturnType<typeof createApp>) {
  const s = createServer((req, res) => current().handler(req, res, () => res.end('the page')));
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

async function appOf(env: Record<string, string>, store?: StoreDb) {
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  const s = store ?? (await openAppStore(config, storeConfig))!;
  if (!store) stores.push(s);
  return { app: createApp(config, { store: s, storeConfig, logger: createLogger(() => {}) }), store: s };
}

const q = (teams: readonly string[]) => teams.map((t) => `team=${encodeURIComponent(t)}`).join('&');
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);
/** The latest report of each repository of an answer. */
const latestOf = (a: ReadinessAnswer) => {
  const m = new Map<string, ReadinessAnswer['reports'][number]>();
  for (const r of a.reports) m.set(repoKey(r.repoUrl), r);
  return [...m].map(([key, report]) => ({ key, report }));
};

describe('GET /api/readiness and its fixes CSV, without sign-in', () => {
  let base: string;
  let all: ReadinessAnswer;
  const get = async (path: string) => {
    const r = await fetch(base + path);
    return { status: r.status, text: await r.text(), type: r.headers.get('content-type') ?? '' };
  };
  const read = async (path: string) => {
    const r = await get(path);
    expect(r.status, r.text).toBe(200);
    return readinessAnswerSchema.parse(JSON.parse(r.text));
  };

  beforeAll(async () => {
    const { app } = await appOf(ENV);
    base = await listen(() => app);
    all = await read('/api/readiness');
  }, 60_000);

  it('lists every repository, owned or not, with the service’s own reports oldest first', async () => {
    const walked = readinessResponseSchema.parse(
      JSON.parse((await get('/api/organization/maturity-level-reports?limit=10000')).text),
    );
    expect(all.ownership).toBe(true);
    expect(all.reports.map((r) => r.reportId).sort()).toEqual(walked.reports.map((r) => r.reportId).sort());
    // The bodies are the service's: every field as it gave them.
    const byId = new Map(walked.reports.map((r) => [r.reportId, r]));
    for (const r of all.reports) expect(r).toEqual(byId.get(r.reportId));
    const times = all.reports.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const keys = [...new Set(all.reports.map((r) => repoKey(r.repoUrl)))].sort();
    expect(all.repos.map((r) => r.key)).toEqual(keys);
    // Owned repositories and Unowned ones (team null), never dropped.
    expect(all.repos.some((r) => r.team === null)).toBe(true);
    expect(all.repos.filter((r) => r.team !== null).length).toBeGreaterThan(all.repos.length / 2);
  });

  it('a team’s answer holds the repositories it and its sub-teams own, and their reports only', async () => {
    const owned = all.repos.find((r) => r.team?.includes('/'))!;
    const top = owned.team!.split('/')[0]!;
    for (const team of [owned.team!, top]) {
      const a = await read(`/api/readiness?${q([team])}`);
      const want = all.repos.filter((r) => r.team !== null && isWithin(r.team, team));
      expect(a.repos).toEqual(want);
      expect(a.repos.map((r) => r.key)).toContain(owned.key);
      const keys = new Set(want.map((r) => r.key));
      expect(a.reports.length).toBe(all.reports.filter((r) => keys.has(repoKey(r.repoUrl))).length);
      expect(a.reports.every((r) => keys.has(repoKey(r.repoUrl)))).toBe(true);
    }
    // Unassigned: the repositories no team owns.
    const unowned = await read(`/api/readiness?${q([UNASSIGNED])}`);
    expect(unowned.repos).toEqual(all.repos.filter((r) => r.team === null));
  });

  it('refuses an unknown team, naming it, and an unknown parameter', async () => {
    const r = await get(`/api/readiness?${q(['Nope/Team'])}`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).detail).toContain('"Nope/Team"');
    expect((await get('/api/readiness?repo=x')).status).toBe(400);
    expect((await get(`/api/readiness/fixes.csv?${q(['Nope'])}`)).status).toBe(400);
  });

  it('the fixes CSV is what brings the same repositories below level 3 up to it', async () => {
    const team = all.repos.find((r) => r.team !== null)!.team!.split('/')[0]!;
    const theirs = await read(`/api/readiness?${q([team])}`);
    for (const [path, answer] of [
      ['/api/readiness/fixes.csv', all],
      [`/api/readiness/fixes.csv?${q([team])}`, theirs],
    ] as const) {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(r.type).toMatch(/^text\/csv/);
      const lines = r.text.trim().split('\r\n');
      expect(lines[0]).toBe('criterion,name,level,pillar,repositories,lifted_alone,repository_keys,lifted_alone_keys');
      const latest = latestOf(answer);
      const want = fixesForSet(latest, (id) => CRITERIA_BY_ID.get(id)?.level);
      expect(lines.length - 1).toBe(want.length);
      expect(want.length).toBeGreaterThan(0);
      const first = lines[1]!.split(',');
      expect(first[0]).toBe(want[0]!.id);
      expect(Number(first[4])).toBe(want[0]!.helps.length);
      expect(Number(first[5])).toBe(want[0]!.lifts.length);
      // Two keys or more hold a ";", so the cell is quoted (a spreadsheet may split on it).
      expect(first[6]).toBe(csvCell(want[0]!.helps.join(';')));
      // Only the repositories below the target count.
      const below = new Set(
        latest.filter((r) => levelFor(passRate(Object.values(r.report.report))) < TARGET_LEVEL).map((r) => r.key),
      );
      expect(below.size).toBeLessThan(latest.length);
      for (const f of want) for (const k of f.helps) expect(below.has(k), k).toBe(true);
    }
  });

  it('without repositories in the mapping, says there is no ownership and lists every repository Unowned', async () => {
    // The mapping screen counts what the teams own: the demo's mapping names repositories, this one none.
    const owned = async () => teamsAnswerSchema.parse(await (await fetch(`${base}/api/teams`)).json()).repos;
    expect(await owned()).toBeGreaterThan(0);
    const put = await fetch(`${base}/api/teams/mapping`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', text: 'email,team\nann@acme.example,Engineering\n' }),
    });
    expect(put.status).toBe(200);
    const a = await read('/api/readiness');
    expect(a.ownership).toBe(false);
    expect(a.repos.map((r) => r.key)).toEqual(all.repos.map((r) => r.key));
    expect(a.repos.every((r) => r.team === null)).toBe(true);
    expect((await read(`/api/readiness?${q(['Engineering'])}`)).repos).toEqual([]);
    expect(await owned()).toBe(0);
  });
});

describe('who may read which repositories’ readiness, signed in', () => {
  let base: string;
  let open: ReturnType<typeof createApp>;
  let restricted: ReturnType<typeof createApp>;
  let current: ReturnType<typeof createApp>;
  let admin: CookieJar;
  let all: ReadinessAnswer;
  let manager: { email: string; teams: string[] };
  let other: string;

  const signIn = async (email: string) => {
    const jar = new CookieJar();
    await walkSignIn(jar, new URL('/auth/login', base), email);
    return jar;
  };
  const get = async (jar: CookieJar, path: string) => {
    const r = await request(jar, new URL(path, base));
    return { status: r.res.status, body: r.body };
  };
  const read = async (jar: CookieJar, path: string) => {
    const r = await get(jar, path);
    expect(r.status, `${path}: ${r.body}`).toBe(200);
    return readinessAnswerSchema.parse(JSON.parse(r.body));
  };

  beforeAll(async () => {
    base = await listen(() => current);
    provider = await startProvider(`${base}/auth/callback`);
    const env = { ...ENV, DEMO_SEED: 'readiness-roles', ...signInEnv(provider.issuer, base) };
    const first = await appOf(env);
    open = current = first.app;
    restricted = (await appOf({ ...env, RESTRICT_ORG_VIEW: '1' }, first.store)).app;
    admin = await signIn('admin@acme.example');
    all = await read(admin, '/api/readiness');
    const tree = flat(teamsAnswerSchema.parse(JSON.parse((await get(admin, '/api/teams')).body)).teams);
    // A manager of a team owning a repository (a leaf's manager may be its parent's: their teams cover it).
    const owned = all.repos.find((r) => r.team !== null && tree.find((t) => t.path === r.team)!.managers.length > 0)!;
    const email = tree.find((t) => t.path === owned.team)!.managers[0]!;
    const me = JSON.parse((await get(await signIn(email), '/api/me')).body) as { teams: string[] };
    manager = { email, teams: me.teams };
    other = tree.find((t) => !t.path.includes('/') && !me.teams.some((m) => isWithin(m, t.path)))!.path;
  }, 60_000);

  it('a manager kept to their teams sees their teams’ repositories only, never the organization’s', async () => {
    current = restricted;
    try {
      const jar = await signIn(manager.email);
      const theirs = await read(jar, `/api/readiness?${q(manager.teams)}`);
      const want = all.repos.filter((r) => r.team !== null && manager.teams.some((m) => isWithin(r.team!, m)));
      expect(theirs.repos).toEqual(want);
      expect(theirs.repos.length).toBeGreaterThan(0);
      expect(theirs.repos.length).toBeLessThan(all.repos.length);
      const keys = new Set(want.map((r) => r.key));
      expect(theirs.reports.every((r) => keys.has(repoKey(r.repoUrl)))).toBe(true);
      expect((await get(jar, `/api/readiness/fixes.csv?${q(manager.teams)}`)).status).toBe(200);
      for (const path of [
        '/api/readiness',
        `/api/readiness?${q([other])}`,
        `/api/readiness?${q([UNASSIGNED])}`,
        '/api/readiness/fixes.csv',
        `/api/readiness/fixes.csv?${q([other])}`,
        // The organization's reports through the service's documented path.
        '/api/organization/maturity-level-reports?limit=10',
      ]) {
        expect((await get(jar, path)).status, path).toBe(403);
      }
      // Its newer name is no route of the table: nothing is forwarded there.
      expect((await get(jar, '/api/organization/agent-readiness-reports?limit=10')).status).toBe(404);
      // A reader of the organization keeps what they had.
      const viewer = await signIn('someone@acme.example');
      expect((await read(viewer, '/api/readiness')).repos).toEqual(all.repos);
      expect((await get(viewer, '/api/organization/maturity-level-reports?limit=10')).status).toBe(200);
    } finally {
      current = open;
    }
  });

  it('a reader of the organization sees every repository, and any team’s', async () => {
    const viewer = await signIn('someone@acme.example');
    const jar = await signIn(manager.email);
    for (const reader of [viewer, jar, admin]) {
      expect((await read(reader, '/api/readiness')).repos).toEqual(all.repos);
      const o = await read(reader, `/api/readiness?${q([other])}`);
      expect(o.repos).toEqual(all.repos.filter((r) => r.team !== null && isWithin(r.team, other)));
      expect((await get(reader, '/api/organization/maturity-level-reports?limit=10')).status).toBe(200);
    }
  });
});
