/**
 * `GET /api/figures` over HTTP on the demo organization, on both store engines: a bad question is a 400 naming
 * what is wrong, and the figures are the pages' own for the same question (each team's row of the teams summary,
 * a person's row of their page); then, signed in through the test OpenID provider, who may ask what: an admin
 * anything, a manager their teams and people (privacy mode: by pseudonym, themself only by id; RESTRICT_ORG_VIEW:
 * not the organization), a viewer the organization and themself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figuresAnswerSchema, type FiguresAnswer } from '../../api/figures';
import { teamsSummarySchema } from '../../api/teams';
import { userDaysSchema, usersTableSchema } from '../../api/users';
import { addDays, weekStart } from '../../lib/dates';
import { appHarness } from '../../test/app-harness';
import { signInEnv, signedIn, startProvider, request, type TestProvider } from '../../test/oidc';
import { STORE_ENGINES } from '../../test/stores';
import { pgSkipReason } from '../../test/postgres';
import { pseudonym } from '../auth/privacy';
import { createDemoService } from '../demo/service';
import { readDemoConfig } from '../demo/config';

const dir = mkdtempSync(join(tmpdir(), 'figures-app-'));
const PRICES = join(dir, 'prices.json');
writeFileSync(PRICES, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'figures-app', DEMO_USERS: '60' };
const START = '2026-04-01';
const END = '2026-04-30';
const RANGE = `start=${START}&end=${END}`;
/** The teams summary's measures, as its rows carry them. */
const SUMMARY = [
  'members',
  'active',
  'adoption',
  'credits',
  'creditsPerActive',
  'toolCalls',
  'userMessages',
  'toolCallsPerTurn',
  'sessions',
  'commits',
  'prs',
  'creditsPerCommit',
  'creditsPerPr',
  'spend',
  'spendPerActive',
  'spendPerCommit',
  'spendPerPr',
] as const;
const measures = (ms: readonly string[]) => ms.map((m) => `measure=${m}`).join('&');
const team = (t: string) => `team=${encodeURIComponent(t)}`;

const { listen, dashboard, atEnd } = appHarness(DEMO);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(STORE_ENGINES)('the figures endpoint on $name', ({ available, open }) => {
  const test = it.skipIf(!available);
  const note = available ? '' : ` (${pgSkipReason})`;
  let base: string;
  beforeAll(async () => {
    if (!available) return;
    const opened = await open();
    atEnd(opened.drop);
    base = await dashboard({ PRICES_FILE: PRICES }, { store: opened.store });
  }, 60_000);
  const read = async <T = FiguresAnswer>(path: string): Promise<T> => {
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

  test(`answers a bad question with a 400 saying what is wrong${note}`, async () => {
    const f = `/api/figures?${RANGE}`;
    await refused(f, 400, /^Name at least one measure: measure=<id>, several allowed; the measures are members, /);
    await refused(`${f}&measure=credit`, 400, /^measure must be one of members, .*; got "credit"\.$/);
    await refused(
      `${f}&measure=credits&by=month`,
      400,
      /^by must be one of total, day, week, team, person, got "month"/,
    );
    await refused(`${f}&measure=credits&by=total&by=team`, 400, /"by" is given more than once/);
    await refused(`${f}&measure=credits&top=5`, 400, /^top is taken with by=person only/);
    await refused(`${f}&measure=credits&by=person&top=0`, 400, /^top must be a whole number from 1 to 1000, got "0"/);
    await refused(`${f}&measure=credits&compare=last`, 400, /^compare must be one of previous, none/);
    await refused(`${f}&measure=credits&team=Nowhere`, 400, /^No team is called "Nowhere"/);
    await refused(`${f}&measure=credits&users=x`, 400, /^Unknown parameter "users"; this endpoint takes start, end, /);
    await refused(`${f}&measure=credits&user=`, 400, /^user must be a person’s id/);
    await refused(`${f}&measure=credits&user=u1&${team('Unassigned')}`, 400, /^Give user or team, not both/);
    await refused(`${f}&measure=credits&user=u1&by=team`, 400, /are by total, day or week, not by team\.$/);
    await refused(`${f}&measure=credits&user=nobody-at-all`, 404, /^No user with the id "nobody-at-all"/);
    await refused(`/api/figures?start=${START}&measure=credits`, 400, /^Give both start and end/);
  });

  test(`gives each team’s row of the teams summary, and the organization’s${note}`, async () => {
    const summary = teamsSummarySchema.parse(await read(`/api/teams/summary?${RANGE}`));
    const byTeam = await read(`/api/figures?${RANGE}&by=team&${measures(SUMMARY)}`);
    const total = await read(`/api/figures?${RANGE}&${measures(SUMMARY)}`);
    expect(figuresAnswerSchema.parse(byTeam)).toMatchObject({ by: 'team', range: { start: START, end: END } });
    expect(byTeam.previous).toEqual(summary.previous);
    expect(byTeam.currency).toBe('EUR');
    const rows = new Map([...byTeam.rows, ...total.rows].map((r) => [r.key, r]));
    expect(summary.rows.length).toBeGreaterThan(3);
    expect([...rows.keys()].sort()).toEqual(summary.rows.map((r) => r.team).sort());
    for (const s of summary.rows) {
      const r = rows.get(s.team)!;
      for (const m of SUMMARY) {
        expect(r.current[m], `${s.team} ${m}`).toBe(s.current[m]);
        expect(r.previous?.[m], `${s.team} ${m} before`).toBe(s.previous?.[m]);
        expect(r.change?.[m], `${s.team} ${m} change`).toBe(s.change?.[m]);
      }
    }
    // Members alone (no fact of the range to sum): each team's.
    const members = await read(`/api/figures?${RANGE}&by=team&measure=members&compare=none`);
    for (const r of members.rows) expect(r.current, r.key).toEqual({ members: rows.get(r.key)!.current.members });
    // A team asked for alone: the same row, its sub-teams beside it.
    const t = summary.rows.find((r) => r.depth === 1 && r.hasChildren)!.team;
    const one = await read(`/api/figures?${RANGE}&by=team&${team(t)}&measure=credits&measure=active`);
    expect(one.rows[0]).toMatchObject({ key: t, current: { credits: rows.get(t)!.current.credits } });
    expect(one.rows.every((r) => r.key === t || r.key.startsWith(`${t}/`))).toBe(true);
    const alone = await read(`/api/figures?${RANGE}&${team(t)}&measure=credits&measure=active&compare=none`);
    expect(alone).toMatchObject({ previous: null, teams: [t], rows: [{ key: '', previous: null, change: null }] });
    expect(alone.rows[0]!.current).toEqual({
      credits: rows.get(t)!.current.credits,
      active: rows.get(t)!.current.active,
    });
  });

  test(`gives a person’s row of their page, and their days and weeks add up to it${note}`, async () => {
    const table = usersTableSchema.parse(await read(`/api/users?${RANGE}&limit=3`));
    const PERSON = ['credits', 'toolCalls', 'userMessages', 'sessions', 'commits', 'prs', 'spend'] as const;
    for (const u of table.users) {
      const id = encodeURIComponent(u.userId);
      const page = userDaysSchema.parse(await read(`/api/users/${id}?${RANGE}`)).user!;
      const mine = await read(`/api/figures?${RANGE}&user=${id}&${measures(PERSON)}&measure=toolCallsPerTurn`);
      expect(mine.user).toBe(u.userId);
      const [row] = mine.rows;
      for (const m of PERSON.filter((m) => m !== 'spend')) expect(row!.current[m], m).toBe(page[m]);
      expect(row!.current.spend).toBeCloseTo(page.spend!, 9);
      expect(row!.current.toolCallsPerTurn).toBeCloseTo(page.autonomyRatio, 12);
      const days = await read(`/api/figures?${RANGE}&user=${id}&by=day&measure=credits&measure=active`);
      expect(days.rows.map((r) => r.key)).toEqual(Array.from({ length: 30 }, (_, i) => addDays(START, i)));
      expect(days.rows.reduce((n, r) => n + r.current.credits!, 0)).toBe(page.credits);
      expect(days.rows.filter((r) => r.current.active === 1)).toHaveLength(page.activeDays);
      const weeks = await read(`/api/figures?${RANGE}&user=${id}&by=week&measure=credits`);
      for (const w of weeks.rows) expect(weekStart(w.key)).toBe(w.key);
      expect(weeks.rows.reduce((n, r) => n + r.current.credits!, 0)).toBe(page.credits);
    }
  });

  test(`lists people by the first measure, the first N with top, adding up to everyone’s${note}`, async () => {
    const everyone = await read(`/api/figures?${RANGE}&by=person&measure=credits&measure=active&compare=none`);
    const total = await read(`/api/figures?${RANGE}&measure=credits&measure=active&compare=none`);
    const credits = everyone.rows.map((r) => r.current.credits!);
    expect(credits).toEqual([...credits].sort((a, b) => b - a));
    expect(credits.reduce((a, b) => a + b, 0)).toBe(total.rows[0]!.current.credits);
    expect(everyone.rows.filter((r) => r.current.active === 1)).toHaveLength(total.rows[0]!.current.active!);
    const top = await read(`/api/figures?${RANGE}&by=person&measure=credits&compare=none&top=5`);
    expect(top.rows.map((r) => r.key)).toEqual(everyone.rows.slice(0, 5).map((r) => r.key));
  });
});

describe('who may ask the figures endpoint, signed in', () => {
  let provider: TestProvider;
  const { people, lead } = (() => {
    const org = createDemoService(readDemoConfig(DEMO)).world().org;
    const [lo, hi] = [org.dayIndex(START), org.dayIndex(END)];
    const active = org.users.filter(
      (u, i) => u.email !== null && org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]! > 0,
    );
    return { people: active, lead: active[0]! };
  })();
  // Core: the lead and four of the active people; Core/Pair: two more (fewer than k=3 in privacy mode).
  const core = people.slice(0, 5);
  const pair = people.slice(5, 7);
  const others = people.slice(7);
  // The manager of Core is one of its people; the viewer is one of Else's.
  const EMAILS = { admin: 'admin@acme.example', lead: lead.email!, viewer: others[0]!.email! };
  let at: Awaited<ReturnType<typeof listen>>[];
  const base: Record<'plain' | 'private' | 'restricted', string> = { plain: '', private: '', restricted: '' };
  const SECRET = 'figures-app-privacy-secret-of-32-characters';

  beforeAll(async () => {
    at = [await listen(), await listen(), await listen()];
    provider = await startProvider(at.map((l) => `${l.base}/auth/callback`));
    atEnd(() => provider.close());
    const teams = join(dir, 'teams.csv');
    const rows = [
      ['', 'Core', lead.email!],
      ...core.map((p) => [p.email!, 'Core', '']),
      ...pair.map((p) => [p.email!, 'Core/Pair', '']),
      ...others.slice(0, 10).map((p) => [p.email!, 'Else', '']),
    ];
    writeFileSync(teams, ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n');
    const env = (l: Awaited<ReturnType<typeof listen>>) => ({
      TEAMS_FILE: teams,
      ...signInEnv(provider.issuer, l.base),
    });
    base.plain = await dashboard(env(at[0]!), { at: at[0] });
    base.private = await dashboard({ ...env(at[1]!), PRIVACY_MIN_GROUP: '3', PRIVACY_SECRET: SECRET }, { at: at[1] });
    base.restricted = await dashboard({ ...env(at[2]!), RESTRICT_ORG_VIEW: '1' }, { at: at[2] });
  }, 60_000);

  const as = async (where: keyof typeof base, who: keyof typeof EMAILS) => {
    const jar = await signedIn(base[where], EMAILS[who]);
    return async (path: string) => {
      const r = await request(jar, new URL(path, base[where]));
      return { status: r.res.status, body: JSON.parse(r.body) as FiguresAnswer & { detail?: string } };
    };
  };
  const f = `/api/figures?${RANGE}&measure=credits&measure=active`;

  it('gives an admin everything, a viewer the organization and their own figures only', async () => {
    const admin = await as('plain', 'admin');
    for (const q of ['', '&by=person', '&by=team', `&${team('Core/Pair')}`, `&user=${pair[0]!.id}`])
      expect((await admin(f + q)).status, q).toBe(200);
    const viewer = await as('plain', 'viewer');
    expect((await viewer(f)).status).toBe(200);
    expect((await viewer(`${f}&by=week`)).status).toBe(200);
    expect((await viewer(`${f}&user=${others[0]!.id}`)).status).toBe(200);
    for (const [q, detail] of [
      ['&by=person', /^Other people’s rows are shown to their managers and admins/],
      ['&by=team', /^The teams’ figures are shown to their managers and admins/],
      [`&${team('Core')}`, /^A team’s figures are shown to its managers and admins/],
      [`&user=${core[1]!.id}`, /^This person’s page is shown to their managers and admins/],
    ] as const) {
      const r = await viewer(f + q);
      expect([r.status, r.body.detail], q).toEqual([403, expect.stringMatching(detail)]);
    }
  });

  it('gives a manager their teams and people, not the others’', async () => {
    const admin = await as('plain', 'admin');
    const mgr = await as('plain', 'lead');
    const mine = new Set([...core, ...pair].map((p) => p.id));
    const byPerson = await mgr(`${f}&by=person`);
    expect(byPerson.status).toBe(200);
    expect(new Set(byPerson.body.rows.map((r) => r.key))).toEqual(mine);
    const byTeam = await mgr(`${f}&by=team`);
    expect(byTeam.body.rows.map((r) => r.key)).toEqual(['Core', 'Core/Pair']);
    const truth = new Map((await admin(`${f}&by=team`)).body.rows.map((r) => [r.key, r]));
    for (const r of byTeam.body.rows) expect(r).toEqual(truth.get(r.key));
    // The organization's figures, as a team's page shows them without a team; one of their people; not others.
    expect((await mgr(f)).body.rows).toEqual((await admin(f)).body.rows);
    expect((await mgr(`${f}&user=${pair[1]!.id}`)).status).toBe(200);
    for (const q of [`&${team('Else')}`, `&by=person&${team('Else')}`, `&user=${others[0]!.id}`])
      expect((await mgr(f + q)).status, q).toBe(403);
  });

  it('keeps a manager to their teams under RESTRICT_ORG_VIEW', async () => {
    const mgr = await as('restricted', 'lead');
    const r = await mgr(f);
    expect([r.status, r.body.detail]).toEqual([403, expect.stringMatching(/RESTRICT_ORG_VIEW/)]);
    expect((await mgr(`${f}&${team('Core')}`)).status).toBe(200);
    expect((await mgr(`${f}&by=person`)).status).toBe(200);
  });

  it('names people by pseudonym in privacy mode, shows no team under k, and a person’s own figures only', async () => {
    const mgr = await as('private', 'lead');
    const byPerson = await mgr(`${f}&by=person`);
    expect(byPerson.status).toBe(200);
    expect(byPerson.body.rows.map((r) => r.key).sort()).toEqual(
      [...core, ...pair].map((p) => pseudonym(SECRET, p.id)).sort(),
    );
    expect(JSON.stringify(byPerson.body)).not.toMatch(/@|usr_/);
    const top = await mgr(`${f}&by=person&top=2`);
    expect(top.body.rows).toEqual(byPerson.body.rows.slice(0, 2));
    // Core/Pair has two members: no row of its own, refused alone, its people withheld as the users table's.
    expect((await mgr(`${f}&by=team`)).body.rows.map((r) => r.key)).toEqual(['Core']);
    const pairAlone = await mgr(`${f}&${team('Core/Pair')}`);
    expect([pairAlone.status, pairAlone.body.detail]).toEqual([403, expect.stringMatching(/^Privacy mode/)]);
    const own = await mgr(`${f}&user=${lead.id}`);
    expect(own.status).toBe(200);
    const other = await mgr(`${f}&user=${core[1]!.id}`);
    expect([other.status, other.body.detail]).toEqual([
      403,
      expect.stringMatching(/^Privacy mode \(PRIVACY_MIN_GROUP=3\)/),
    ]);
    // An admin sees names.
    const admin = await as('private', 'admin');
    expect((await admin(`${f}&by=person&${team('Core')}`)).body.rows.map((r) => r.key)).toContain(lead.id);
  });
});
