/**
 * The bulk export (`/api/export/person-days`) through the dashboard's HTTP server, the demo service as the upstream:
 * the Parquet and the CSV, read back by DuckDB, hold each person's days with the users table's sums and team for the
 * same range, on both stores; the temporary file is gone once sent; bad parameters are 400s that say why. With
 * sign-in, viewers are refused, and a manager's export holds their teams' people only: in privacy mode by pseudonym
 * with no team under k (and nothing about fewer than k people), with PSEUDONYMIZE=1 by pseudonym addresses.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PATH } from '../../api/export';
import { teamsAnswerSchema, type TeamView } from '../../api/teams';
import { eachDay } from '../../lib/dates';
import { SUMS, type MergedUser } from '../../lib/user-merge';
import { CookieJar, startProvider, signInEnv, walkSignIn, type TestProvider } from '../../test/oidc';
import { freshDatabase, pgAvailable } from '../../test/postgres';
import { pseudonym } from '../auth/privacy';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const RANGE = { start: '2026-02-04', end: '2026-03-17' };
const QUERY = `start=${RANGE.start}&end=${RANGE.end}`;

/** A dashboard on the demo organization (its mapping in force), on the store `env` names; its base URL. */
/** Every server's log lines. */
const lines: Record<string, unknown>[] = [];
/** Each server's store, by its base URL. */
const stores = new Map<string, StoreDb>();

async function start(env: Record<string, string>, withServer?: (base: string) => Promise<Record<string, string>>) {
  const server: Server = createServer((req, res) => app.handler(req, res, () => res.end()));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const all = {
    DEMO_TODAY: '2026-05-01',
    DEMO_SEED: 'insights',
    DEMO_USERS: '120',
    ...env,
    ...(await withServer?.(base)),
  };
  const config = readServerConfig(all);
  const storeConfig = readStoreConfig(all);
  const store = (await openAppStore(config, storeConfig))!;
  const app = createApp(config, {
    store,
    storeConfig,
    logger: createLogger((l) => lines.push(JSON.parse(l) as Record<string, unknown>)),
  });
  stores.set(base, store);
  cleanups.push(async () => {
    server.close();
    await app.close();
    await store.close();
  });
  return base;
}

/** An answer's status, headers and bytes, asked again while its range is still being read from the service. */
async function download(base: string, path: string, cookie = '') {
  for (let i = 0; ; i++) {
    const res = await fetch(new URL(path, base), { headers: { cookie } });
    const bytes = Buffer.from(await res.arrayBuffer());
    if ((res.status !== 503 && res.status !== 202) || i > 300)
      return { status: res.status, headers: res.headers, bytes };
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

interface ExportRow extends Record<string, unknown> {
  date: string;
  user_id: string;
  user_email: string | null;
  team: string | null;
}

const work = mkdtempSync(join(tmpdir(), 'export-test-'));
cleanups.push(() => rmSync(work, { recursive: true, force: true }));
let files = 0;

/** A file of the export read back by DuckDB: its rows, days as text. */
async function readBack(bytes: Buffer, format: 'parquet' | 'csv'): Promise<ExportRow[]> {
  const file = join(work, `${++files}.${format}`);
  writeFileSync(file, bytes);
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const reader = format === 'parquet' ? `read_parquet('${file}')` : `read_csv('${file}', header = true)`;
    const r = await con.runAndReadAll(`SELECT * REPLACE (date::VARCHAR AS date) FROM ${reader}`);
    return r.getRowObjectsJson() as ExportRow[];
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

/** Each person's days of an export summed as the users table sums them, with their team. */
function perPerson(rows: readonly ExportRow[]) {
  const out = new Map<string, { activeDays: number; team: string | null; sums: Record<string, number> }>();
  for (const r of rows) {
    const p = out.get(r.user_id) ?? { activeDays: 0, team: r.team, sums: {} };
    p.activeDays++;
    expect(r.team, r.user_id).toBe(p.team);
    for (const [k, field] of SUMS) p.sums[k] = (p.sums[k] ?? 0) + Number(r[field]);
    out.set(r.user_id, p);
  }
  return out;
}

/** The export equals the users table of the same range, person by person: their days, every sum, their team. */
function expectUsersTable(rows: readonly ExportRow[], users: readonly MergedUser[]) {
  const people = perPerson(rows);
  expect([...people.keys()].sort()).toEqual(users.map((u) => u.userId).sort());
  for (const u of users) {
    const p = people.get(u.userId)!;
    expect(p.activeDays, u.userId).toBe(u.activeDays);
    expect(p.team, u.userId).toBe(u.team ?? null);
    for (const [k] of SUMS) expect(p.sums[k], `${u.userId} ${k}`).toBe(u[k]);
  }
}

/** The rows are by day, then person. */
function expectOrdered(rows: readonly ExportRow[]) {
  const keys = rows.map((r) => `${r.date} ${r.user_id}`);
  expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}

const exportsLeft = () => readdirSync(tmpdir()).filter((f) => f.startsWith('dashboard-export-'));

const ENGINES = [
  { name: 'embedded SQLite', available: true, env: async () => ({ DATA_DIR: ':memory:' }) },
  {
    name: 'PostgreSQL',
    available: pgAvailable(),
    env: async () => {
      const d = (await freshDatabase())!;
      cleanups.push(() => d.drop());
      const dir = mkdtempSync(join(tmpdir(), 'export-pg-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return { DATABASE_URL: d.url, DATA_DIR: dir };
    },
  },
];

describe.each(ENGINES)('the bulk export on $name', ({ available, env }) => {
  let base: string;
  let users: MergedUser[];
  beforeAll(async () => {
    if (!available) return;
    base = await start(await env());
  }, 60_000);

  it.skipIf(!available)(
    'holds every person-day of the range: the users table’s sums and teams, as Parquet and as CSV',
    async () => {
      const parquet = await download(base, `${EXPORT_PATH}?${QUERY}&format=parquet`);
      expect(parquet.status, parquet.bytes.toString()).toBe(200);
      expect(parquet.headers.get('content-type')).toBe('application/vnd.apache.parquet');
      expect(parquet.headers.get('content-disposition')).toBe(
        `attachment; filename="person-days-${RANGE.start}-${RANGE.end}.parquet"`,
      );
      const table = await fetch(`${base}/api/users?${QUERY}&limit=1000`);
      users = ((await table.json()) as { users: MergedUser[] }).users;
      expect(users.length).toBeGreaterThan(40);
      expect(new Set(users.map((u) => u.team)).size).toBeGreaterThan(3);
      const rows = await readBack(parquet.bytes, 'parquet');
      expect(rows.length).toBe(users.reduce((n, u) => n + u.activeDays, 0));
      const days = new Set(eachDay(RANGE.start, RANGE.end));
      expect(rows.every((r) => days.has(r.date))).toBe(true);
      expect(new Set(rows.map((r) => r.date)).size).toBeGreaterThan(days.size / 2);
      expectUsersTable(rows, users);
      expectOrdered(rows);
      // The emails and the day's languages as the service gave them.
      expect(rows.every((r) => r.user_email === users.find((u) => u.userId === r.user_id)!.email)).toBe(true);
      expect(rows.some((r) => Array.isArray(r.languages) && r.languages.length > 0)).toBe(true);

      const csv = await download(base, `${EXPORT_PATH}?${QUERY}&format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toBe(
        `attachment; filename="person-days-${RANGE.start}-${RANGE.end}.csv"`,
      );
      const fromCsv = await readBack(csv.bytes, 'csv');
      expectUsersTable(fromCsv, users);
      expect(fromCsv.map((r) => [r.date, r.user_id, r.user_email, r.team])).toEqual(
        rows.map((r) => [r.date, r.user_id, r.user_email, r.team]),
      );
      expect(fromCsv.map((r) => r.languages)).toEqual(rows.map((r) => (r.languages as string[]).join(', ')));
      // Each file was removed once sent.
      expect(exportsLeft()).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!available)('keeps to the teams asked, each with its sub-teams', async () => {
    const team = users.find((u) => u.team?.includes('/'))!.team!;
    const top = team.slice(0, team.indexOf('/'));
    const got = await download(base, `${EXPORT_PATH}?${QUERY}&format=parquet&team=${encodeURIComponent(top)}`);
    expect(got.status).toBe(200);
    const within = users.filter((u) => u.team === top || u.team!.startsWith(`${top}/`));
    expect(within.length).toBeLessThan(users.length);
    expectUsersTable(await readBack(got.bytes, 'parquet'), within);
  });

  it.skipIf(!available)('answers a bad question with a 400 that says why', async () => {
    const cases: [string, string][] = [
      [`${QUERY}`, 'Give format=parquet or format=csv.'],
      [`${QUERY}&format=xlsx`, 'format must be one of parquet, csv, got "xlsx".'],
      ['format=csv', 'Give start and end (YYYY-MM-DD).'],
      [`start=2026-01-13&end=2026-02-01&format=csv`, 'start (2026-01-13) is before the history starts (2026-01-14).'],
      [
        `start=2026-04-01&end=2026-05-01&format=csv`,
        'end (2026-05-01) is after the latest day with data (2026-04-30).',
      ],
      [`start=2026-03-02&end=2026-03-01&format=csv`, 'end (2026-03-01) is before start (2026-03-02).'],
      [`${QUERY}&format=csv&team=Nowhere`, 'No team is called "Nowhere" in the mapping in force'],
      [`${QUERY}&format=csv&format=csv`, 'The parameter "format" is given more than once.'],
      [`${QUERY}&format=csv&limit=5`, 'Unknown parameter "limit"'],
    ];
    for (const [q, detail] of cases) {
      const r = await download(base, `${EXPORT_PATH}?${q}`);
      expect(r.status, q).toBe(400);
      expect((JSON.parse(r.bytes.toString()) as { detail: string }).detail, q).toContain(detail);
    }
  });

  // Last: it replaces the mapping in force.
  it.skipIf(!available)(
    'gives each day the team the person was in then, as the mappings recorded gave it',
    async () => {
      const u = users.find((x) => x.activeDays > 10)!;
      // The store recorded them in Old from 20 January, and in Moved from 1 March.
      const db = stores.get(base)!.db;
      const key = `id:${u.userId}`;
      await db.deleteFrom('member_team').where('member', '=', key).execute();
      await db
        .insertInto('member_team')
        .values([
          { member: key, from_day: '2026-01-20', team: 'Old' },
          { member: key, from_day: '2026-03-01', team: 'Moved' },
        ])
        .execute();
      // The mapping in force now names them alone, in Moved.
      const put = await fetch(`${base}/api/teams/mapping`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ format: 'csv', text: `user_id,team\n${u.userId},Moved\n` }),
      });
      expect(put.status, await put.text()).toBe(200);
      const rows = await readBack((await download(base, `${EXPORT_PATH}?${QUERY}&format=parquet`)).bytes, 'parquet');
      const theirs = rows.filter((r) => r.user_id === u.userId);
      expect(theirs.filter((r) => r.date < '2026-03-01').length).toBeGreaterThan(0);
      expect(theirs.filter((r) => r.date >= '2026-03-01').length).toBeGreaterThan(0);
      for (const r of theirs) expect(r.team, r.date).toBe(r.date < '2026-03-01' ? 'Old' : 'Moved');
      // The others, recorded today in the demo's teams and then (the later mapping of the day) named no more, are
      // Unassigned, as the users table now has them.
      const now = ((await (await fetch(`${base}/api/users?${QUERY}&limit=1000`)).json()) as { users: MergedUser[] })
        .users;
      for (const r of rows)
        if (r.user_id !== u.userId) expect(r.team, r.user_id).toBe(now.find((x) => x.userId === r.user_id)!.team);
      expect(now.find((x) => x.userId === u.userId)!.team).toBe('Moved');
      // A mapping takes effect the day after the latest day with data (DEMO_TODAY here), not on the machine's clock.
      const recorded = await db.selectFrom('member_team').select('from_day').distinct().execute();
      expect(recorded.map((r) => r.from_day).sort()).toEqual(['2026-01-20', '2026-03-01', '2026-05-01']);
    },
  );
});

const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);

/** A dashboard with sign-in on the demo organization, and its readers signed in. */
async function signedInApp(env: Record<string, string>) {
  let provider: TestProvider | undefined;
  const base = await start({ DATA_DIR: ':memory:', ...env }, async (b) => {
    provider = await startProvider(`${b}/auth/callback`);
    return signInEnv(provider.issuer, b);
  });
  cleanups.push(() => provider!.close());
  const jars = new Map<string, CookieJar>();
  const as = async (email: string) => {
    let jar = jars.get(email);
    if (!jar) {
      jar = new CookieJar();
      await walkSignIn(jar, new URL('/auth/login', base), email);
      jars.set(email, jar);
    }
    return jar.header(new URL(base));
  };
  const get = async (email: string, path: string) => download(base, path, await as(email));
  const json = async <T>(email: string, path: string): Promise<T> => {
    const r = await get(email, path);
    expect(r.status, `${path}: ${r.bytes.toString()}`).toBe(200);
    return JSON.parse(r.bytes.toString()) as T;
  };
  const tree = flat(teamsAnswerSchema.parse(await json('admin@acme.example', '/api/teams')).teams);
  return { base, get, json, tree };
}

const K = 4;
const PRIVACY_SECRET = 'privacy-secret-of-at-least-32-characters!!';

describe('a manager’s export in privacy mode (PRIVACY_MIN_GROUP)', () => {
  let app: Awaited<ReturnType<typeof signedInApp>>;
  let manager: { email: string; team: string };
  let everyone: MergedUser[];
  beforeAll(async () => {
    app = await signedInApp({ PRIVACY_MIN_GROUP: String(K), PRIVACY_SECRET });
    // A managed team of at least 2k members with a sub-team under k, as privacy-app.test.ts finds one.
    const t = app.tree.find(
      (x) => x.managers.length > 0 && x.members >= 2 * K && x.children.some((c) => c.members < K && c.members > 0),
    )!;
    expect(t).toBeDefined();
    manager = { email: t.managers[0]!, team: t.path };
    everyone = (await app.json<{ users: MergedUser[] }>('admin@acme.example', `/api/users?${QUERY}&limit=1000`)).users;
  }, 60_000);

  it('holds their teams’ people by pseudonym, in the teams shown, with the users table’s sums', async () => {
    const table = (await app.json<{ users: MergedUser[] }>(manager.email, `/api/users?${QUERY}&limit=1000`)).users;
    expect(table.length).toBeGreaterThanOrEqual(K);
    // The teams privacy mode shows them (their teams tree).
    const shown = new Set(
      flat(teamsAnswerSchema.parse(await app.json(manager.email, '/api/teams')).teams).map((t) => t.path),
    );
    const exported: ExportRow[][] = [];
    for (const format of ['parquet', 'csv'] as const) {
      const got = await app.get(manager.email, `${EXPORT_PATH}?${QUERY}&format=${format}`);
      expect(got.status, got.bytes.toString()).toBe(200);
      const rows = await readBack(got.bytes, format);
      for (const r of rows) {
        expect(r.user_id).toMatch(/^Person [0-9a-f]{10}$/);
        expect(r.user_email).toBeNull();
        // Their team or a sub-team of it with k members or more, never one under k.
        expect(r.team === manager.team || r.team!.startsWith(`${manager.team}/`), r.team!).toBe(true);
        expect(shown.has(r.team!), r.team!).toBe(true);
      }
      // Exactly the people of their users table, with its sums and teams.
      expectUsersTable(rows, table);
      exported.push(rows);
      expectOrdered(rows);
      // Nobody's id or email is in the file.
      const text = format === 'csv' ? got.bytes.toString() : JSON.stringify(rows);
      for (const u of everyone) {
        expect(text).not.toContain(u.userId);
        if (u.email) expect(text).not.toContain(u.email);
      }
    }
    // The people of a sub-team under k: by name in the admin's export, in the team shown above it in the manager's.
    const small = app.tree.find(
      (t) =>
        t.path.startsWith(`${manager.team}/`) &&
        t.members > 0 &&
        t.members < K &&
        everyone.some((u) => u.team === t.path),
    )!;
    expect(small).toBeDefined();
    const admin = await readBack(
      (await app.get('admin@acme.example', `${EXPORT_PATH}?${QUERY}&format=parquet`)).bytes,
      'parquet',
    );
    expectUsersTable(admin, everyone);
    const theirs = admin.filter((r) => r.team === small.path);
    expect(theirs.length).toBeGreaterThan(0);
    const above = small.path.slice(0, small.path.lastIndexOf('/'));
    for (const r of theirs)
      expect(exported[0]!.find((m) => m.user_id === pseudonym(PRIVACY_SECRET, r.user_id))?.team).toBe(
        shown.has(above) ? above : manager.team,
      );
  });

  it('refuses a team under k, rows about fewer than k people, and viewers', async () => {
    const small = app.tree.find((t) => t.path.startsWith(`${manager.team}/`) && t.members > 0 && t.members < K)!;
    const refused = await app.get(
      manager.email,
      `${EXPORT_PATH}?${QUERY}&format=csv&team=${encodeURIComponent(small.path)}`,
    );
    expect(refused.status).toBe(403);
    expect(refused.bytes.toString()).toContain(`Privacy mode (PRIVACY_MIN_GROUP=${K})`);
    // A day of their teams with 1 to k−1 people active: the users table withholds it, and the export too.
    let few: string | undefined;
    for (const day of eachDay(RANGE.start, RANGE.end)) {
      const t = await app.json<{ withheld?: unknown }>(manager.email, `/api/users?start=${day}&end=${day}&limit=1`);
      if (t.withheld) {
        few = day;
        break;
      }
    }
    expect(few).toBeDefined();
    const withheld = await app.get(manager.email, `${EXPORT_PATH}?start=${few}&end=${few}&format=parquet`);
    expect(withheld.status).toBe(422);
    expect(JSON.parse(withheld.bytes.toString())).toMatchObject({
      detail: `Privacy mode (PRIVACY_MIN_GROUP=${K}): these rows are about fewer than ${K} people, so they are not exported.`,
    });
    // Each export the gate lets through is an audit line.
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'audit', event: 'export person-days', who: manager.email, role: 'manager' }),
    );
    const viewer = await app.get('someone@acme.example', `${EXPORT_PATH}?${QUERY}&format=csv`);
    expect(viewer.status).toBe(403);
    expect(JSON.parse(viewer.bytes.toString()).detail).toContain('shown to their managers and admins');
    // Outside their teams.
    const other = app.tree.find((t) => !t.path.startsWith(manager.team) && !manager.team.startsWith(t.path))!;
    const outside = await app.get(
      manager.email,
      `${EXPORT_PATH}?${QUERY}&format=csv&team=${encodeURIComponent(other.path)}`,
    );
    expect(outside.status).toBe(403);
  });
});

describe('a manager’s export with PSEUDONYMIZE=1', () => {
  it('names people by the pages’ pseudonym addresses, of their teams only', async () => {
    const app = await signedInApp({ PSEUDONYMIZE: '1' });
    const t = app.tree.find((x) => x.managers.length > 0 && x.members >= 8)!;
    const email = t.managers[0]!;
    // The users table as the router rewrites it for this reader.
    const table = (await app.json<{ users: MergedUser[] }>(email, `/api/users?${QUERY}&limit=1000`)).users;
    expect(table.length).toBeGreaterThan(0);
    const everyone = (await app.json<{ users: MergedUser[] }>('admin@acme.example', `/api/users?${QUERY}&limit=1000`))
      .users;
    for (const format of ['parquet', 'csv'] as const) {
      const got = await app.get(email, `${EXPORT_PATH}?${QUERY}&format=${format}`);
      expect(got.status, got.bytes.toString()).toBe(200);
      const rows = await readBack(got.bytes, format);
      expectUsersTable(rows, table);
      for (const r of rows) {
        expect(r.user_email).toMatch(/^person-[0-9a-f]{10}@pseudonym\.invalid$/);
        expect(r.user_email).toBe(table.find((u) => u.userId === r.user_id)!.email);
      }
      const text = format === 'csv' ? got.bytes.toString() : JSON.stringify(rows);
      for (const u of everyone) if (u.email) expect(text).not.toContain(u.email);
    }
  });
});
