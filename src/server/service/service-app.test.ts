/**
 * The service's documented paths as routes of the table, through the dashboard's HTTP server signed in with the
 * test OpenID provider, in front of a stand-in service that is lenient as real services are: it ignores a
 * parameter or a grouping it does not know (and answers everyone's split). What a reader gets is decided by the
 * route (its declared query, its access rule) and by the answer's shape, never by what the service chose to do.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTED_PATHS, GROUP_BY, PATHS } from '../../api/paths';
import { CookieJar, request, signInEnv, startProvider, type TestProvider, signedIn } from '../../test/oidc';
import { ACCESS } from '../auth/access';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { createServiceRoutes } from './routes';

const TODAY = '2026-03-01';
const DAYS = 'startDate=2026-02-01&endDate=2026-02-07';
const dir = mkdtempSync(join(tmpdir(), 'service-routes-'));
const demo = createDemoService({
  seed: 'lenient',
  users: 12,
  repos: 3,
  reportsPerRepo: 2,
  today: TODAY,
  keys: DEFAULT_KEYS,
});
const [ann, bo] = demo.world().org.users.filter((u) => u.email !== null);
/** Every request the stand-in service was asked, as it came. */
const asked: string[] = [];
let service: Server;
let server: Server;
let base: string;
let provider: TestProvider;
let store: StoreDb;

beforeAll(async () => {
  // A lenient service: an unknown parameter or grouping is ignored, not refused (the spec leaves it open).
  service = createServer((req, res) => {
    asked.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://service.invalid');
    const keep = new URLSearchParams();
    for (const [k, v] of url.searchParams) {
      if (k === 'group_by' && v !== GROUP_BY[url.pathname]) continue;
      if (['startDate', 'endDate', 'group_by', 'limit', 'cursor', 'repoId', 'startAfter'].includes(k) && !keep.has(k))
        keep.append(k, v);
    }
    const r = demo.handle({ method: 'GET', url: `${url.pathname}?${keep}`, headers: req.headers });
    res.writeHead(r.status, r.headers).end(r.body);
  });
  server = createServer((req, res) => app.handler(req, res, () => res.end('the page')));
  for (const s of [service, server]) await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startProvider(`${base}/auth/callback`);
  const teams = join(dir, 'teams.csv');
  writeFileSync(teams, `email,team,manager\n${ann!.email},Data,kim@acme.example\n${bo!.email},Sales,\n`);
  const env = {
    ANALYTICS_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
    API_KEY: 'demo-owner',
    DATA_DIR: ':memory:',
    TEAMS_FILE: teams,
    ...signInEnv(provider.issuer, base),
    RESTRICT_ORG_VIEW: '1',
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  app = createApp(config, { store, storeConfig });
}, 60_000);
let app: ReturnType<typeof createApp>;

afterAll(async () => {
  server.close();
  service.close();
  await provider.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = (email: string) => signedIn(base, email);
type TokenDays = { data: { by_user?: { user_email: string }[] }[] };
const get = (jar: CookieJar | undefined, path: string) => request(jar ?? new CookieJar(), new URL(path, base));

describe('the service’s paths are routes of the table', () => {
  it('every documented path has a route with its access rule, and nothing else is forwarded', () => {
    const routes = createServiceRoutes({
      origin: async () => ({ status: 500, headers: {}, body: '' }),
      apiKey: 'k',
      retries: 0,
    });
    expect(routes.map((r) => r.path).sort()).toEqual([...DOCUMENTED_PATHS].sort());
    for (const r of routes) {
      expect(r.method, String(r.path)).toBe('GET');
      expect(r.access, String(r.path)).toBe(r.path === PATHS.users ? ACCESS.serviceUsers : ACCESS.serviceOrg);
      // Every analytics answer is shaped to its reader; readiness reports name no person.
      expect(r.shape !== undefined, String(r.path)).toBe(r.path !== PATHS.readiness);
    }
  });

  it('refuses an unknown, repeated, upper-case or undocumented parameter with the documented 400, and asks nothing', async () => {
    const viewer = await signIn('viewer@acme.example');
    const before = asked.length;
    for (const q of [
      `${DAYS}&group_by=x`,
      `${DAYS}&group_by=model&group_by=model`,
      `${DAYS}&GROUP_BY=model`,
      `${DAYS}&group_by=MODEL`,
      `${DAYS}&user=${ann!.id}`,
    ]) {
      const r = await get(viewer, `${PATHS.tokens}?${q}`);
      expect(r.res.status, q).toBe(400);
      const body = JSON.parse(r.body) as { title: string; status: number; detail: string; requestId: string };
      expect(body, q).toMatchObject({ status: 400, title: 'Bad Request' });
      expect(body.detail, q).toMatch(/group_by|GROUP_BY|user/);
      expect(body.requestId, q).toBeTruthy();
    }
    expect(asked.slice(before)).toEqual([]);
    // productivity takes no grouping at all; /users' limit is the service's 1 to 100.
    expect((await get(viewer, `${PATHS.productivity}?${DAYS}&group_by=client`)).res.status).toBe(400);
    expect((await get(viewer, `${PATHS.users}?${DAYS}&limit=101`)).res.status).toBe(400);
    expect((await get(viewer, `${PATHS.readiness}?limit=0`)).res.status).toBe(400);
    expect(asked.slice(before)).toEqual([]);
  });

  it('gives a viewer their own row of a day’s split only, whatever the service sent', async () => {
    // The days as an admin sees them: everyone's split.
    const admin = await signIn('admin@acme.example');
    const all = (JSON.parse((await get(admin, `${PATHS.tokens}?${DAYS}`)).body) as TokenDays).data;
    const everyone = new Set(all.flatMap((d) => (d.by_user ?? []).map((u) => u.user_email)));
    expect(everyone.size).toBeGreaterThan(2);
    const someone = [...everyone][0]!;
    const viewer = await signIn(someone);
    const r = await get(viewer, `${PATHS.tokens}?${DAYS}`);
    expect(r.res.status, r.body).toBe(200);
    const days = (JSON.parse(r.body) as TokenDays).data;
    expect([...new Set(days.flatMap((d) => (d.by_user ?? []).map((u) => u.user_email)))]).toEqual([someone]);
  });

  it('refuses the service’s list of everyone to a manager kept to their teams (RESTRICT_ORG_VIEW)', async () => {
    const manager = await signIn('kim@acme.example');
    const r = await get(manager, `${PATHS.users}?${DAYS}&limit=1`);
    expect(r.res.status, r.body).toBe(403);
    expect(r.body).toContain('RESTRICT_ORG_VIEW');
    // An admin walks it as before.
    const admin = await signIn('admin@acme.example');
    const page = await get(admin, `${PATHS.users}?${DAYS}&limit=1`);
    expect(page.res.status, page.body).toBe(200);
  });

  it('lets no path under /api/ through the gate by its name: `/api/users/<id>.js` is not an asset', async () => {
    const r = await get(undefined, `/api/users/${encodeURIComponent(ann!.id)}.js`);
    expect(r.res.status).toBe(401);
    expect(r.body).not.toContain(ann!.email);
    // The app's own assets stay open to the sign-in page.
    expect((await get(undefined, '/favicon.svg')).res.status).toBe(200);
  });
});
