/**
 * `GET /api/reconciliation` over HTTP on the demo service, on both store engines: every day's parts add up to the
 * service's own total and nothing is left unexplained; the dashboard's figure is the mapping's teams', the people
 * outside the mapping the rest; a day whose per-person rows the store does not hold is not synced, whole; a bad query
 * is a 400 saying what is wrong. Then, signed in: an admin sees the organization, a manager their teams' share only
 * (a viewer none, nor a manager under RESTRICT_ORG_VIEW), and privacy mode keeps a manager's group under k out of
 * the dashboard's figure, saying how many people that is without naming them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FiguresAnswer } from '../../api/figures';
import { RECONCILED, reconciliationSchema, type Reconciliation } from '../../api/reconciliation';
import { teamsSummarySchema } from '../../api/teams';
import { eachDay } from '../../lib/dates';
import { appHarness } from '../../test/app-harness';
import type { StoreDb } from '../store/db';
import { signInEnv, signedIn, startProvider, request, type TestProvider } from '../../test/oidc';
import { pgSkipReason } from '../../test/postgres';
import { STORE_ENGINES } from '../../test/stores';
import { readDemoConfig } from '../demo/config';
import { createDemoService } from '../demo/service';

const dir = mkdtempSync(join(tmpdir(), 'reconcile-app-'));
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'reconcile-app', DEMO_USERS: '60', SYNC_BACKGROUND: '0' };
const START = '2026-04-01';
const END = '2026-04-14';
const RANGE = `start=${START}&end=${END}`;
const PATH = `/api/reconciliation?${RANGE}`;

const { listen, dashboard, atEnd } = appHarness(DEMO);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each day's parts add up to the service's total, and nothing is left unexplained. */
function expectReconciled(r: Reconciliation) {
  for (const d of r.days)
    for (const m of RECONCILED) {
      const f = d.figures[m];
      expect(f.dashboard + f.notSynced + f.outside + f.unexplained, `${d.day} ${m}`).toBe(f.service);
      expect(f.unexplained, `${d.day} ${m} unexplained`).toBe(0);
    }
}

const sumOf = (r: Reconciliation, m: (typeof RECONCILED)[number], part: 'service' | 'dashboard' | 'outside') =>
  r.days.reduce((n, d) => n + d.figures[m][part], 0);

describe.each(STORE_ENGINES)('the reconciliation on $name', ({ available, open }) => {
  const test = it.skipIf(!available);
  const note = available ? '' : ` (${pgSkipReason})`;
  let base: string;
  let store: StoreDb;
  beforeAll(async () => {
    if (!available) return;
    const opened = await open();
    atEnd(opened.drop);
    store = opened.store;
    base = await dashboard({}, { store });
  }, 60_000);
  const read = async <T = Reconciliation>(path: string): Promise<T> => {
    const r = await fetch(base + path);
    const text = await r.text();
    expect(r.status, `${path}: ${text}`).toBe(200);
    return JSON.parse(text) as T;
  };
  const refused = async (path: string, status: number, detail: RegExp) => {
    const r = await fetch(base + path);
    const body = (await r.json()) as { detail: string };
    expect(r.status, `${path}: ${body.detail}`).toBe(status);
    expect(body.detail, path).toMatch(detail);
  };

  test(`answers a bad query with a 400 saying what is wrong${note}`, async () => {
    await refused(`${PATH}&measure=credits`, 400, /^Unknown parameter "measure"; this endpoint takes start, end, team/);
    await refused(`/api/reconciliation?start=${START}`, 400, /^Give both start and end/);
    await refused(`/api/reconciliation?start=${END}&end=${START}`, 400, /is before start/);
    await refused(`/api/reconciliation?start=2026-04-01&end=2026-05-01`, 400, /is after the latest day with data/);
    await refused(`${PATH}&team=Nowhere`, 400, /^No team is called "Nowhere"/);
    await refused(`${PATH}&start=${START}`, 400, /"start" is given more than once/);
  });

  test(`sets every day of the service beside the mapping’s teams, the rest outside the mapping, none unexplained${note}`, async () => {
    // The per-person rows are filled as a page asks for them (the reconciliation itself never asks).
    await read<FiguresAnswer>(`/api/figures?${RANGE}&measure=credits`);
    const r = reconciliationSchema.parse(await read(PATH));
    expect(r).toMatchObject({ range: { start: START, end: END }, teams: [], mapping: true, outside: 'mapping' });
    expect(r.withheld).toBeNull();
    expect(r.days.map((d) => d.day)).toEqual(eachDay(START, END));
    expect(r.days.every((d) => d.synced && d.final)).toBe(true);
    expectReconciled(r);
    for (const d of r.days) for (const m of RECONCILED) expect(d.figures[m].notSynced).toBe(0);
    // The service's totals are its own day rows.
    const tokens = (
      await read<{ data: { date: string; billable_tokens: number }[] }>(
        `/api/v1/analytics/tokens?startDate=${START}&endDate=${END}`,
      )
    ).data;
    const activity = (
      await read<{ data: { date: string; daily_active_users: number; sessions: number }[] }>(
        `/api/v1/analytics/activity?startDate=${START}&endDate=${END}`,
      )
    ).data;
    for (const d of r.days) {
      expect(d.figures.credits.service, d.day).toBe(tokens.find((t) => t.date === d.day)!.billable_tokens);
      expect(d.figures.active.service, d.day).toBe(activity.find((t) => t.date === d.day)!.daily_active_users);
      expect(d.figures.sessions.service, d.day).toBe(activity.find((t) => t.date === d.day)!.sessions);
    }
    expect(sumOf(r, 'credits', 'service')).toBeGreaterThan(0);
    // The dashboard's figure is the top-level teams' sum; outside the mapping, Unassigned's.
    const summary = teamsSummarySchema.parse(await read(`/api/teams/summary?${RANGE}`));
    const teams = summary.rows.filter((t) => t.depth === 1 && t.team !== 'Unassigned');
    const unassigned = summary.rows.find((t) => t.team === 'Unassigned')!;
    expect(teams.length).toBeGreaterThan(1);
    for (const m of ['credits', 'sessions', 'commits', 'prs'] as const) {
      expect(sumOf(r, m, 'dashboard'), m).toBe(teams.reduce((n, t) => n + t.current[m]!, 0));
      expect(sumOf(r, m, 'outside'), m).toBe(unassigned.current[m]);
    }
    expect(sumOf(r, 'credits', 'outside')).toBeGreaterThan(0);
  });

  test(`shows a day whose per-person rows the store does not hold as not synced, whole${note}`, async () => {
    const range = { start: '2026-03-02', end: '2026-03-08' };
    const path = `/api/reconciliation?start=${range.start}&end=${range.end}`;
    await read<FiguresAnswer>(`/api/figures?start=${range.start}&end=${range.end}&measure=credits`);
    const before = await read(path);
    const gone = '2026-03-04';
    await store.db.deleteFrom('user_day').where('day', '=', gone).execute();
    await store.db.deleteFrom('users_day').where('day', '=', gone).execute();
    const after = reconciliationSchema.parse(await read(path));
    expectReconciled(after);
    for (const [i, d] of after.days.entries()) {
      if (d.day !== gone) {
        expect(d, d.day).toEqual(before.days[i]);
        continue;
      }
      expect(d.synced).toBe(false);
      expect(d.final).toBe(false);
      for (const m of RECONCILED) {
        const f = d.figures[m];
        expect(f.service, m).toBe(before.days[i]!.figures[m].service);
        expect(f, m).toEqual({ service: f.service, dashboard: 0, notSynced: f.service, outside: 0, unexplained: 0 });
      }
      expect(d.figures.credits.notSynced).toBeGreaterThan(0);
    }
    // Filled again as a page asks for it, the day adds up as before.
    await read<FiguresAnswer>(`/api/figures?start=${range.start}&end=${range.end}&measure=credits`);
    expect((await read(path)).days).toEqual(before.days);
  });
});

describe('who may see the reconciliation, signed in', () => {
  let provider: TestProvider;
  const people = (() => {
    const org = createDemoService(readDemoConfig(DEMO)).world().org;
    const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
    return org.users.filter((u, i) => u.email !== null && org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]! > 0);
  })();
  const lead = people[0]!;
  // Core: the lead and four more (shown for k = 3); Solo: two (fewer than k); Tiny: one, so that what the organization
  // leaves beside its shown teams is k or more and Core stays shown; Else: ten.
  const core = people.slice(0, 5);
  const solo = people.slice(5, 7);
  const tiny = people.slice(7, 8);
  const others = people.slice(8, 18);
  const EMAILS = { admin: 'admin@acme.example', lead: lead.email!, viewer: others[0]!.email! };
  const base: Record<'plain' | 'private' | 'restricted', string> = { plain: '', private: '', restricted: '' };

  beforeAll(async () => {
    const at = [await listen(), await listen(), await listen()];
    provider = await startProvider(at.map((l) => `${l.base}/auth/callback`));
    atEnd(() => provider.close());
    const teams = join(dir, 'teams.csv');
    const rows = [
      ['', 'Core', lead.email!],
      ['', 'Solo', lead.email!],
      ...core.map((p) => [p.email!, 'Core', '']),
      ...solo.map((p) => [p.email!, 'Solo', '']),
      ...tiny.map((p) => [p.email!, 'Tiny', '']),
      ...others.map((p) => [p.email!, 'Else', '']),
    ];
    writeFileSync(teams, ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n');
    const env = (l: Awaited<ReturnType<typeof listen>>) => ({
      TEAMS_FILE: teams,
      ...signInEnv(provider.issuer, l.base),
    });
    base.plain = await dashboard(env(at[0]!), { at: at[0] });
    base.private = await dashboard(
      { ...env(at[1]!), PRIVACY_MIN_GROUP: '3', PRIVACY_SECRET: 'reconcile-app-privacy-secret-of-32-chars' },
      { at: at[1] },
    );
    base.restricted = await dashboard({ ...env(at[2]!), RESTRICT_ORG_VIEW: '1' }, { at: at[2] });
  }, 60_000);

  const as = async (where: keyof typeof base, who: keyof typeof EMAILS) => {
    const jar = await signedIn(base[where], EMAILS[who]);
    return async <T = Reconciliation & { detail?: string }>(path: string) => {
      const r = await request(jar, new URL(path, base[where]));
      return { status: r.res.status, text: r.body, body: JSON.parse(r.body) as T };
    };
  };
  /** Each day's figures of these teams' people, as an admin reads them of the figures runner. */
  const teamDays = async (admin: Awaited<ReturnType<typeof as>>, teams: string[]) => {
    const q = teams.map((t) => `team=${t}`).join('&');
    const r = await admin<FiguresAnswer>(
      `/api/figures?${RANGE}&by=day&compare=none&${q}&${RECONCILED.map((m) => `measure=${m}`).join('&')}`,
    );
    expect(r.status).toBe(200);
    return new Map(r.body.rows.map((x) => [x.key, x.current]));
  };

  it('gives an admin the organization, a manager their teams’ share, a viewer nothing', async () => {
    const admin = await as('plain', 'admin');
    await admin(`/api/figures?${RANGE}&measure=credits`);
    const org = await admin(PATH);
    expect(org.status).toBe(200);
    expect(org.body).toMatchObject({ teams: [], outside: 'mapping', withheld: null });
    expectReconciled(org.body);
    // The mapping's teams are the dashboard's figure: Core, Solo, Tiny and Else.
    const mapped = await teamDays(admin, ['Core', 'Else', 'Solo', 'Tiny']);
    for (const d of org.body.days)
      for (const m of RECONCILED) expect(d.figures[m].dashboard).toBe(mapped.get(d.day)![m]);

    const mgr = await as('plain', 'lead');
    const mine = await mgr(PATH);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ teams: ['Core', 'Solo'], outside: 'teams', withheld: null });
    expectReconciled(mine.body);
    const theirs = await teamDays(admin, ['Core', 'Solo']);
    for (const [i, d] of mine.body.days.entries())
      for (const m of RECONCILED) {
        expect(d.figures[m].dashboard, `${d.day} ${m}`).toBe(theirs.get(d.day)![m]);
        expect(d.figures[m].service).toBe(org.body.days[i]!.figures[m].service);
      }
    // One of their teams; not another's.
    const one = await mgr(`${PATH}&team=Core`);
    expect(one.body.teams).toEqual(['Core']);
    const other = await mgr(`${PATH}&team=Else`);
    expect([other.status, other.body.detail]).toEqual([403, expect.stringMatching(/"Else" is not one of them\.$/)]);
    // An admin asks for any team's share.
    expect((await admin(`${PATH}&team=Else`)).body.teams).toEqual(['Else']);

    const viewer = await as('plain', 'viewer');
    const no = await viewer(PATH);
    expect([no.status, no.body.detail]).toEqual([
      403,
      expect.stringMatching(/^The reconciliation is shown to managers/),
    ]);
  });

  it('keeps a manager out under RESTRICT_ORG_VIEW: the organization’s totals are not theirs to see', async () => {
    const mgr = await as('restricted', 'lead');
    const r = await mgr(PATH);
    expect([r.status, r.body.detail]).toEqual([403, expect.stringMatching(/RESTRICT_ORG_VIEW/)]);
    expect((await (await as('restricted', 'admin'))(PATH)).status).toBe(200);
  });

  it('withholds a manager’s group under k in privacy mode, saying how many people without naming them', async () => {
    const admin = await as('private', 'admin');
    await admin(`/api/figures?${RANGE}&measure=credits`);
    const mgr = await as('private', 'lead');
    const r = await mgr(PATH);
    expect(r.status).toBe(200);
    // Solo is not named: its people are counted, their figures outside the teams shown.
    expect(r.body).toMatchObject({
      teams: ['Core'],
      outside: 'teams',
      withheld: { minGroup: 3, groups: 1, people: 2 },
    });
    expect(r.text).not.toContain('Solo');
    expectReconciled(r.body);
    // The dashboard's figure is Core's alone: Solo's two people are counted outside, never on their own.
    const coreDays = await teamDays(admin, ['Core']);
    const both = await teamDays(admin, ['Core', 'Solo']);
    let soloCredits = 0;
    for (const d of r.body.days)
      for (const m of RECONCILED) {
        expect(d.figures[m].dashboard, `${d.day} ${m}`).toBe(coreDays.get(d.day)![m]);
        soloCredits += m === 'credits' ? both.get(d.day)![m]! - coreDays.get(d.day)![m]! : 0;
      }
    expect(soloCredits).toBeGreaterThan(0);
    // No person is named: no email, no id, no pseudonym.
    expect(r.text).not.toMatch(/@|usr_|Person /);
    for (const p of [...core, ...solo]) expect(r.text).not.toContain(p.id);
    // Solo asked for alone is refused, as every route refuses a group the mode does not show.
    const alone = await mgr(`${PATH}&team=Solo`);
    expect([alone.status, alone.body.detail]).toEqual([
      403,
      expect.stringMatching(/^Privacy mode \(PRIVACY_MIN_GROUP=3\)/),
    ]);
    // An admin is not in privacy mode: Solo is theirs to see.
    const full = await admin(`${PATH}&team=Solo`);
    expect(full.body.withheld).toBeNull();
    expect(full.body.days.some((d) => d.figures.credits.dashboard > 0)).toBe(true);
  });
});
