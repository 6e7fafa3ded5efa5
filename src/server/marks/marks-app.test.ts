/**
 * The marks on the charts over HTTP on the demo organization: added, listed by range and by scope (the
 * organization's, a team's and its parents'), changed, removed and kept on both store engines, each bad
 * mark refused naming its problem; the price list's changes marked by themselves; and, with sign-in
 * through the test OpenID provider, who may read and write which marks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markFiguresPath, markFiguresSchema, marksAnswerSchema, markSchema, type Mark } from '../../api/marks';
import { usersResponseSchema, type UserRow } from '../../api/schemas';
import { eachDay, type DayRange } from '../../lib/dates';
import { changeOf, valueOf, type MeasureId } from '../../lib/measures';
import { parseMapping, type MappingFormat } from '../teams/mapping';
import { teamResolver } from '../teams/tree';
import { MARK_MEASURES, MARK_SPEND_MEASURES } from './figures';
import { teamsAnswerSchema, type TeamView } from '../../api/teams';
import { CookieJar, request, signInEnv, startProvider, walkSignIn, type TestProvider } from '../../test/oidc';
import { STORE_ENGINES } from '../../test/stores';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { parsePrices, type PriceList } from '../spend/prices';
import { isWithin } from '../teams/tree';
import { countMarks } from '../store/marks-queries';
import { priceMarks } from './price-marks';
import { MARKS_MAX } from './routes';

const dir = mkdtempSync(join(tmpdir(), 'marks-'));
const servers: Server[] = [];
afterAll(() => {
  servers.forEach((s) => s.close());
  rmSync(dir, { recursive: true, force: true });
});

const PRICES = JSON.stringify({
  currency: 'EUR',
  prices: [
    { from: '2026-01-14', perMillionCredits: 8 },
    { from: '2026-01-14', tier: 'thinking', perMillionCredits: 12 },
    { from: '2026-03-10', perMillionCredits: 6 },
    { from: '2026-03-20', model: 'model-large', perMillionCredits: 15 },
  ],
});
const pricesFile = join(dir, 'prices.json');
writeFileSync(pricesFile, PRICES);

const ENV = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'marks', DEMO_USERS: '40', DATA_DIR: ':memory:' };

async function listen(handler: ReturnType<typeof createApp>['handler']) {
  const server = createServer((req, res) => handler(req, res, () => res.end('the page')));
  servers.push(server);
  return new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('the price list’s changes as marks', () => {
  it('marks each day an entry starts after the first day of history, with the price it replaced', () => {
    const list = (parsePrices(PRICES) as { ok: true; prices: PriceList }).prices;
    const marks = priceMarks(list, { start: '2026-03-01', end: '2026-03-31' });
    expect(marks.map((m) => [m.day, m.text, m.team, m.editable, m.source])).toEqual([
      ['2026-03-10', 'Price change: the default price is 6 EUR per million credits (was 8 EUR).', '', false, 'prices'],
      [
        '2026-03-20',
        'Price change: model model-large is 15 EUR per million credits (was priced by its tier or the default).',
        '',
        false,
        'prices',
      ],
    ]);
    expect(priceMarks(list, { start: '2026-03-11', end: '2026-03-19' })).toEqual([]);
    expect(priceMarks(null, null)).toEqual([]);
  });
});

describe.each(STORE_ENGINES)('marks kept in the store ($name)', ({ available, open }) => {
  it.skipIf(!available)(
    'are added, listed by range and scope, changed, refused naming the problem, removed, kept, and limited in number',
    async () => {
      const opened = await open();
      try {
        const full = { ...ENV, PRICES_FILE: pricesFile };
        const base = await listen(
          createApp(readServerConfig(full), { store: opened.store, storeConfig: readStoreConfig(full) }).handler,
        );
        const call = (path: string, init: RequestInit = {}) => fetch(base + path, init);
        const tree = flat(teamsAnswerSchema.parse(await (await call('/api/teams')).json()).teams);
        const child = tree.find((t) => t.path.includes('/'))!;
        const parent = child.path.slice(0, child.path.lastIndexOf('/'));
        const sibling = tree.find((t) => !t.path.includes('/') && !child.path.startsWith(`${t.path}/`))!.path;

        const add = async (day: string, team: string, text: string) => {
          const r = await call('/api/marks', { method: 'POST', ...json({ day, team, text }) });
          expect(r.status).toBe(201);
          return markSchema.parse(await r.json());
        };
        const org = await add('2026-03-02', '', '  Rollout\nto every team ');
        expect(org).toMatchObject({ day: '2026-03-02', team: '', text: 'Rollout to every team', editable: true });
        const onParent = await add('2026-03-05', parent, 'Training for the parent team');
        const onChild = await add('2026-03-06', child.path, 'The sub-team’s own note');
        await add('2026-03-07', sibling, 'Another team’s note');
        await add('2026-02-01', '', 'Before the range');

        const list = async (query: string) => {
          const r = await call(`/api/marks?${query}`);
          expect(r.status, await r.clone().text()).toBe(200);
          return marksAnswerSchema.parse(await r.json()).marks;
        };
        const texts = (ms: Mark[]) => ms.map((m) => `${m.day} ${m.text}`);
        const RANGE = 'start=2026-03-01&end=2026-03-31';
        // The organization's chart: its marks in the range, and the price changes.
        expect(texts(await list(RANGE))).toEqual([
          '2026-03-02 Rollout to every team',
          '2026-03-10 Price change: the default price is 6 EUR per million credits (was 8 EUR).',
          '2026-03-20 Price change: model model-large is 15 EUR per million credits (was priced by its tier or the default).',
        ]);
        // A sub-team's chart: the organization's, its parent's and its own; not another team's.
        const q = (team: string) => `${RANGE}&team=${encodeURIComponent(team)}`;
        expect(texts(await list(q(child.path))).filter((t) => !t.includes('Price change'))).toEqual([
          '2026-03-02 Rollout to every team',
          '2026-03-05 Training for the parent team',
          '2026-03-06 The sub-team’s own note',
        ]);
        // The parent's chart leaves out its sub-team's note.
        expect(texts(await list(q(parent))).filter((t) => !t.includes('Price change'))).toEqual([
          '2026-03-02 Rollout to every team',
          '2026-03-05 Training for the parent team',
        ]);
        expect(texts(await list('start=2026-01-20&end=2026-02-28'))).toEqual(['2026-02-01 Before the range']);

        // Changed, and the change shown.
        const put = await call(`/api/marks/${onParent.id}`, {
          method: 'PUT',
          ...json({ day: '2026-03-04', team: parent, text: 'Training moved a day earlier' }),
        });
        expect(put.status).toBe(200);
        expect(markSchema.parse(await put.json())).toMatchObject({
          day: '2026-03-04',
          text: 'Training moved a day earlier',
        });
        expect(texts(await list(q(parent)))).toContain('2026-03-04 Training moved a day earlier');

        // Each bad mark refused naming its problem; nothing changed.
        const refused = async (body: unknown, detail: RegExp, status = 400, init: RequestInit = json(body)) => {
          const r = await call('/api/marks', { method: 'POST', ...init });
          expect(r.status).toBe(status);
          expect(((await r.json()) as { detail: string }).detail).toMatch(detail);
        };
        await refused({ day: '2026-3-2', team: '', text: 'x' }, /"day" must be a day \(YYYY-MM-DD\), got "2026-3-2"/);
        await refused({ day: '2026-01-01', team: '', text: 'x' }, /before the history starts \(2026-01-14\)/);
        await refused({ day: '2027-06-01', team: '', text: 'x' }, /more than a year after the latest day/);
        await refused({ day: '2026-03-02', team: 'Nobody', text: 'x' }, /No team is called "Nobody"/);
        await refused({ day: '2026-03-02', team: '', text: ' \n ' }, /"text" is empty/);
        await refused(
          { day: '2026-03-02', team: '', text: 'x'.repeat(201) },
          /201 characters long; a mark holds at most 200/,
        );
        await refused({ day: '2026-03-02', text: 'x' }, /"team" must be a team’s path, or ""/);
        await refused(null, /Send the mark as JSON/, 415, { headers: { 'content-type': 'text/plain' }, body: 'x' });
        await refused(null, /not valid JSON/, 400, { headers: { 'content-type': 'application/json' }, body: '{' });
        const badQuery = await call('/api/marks?start=2026-03-01');
        expect(badQuery.status).toBe(400);
        expect(((await badQuery.json()) as { detail: string }).detail).toMatch(/Give start and end/);
        // A price change is the price list's to change.
        const priceMark = (await list(RANGE)).find((m) => m.source === 'prices')!;
        const priceEdit = await call(`/api/marks/${encodeURIComponent(priceMark.id)}`, { method: 'DELETE' });
        expect(priceEdit.status).toBe(409);
        // From another site: refused before any route.
        const cross = await call('/api/marks', {
          method: 'POST',
          ...json({ day: '2026-03-02', team: '', text: 'From elsewhere' }, { origin: 'https://elsewhere.example' }),
        });
        expect(cross.status).toBe(403);
        // From another program on this machine (another port): refused; from the dashboard's names at its port, taken.
        const from = (origin: string) =>
          call('/api/marks', {
            method: 'POST',
            ...json({ day: '2026-03-03', team: '', text: `From ${origin}` }, { origin }),
          });
        const elsewhere = await from('http://localhost:9999');
        expect(elsewhere.status).toBe(403);
        expect(((await elsewhere.json()) as { detail: string }).detail).toMatch(/dashboard’s own pages/);
        const { port } = new URL(base);
        for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
          const r = await from(origin);
          expect(r.status, origin).toBe(201);
          const { id } = markSchema.parse(await r.json());
          expect((await call(`/api/marks/${id}`, { method: 'DELETE', headers: { origin } })).status).toBe(200);
        }

        // Removed.
        expect((await call(`/api/marks/${onChild.id}`, { method: 'DELETE' })).status).toBe(200);
        expect((await call(`/api/marks/${onChild.id}`, { method: 'DELETE' })).status).toBe(404);
        expect(texts(await list(q(child.path)))).not.toContain('2026-03-06 The sub-team’s own note');

        // Kept: a second server on the same store lists them all.
        const second = await listen(
          createApp(readServerConfig(full), { store: opened.store, storeConfig: readStoreConfig(full) }).handler,
        );
        const all = marksAnswerSchema.parse(await (await fetch(`${second}/api/marks/all`)).json()).marks;
        expect(all.filter((m) => m.source === 'user').map((m) => m.text)).toEqual([
          'Before the range',
          'Rollout to every team',
          'Training moved a day earlier',
          'Another team’s note',
        ]);
        expect(all.filter((m) => m.source === 'prices')).toHaveLength(2);

        // As many marks as a scope keeps, then as the store keeps: the next is refused saying the limit.
        const fill = async (team: string, n: number) => {
          const at = new Date().toISOString();
          const rows = Array.from({ length: n }, (_, i) => ({
            ...{ id: `filler-${team}-${i}`, day: '2026-02-10', team, text: 'Filler' },
            ...{ author: null, created_at: at, updated_at: at },
          }));
          for (let i = 0; i < n; i += 500)
            await opened.store.db
              .insertInto('chart_mark')
              .values(rows.slice(i, i + 500))
              .execute();
        };
        await fill('', MARKS_MAX.scope - (await countMarks(opened.store.db, '')).scope);
        await refused(
          { day: '2026-03-02', team: '', text: 'One too many' },
          /as many marks as one team or the organization keeps \(1,000\)/,
          409,
        );
        const onTeam = await add('2026-03-08', sibling, 'Room in a team');
        const move = await call(`/api/marks/${onTeam.id}`, {
          method: 'PUT',
          ...json({ day: '2026-03-08', team: '', text: 'Moved' }),
        });
        expect(move.status).toBe(409);
        // Room again once one is removed.
        expect((await call(`/api/marks/${org.id}`, { method: 'DELETE' })).status).toBe(200);
        expect(
          (
            await call(`/api/marks/${onTeam.id}`, {
              method: 'PUT',
              ...json({ day: '2026-03-08', team: '', text: 'Moved' }),
            })
          ).status,
        ).toBe(200);
        await fill(parent, MARKS_MAX.all - (await countMarks(opened.store.db, parent)).all);
        await refused(
          { day: '2026-03-02', team: child.path, text: 'One too many' },
          /as many marks as it keeps \(10,000\)/,
          409,
        );
      } finally {
        await opened.drop();
      }
    },
  );
});

/** Every `/users` row of the range, as the service gives them through the dashboard (the oracle's rows). */
async function usersRows(base: string, r: DayRange): Promise<UserRow[]> {
  const rows: UserRow[] = [];
  for (let cursor: string | undefined; ;) {
    const q = new URLSearchParams({ startDate: r.start, endDate: r.end, limit: '100', ...(cursor && { cursor }) });
    const page = usersResponseSchema.parse(await (await fetch(`${base}/api/v1/analytics/users?${q}`)).json());
    rows.push(...page.data);
    if (!page.meta.has_more) return rows;
    cursor = page.meta.next_cursor!;
  }
}

/** The measures without spend, worked out from the rows of the people `keep` keeps. */
function bruteForce(rows: readonly UserRow[], keep: (r: UserRow) => boolean) {
  const sums: Partial<Record<MeasureId, number>> = { credits: 0, toolCalls: 0, userMessages: 0, commits: 0, prs: 0 };
  const active = new Set<string>();
  for (const x of rows.filter(keep)) {
    active.add(x.user_id);
    sums.credits! += x.billable_tokens;
    sums.toolCalls! += x.tool_calls;
    sums.userMessages! += x.user_messages;
    sums.commits! += x.git_commits;
    sums.prs! += x.git_prs_created;
  }
  const of = (m: MeasureId) => (m === 'active' ? active.size : sums[m]!);
  return Object.fromEntries(MARK_MEASURES.map((m) => [m, valueOf(m, of)])) as Record<MeasureId, number | null>;
}

describe.each(STORE_ENGINES)('a mark’s figures before and after it ($name)', ({ available, open }) => {
  it.skipIf(!available)(
    'are its scope’s figures over as many whole weeks on each side, its week left out; none and why when too recent',
    async () => {
      const opened = await open();
      try {
        const full = { ...ENV, PRICES_FILE: pricesFile };
        const base = await listen(
          createApp(readServerConfig(full), { store: opened.store, storeConfig: readStoreConfig(full) }).handler,
        );
        const call = (path: string, init: RequestInit = {}) => fetch(base + path, init);
        const add = async (day: string, team: string, text: string) => {
          const r = await call('/api/marks', { method: 'POST', ...json({ day, team, text }) });
          expect(r.status).toBe(201);
          return markSchema.parse(await r.json());
        };
        const figuresOf = async (id: string) => {
          const r = await call(markFiguresPath(id));
          expect(r.status, await r.clone().text()).toBe(200);
          return markFiguresSchema.parse(await r.json());
        };
        const tree = flat(teamsAnswerSchema.parse(await (await call('/api/teams')).json()).teams);
        const team = [...tree].sort((a, b) => b.members - a.members)[0]!.path;

        // A Wednesday: the data run to Mar 31, so three whole weeks after its week, and three before.
        const org = await figuresOf((await add('2026-03-04', '', 'Rollout to every team')).id);
        expect(org).toMatchObject({
          day: '2026-03-04',
          team: '',
          week: '2026-03-02',
          weeks: 3,
          before: { start: '2026-02-09', end: '2026-03-01' },
          after: { start: '2026-03-09', end: '2026-03-29' },
          reason: null,
          currency: 'EUR',
        });
        expect(org.figures.map((f) => f.measure)).toEqual([...MARK_MEASURES, ...MARK_SPEND_MEASURES]);
        const before = await usersRows(base, org.before!);
        const after = await usersRows(base, org.after!);
        // One row per person and day, on days of the weeks (the demo's weekends are quiet, some without a row).
        const days = new Set(before.map((r) => r.date));
        expect(days.size).toBeGreaterThan(7);
        expect([...days].every((d) => eachDay(org.before!.start, org.before!.end).includes(d))).toBe(true);
        const expectFigures = (got: typeof org, keep: (r: UserRow) => boolean) => {
          const was = bruteForce(before, keep);
          const is = bruteForce(after, keep);
          for (const m of MARK_MEASURES) {
            const f = got.figures.find((x) => x.measure === m)!;
            expect(f.before, `${m} before`).toBeCloseTo(was[m]!, 6);
            expect(f.after, `${m} after`).toBeCloseTo(is[m]!, 6);
            expect(f.change, `${m} change`).toBeCloseTo(changeOf(is[m]!, was[m]!)!, 6);
          }
          // Spend is priced per day, model and tier: its ratios are of the same sums.
          const v = (m: string, side: 'before' | 'after') => got.figures.find((x) => x.measure === m)![side]!;
          for (const side of ['before', 'after'] as const) {
            expect(v('spend', side)).toBeGreaterThan(0);
            expect(v('spendPerPr', side)).toBeCloseTo(v('spend', side) / v('prs', side), 6);
            expect(v('spendPerCommit', side)).toBeCloseTo(v('spend', side) / v('commits', side), 6);
            expect(v('spendPerActive', side)).toBeCloseTo(v('spend', side) / v('active', side), 6);
          }
        };
        expectFigures(org, () => true);

        // A team's mark: the figures of the people the mapping puts in it and its sub-teams.
        const training = await add('2026-03-05', team, 'Training');
        const { format, text: mapping } = (await (await call('/api/teams/mapping')).json()) as {
          format: MappingFormat;
          text: string;
        };
        const parsed = parseMapping(mapping, format);
        if (!parsed.ok) throw new Error('the demo’s mapping is refused');
        const teamOf = teamResolver(parsed.mapping);
        const onTeam = await figuresOf(training.id);
        expect(onTeam).toMatchObject({ team, weeks: 3, before: org.before, after: org.after });
        expectFigures(onTeam, (r) => isWithin(teamOf(r.user_id, r.user_email), team));
        expect(onTeam.figures.find((f) => f.measure === 'active')!.after).toBeLessThan(
          org.figures.find((f) => f.measure === 'active')!.after!,
        );

        // Too recent for a whole week after it: no figures, and why.
        const recent = await figuresOf((await add('2026-03-25', '', 'Last week’s change')).id);
        expect(recent).toMatchObject({ weeks: 0, before: null, after: null, figures: [] });
        expect(recent.reason).toBe(
          'Too recent to tell: the first whole week after it ends on Apr 5, 2026, and the data run to Mar 31, 2026.',
        );
        // A price change is a mark of the organization's too.
        const price = await figuresOf('prices:2026-03-10:0');
        expect(price).toMatchObject({ team: '', week: '2026-03-09', weeks: 2 });
        // No such mark.
        const missing = await call(markFiguresPath('no-such-mark'));
        expect(missing.status).toBe(404);
        expect(((await missing.json()) as { detail: string }).detail).toMatch(/No such mark/);
        expect((await call('/api/marks/%E0%A4%A/figures')).status).toBe(404);
        expect((await call(markFiguresPath('prices:2026-03-11:0'))).status).toBe(404);
      } finally {
        await opened.drop();
      }
    },
    120_000,
  );
});

describe('who may read and write which marks, signed in', () => {
  let provider: TestProvider;
  let base: string;
  let store: StoreDb;
  let tree: TeamView[];
  let manager: { email: string; teams: string[] };
  let other: string;
  let viewer: string;

  beforeAll(async () => {
    const server = createServer((req, res) => handler(req, res, () => res.end('the page')));
    servers.push(server);
    let handler: ReturnType<typeof createApp>['handler'] = () => undefined;
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = await startProvider(`${base}/auth/callback`);
    const env = { ...ENV, DEMO_SEED: 'marks-auth', DEMO_USERS: '60', ...signInEnv(provider.issuer, base) };
    store = (await openAppStore(readServerConfig(env), readStoreConfig(env)))!;
    handler = createApp(readServerConfig(env), {
      store,
      storeConfig: readStoreConfig(env),
      logger: createLogger(() => {}),
    }).handler;
    const admin = await signIn('admin@acme.example');
    tree = flat(teamsAnswerSchema.parse(JSON.parse((await api(admin, '/api/teams')).body)).teams);
    const team = tree.find((t) => t.managers.length > 0 && t.path.includes('/'))!;
    const me = JSON.parse((await api(await signIn(team.managers[0]!), '/api/me')).body) as { teams: string[] };
    manager = { email: team.managers[0]!, teams: me.teams };
    other = tree.find((t) => !t.path.includes('/') && !me.teams.some((m) => isWithin(m, t.path)))!.path;
    const managers = new Set(tree.flatMap((t) => t.managers));
    viewer = `someone-${Math.random().toString(36).slice(2)}@acme.example`;
    expect(managers.has(viewer)).toBe(false);
  }, 60_000);

  afterAll(async () => {
    await provider.close();
    await store.close();
  });

  async function signIn(email: string) {
    const jar = new CookieJar();
    await walkSignIn(jar, new URL('/auth/login', base), email);
    return jar;
  }
  const api = (jar: CookieJar, path: string, init?: RequestInit) => request(jar, new URL(path, base), init);
  const post = (jar: CookieJar, body: unknown) => api(jar, '/api/marks', { method: 'POST', ...json(body) });
  const RANGE = 'start=2026-03-01&end=2026-03-31';

  it('a manager writes their teams’ marks only; a viewer none; an admin any, each with its author', async () => {
    const admin = await signIn('admin@acme.example');
    const mine = manager.teams[0]!;
    const parentOfMine = mine.includes('/') ? mine.slice(0, mine.lastIndexOf('/')) : null;
    const m = await signIn(manager.email);

    const own = await post(m, { day: '2026-03-03', team: mine, text: 'Our rollout' });
    expect(own.res.status, own.body).toBe(201);
    expect(markSchema.parse(JSON.parse(own.body))).toMatchObject({
      author: manager.email.toLowerCase(),
      editable: true,
    });
    const orgByManager = await post(m, { day: '2026-03-03', team: '', text: 'For everyone' });
    expect(orgByManager.res.status).toBe(403);
    expect(JSON.parse(orgByManager.body).detail).toMatch(/organization’s marks are set by admins/);
    const elsewhere = await post(m, { day: '2026-03-03', team: other, text: 'Not mine' });
    expect(elsewhere.res.status).toBe(403);
    expect(JSON.parse(elsewhere.body).detail).toMatch(/is not one of them/);

    const orgMark = await post(admin, { day: '2026-03-04', team: '', text: 'Vendor counts cache reads anew' });
    expect(orgMark.res.status).toBe(201);
    const otherMark = await post(admin, { day: '2026-03-05', team: other, text: 'Other team’s training' });
    expect(otherMark.res.status).toBe(201);
    const otherId = (JSON.parse(otherMark.body) as Mark).id;
    const orgId = (JSON.parse(orgMark.body) as Mark).id;
    if (parentOfMine)
      expect((await post(admin, { day: '2026-03-06', team: parentOfMine, text: 'Parent’s note' })).res.status).toBe(
        201,
      );

    // The manager may not change or remove the organization's mark, nor (unseen) another team's.
    const put = await api(m, `/api/marks/${orgId}`, {
      method: 'PUT',
      ...json({ day: '2026-03-04', team: '', text: 'x' }),
    });
    expect(put.res.status).toBe(403);
    expect((await api(m, `/api/marks/${otherId}`, { method: 'DELETE' })).res.status).toBe(404);
    // Nor move their own mark to another team.
    const ownId = (JSON.parse(own.body) as Mark).id;
    const moved = await api(m, `/api/marks/${ownId}`, {
      method: 'PUT',
      ...json({ day: '2026-03-03', team: other, text: 'Our rollout' }),
    });
    expect(moved.res.status).toBe(403);

    // What the manager's charts and marks screen show: theirs, their parents' (read-only), the organization's.
    const onTheirChart = marksAnswerSchema.parse(
      JSON.parse((await api(m, `/api/marks?${RANGE}&team=${encodeURIComponent(mine)}`)).body),
    ).marks;
    expect(onTheirChart.map((x) => [x.text, x.editable])).toEqual([
      ['Our rollout', true],
      ['Vendor counts cache reads anew', false],
      ...(parentOfMine ? [['Parent’s note', false]] : []),
    ]);
    const screen = marksAnswerSchema.parse(JSON.parse((await api(m, '/api/marks/all')).body)).marks;
    expect(screen.map((x) => x.text)).not.toContain('Other team’s training');
    expect((await api(m, `/api/marks?${RANGE}&team=${encodeURIComponent(other)}`)).res.status).toBe(403);

    // A viewer: the organization's marks, no team's, and no writing.
    const v = await signIn(viewer);
    expect(JSON.parse((await api(v, '/api/me')).body)).toMatchObject({ role: 'viewer' });
    const seen = marksAnswerSchema.parse(JSON.parse((await api(v, `/api/marks?${RANGE}`)).body)).marks;
    // Who wrote it is said to those who may write it, not to a viewer.
    expect(seen.map((x) => [x.text, x.editable, x.author])).toEqual([['Vendor counts cache reads anew', false, null]]);
    expect(onTheirChart.find((x) => x.text === 'Our rollout')!.author).toBe(manager.email.toLowerCase());
    expect((await api(v, `/api/marks?${RANGE}&team=${encodeURIComponent(mine)}`)).res.status).toBe(403);
    const byViewer = await post(v, { day: '2026-03-03', team: '', text: 'Mine' });
    expect(byViewer.res.status).toBe(403);
    expect(JSON.parse(byViewer.body).detail).toMatch(/added by managers, for their teams, and by admins/);
    expect((await api(v, `/api/marks/${orgId}`, { method: 'DELETE' })).res.status).toBe(403);

    // The admin changes and removes any mark.
    expect((await api(admin, `/api/marks/${ownId}`, { method: 'DELETE' })).res.status).toBe(200);
    expect((await api(admin, `/api/marks/${otherId}`, { method: 'DELETE' })).res.status).toBe(200);
  });

  it('a mark’s figures before and after are its scope’s, to those who read its scope’s figures', async () => {
    const admin = await signIn('admin@acme.example');
    const mine = manager.teams[0]!;
    const parentOfMine = mine.includes('/') ? mine.slice(0, mine.lastIndexOf('/')) : null;
    const add = async (team: string) => {
      const r = await post(admin, { day: '2026-03-04', team, text: `Figures of ${team || 'everyone'}` });
      expect(r.res.status).toBe(201);
      return markFiguresPath((JSON.parse(r.body) as Mark).id);
    };
    const [org, own, others] = [await add(''), await add(mine), await add(other)];
    const m = await signIn(manager.email);
    const status = async (jar: CookieJar, path: string) => {
      const r = await api(jar, path);
      return [r.res.status, r.res.status === 200 ? markFiguresSchema.parse(JSON.parse(r.body)).weeks : r.body];
    };
    expect(await status(m, org)).toEqual([200, 3]);
    expect(await status(m, own)).toEqual([200, 3]);
    // Another team's mark is not said to exist; a parent team's is read on their charts, but its figures are not theirs.
    expect((await status(m, others))[0]).toBe(404);
    if (parentOfMine) {
      const [code, body] = await status(m, await add(parentOfMine));
      expect(code).toBe(403);
      expect(JSON.parse(body as string).detail).toMatch(/are shown to its managers and admins/);
    }
    // A viewer: the organization's figures, no team's.
    const v = await signIn(viewer);
    expect(await status(v, org)).toEqual([200, 3]);
    expect((await status(v, own))[0]).toBe(404);
    expect(await status(admin, others)).toEqual([200, 3]);
  });
});

describe('a mark’s figures in privacy mode', () => {
  let provider: TestProvider;
  let base: string;
  let store: StoreDb;

  beforeAll(async () => {
    const server = createServer((req, res) => handler(req, res, () => res.end('the page')));
    servers.push(server);
    let handler: ReturnType<typeof createApp>['handler'] = () => undefined;
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = await startProvider(`${base}/auth/callback`);
    const env = {
      ...ENV,
      DEMO_SEED: 'marks-privacy',
      DEMO_USERS: '60',
      ...signInEnv(provider.issuer, base),
      // More people than any team has: no team is shown on its own, the organization is.
      PRIVACY_MIN_GROUP: '1000',
      PRIVACY_SECRET: 'marks-privacy-secret-of-at-least-32-characters',
    };
    store = (await openAppStore(readServerConfig(env), readStoreConfig(env)))!;
    handler = createApp(readServerConfig(env), {
      store,
      storeConfig: readStoreConfig(env),
      logger: createLogger(() => {}),
    }).handler;
  }, 60_000);

  afterAll(async () => {
    await provider.close();
    await store.close();
  });

  async function signIn(email: string) {
    const jar = new CookieJar();
    await walkSignIn(jar, new URL('/auth/login', base), email);
    return jar;
  }
  const api = (jar: CookieJar, path: string, init?: RequestInit) => request(jar, new URL(path, base), init);

  it('gives a manager no figures of a team the mode does not show, and the organization’s exact', async () => {
    const admin = await signIn('admin@acme.example');
    const tree = flat(teamsAnswerSchema.parse(JSON.parse((await api(admin, '/api/teams')).body)).teams);
    const team = tree.find((t) => t.managers.length > 0)!;
    const add = async (t: string) => {
      const r = await api(admin, '/api/marks', { method: 'POST', ...json({ day: '2026-03-04', team: t, text: 'x' }) });
      expect(r.res.status).toBe(201);
      return markFiguresPath((JSON.parse(r.body) as Mark).id);
    };
    const [org, own] = [await add(''), await add(team.path)];
    const m = await signIn(team.managers[0]!);
    const refused = await api(m, own);
    expect(refused.res.status).toBe(403);
    expect(JSON.parse(refused.body).detail).toMatch(/^Privacy mode \(PRIVACY_MIN_GROUP=1000\)/);
    expect(refused.body).not.toMatch(/"figures"/);
    const everyone = await api(m, org);
    expect(everyone.res.status).toBe(200);
    const asAdmin = markFiguresSchema.parse(JSON.parse((await api(admin, org)).body));
    expect(markFiguresSchema.parse(JSON.parse(everyone.body)).figures).toEqual(asAdmin.figures);
    // An admin is not subject to the mode.
    expect((await api(admin, own)).res.status).toBe(200);
  });
});
