/**
 * Intensity over HTTP on the demo organization: its measures through `GET /api/figures` (each team's people in each
 * band add up to its members, the thresholds beside them, no bands for fewer than 8 active people), a bad question
 * or refresh answered with a 400 saying what is wrong, an admin's refresh kept and seen at once; then, signed in, who
 * may ask and refresh what: a manager their teams only and no refresh, and in privacy mode no team under k, no bands
 * under the larger of k and 8, and no email.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figuresAnswerSchema, thresholdsSchema, type FiguresAnswer } from '../../api/figures';
import { appHarness } from '../../test/app-harness';
import { signInEnv, signedIn, startProvider, request, type TestProvider } from '../../test/oidc';
import { createDemoService } from '../demo/service';
import { readDemoConfig } from '../demo/config';

const dir = mkdtempSync(join(tmpdir(), 'intensity-app-'));
const DEMO = { DEMO_TODAY: '2026-05-01', DEMO_SEED: 'intensity-app', DEMO_USERS: '60' };
const RANGE = 'start=2026-04-01&end=2026-04-29';
const BANDS = ['intensityHeavy', 'intensityModerate', 'intensityLight', 'intensityMinimal', 'intensityNone'];
const ASKED = ['members', 'intensityActive', ...BANDS, ...BANDS.map((b) => `${b}Share`)];
const measures = (ms: readonly string[]) => ms.map((m) => `measure=${m}`).join('&');
const F = `/api/figures?${RANGE}&${measures(ASKED)}`;
const team = (t: string) => `team=${encodeURIComponent(t)}`;
const THRESHOLDS = '/api/intensity/thresholds';

const { listen, dashboard, atEnd } = appHarness(DEMO);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** Every group's bands: shown only over `minActive` active people, then each member in one band. */
function expectBanded(a: FiguresAnswer, minActive: number) {
  expect(a.intensity?.minActive).toBe(minActive);
  for (const r of a.rows) {
    const c = r.current;
    if (c.intensityActive! < minActive) {
      for (const b of BANDS) expect(c[b], `${r.key} ${b}`).toBeNull();
      continue;
    }
    expect(
      BANDS.reduce((n, b) => n + c[b]!, 0),
      r.key,
    ).toBe(c.members);
    expect(c.intensityNone, r.key).toBe(c.members! - c.intensityActive!);
    expect(
      BANDS.reduce((n, b) => n + c[`${b}Share`]!, 0),
      r.key,
    ).toBeCloseTo(1, 12);
  }
}

describe('intensity through the figures endpoint', () => {
  let base: string;
  beforeAll(async () => {
    base = await dashboard({});
  }, 60_000);
  const read = async (path: string, init?: RequestInit) => {
    const r = await fetch(base + path, init);
    const text = await r.text();
    expect(r.status, `${path}: ${text}`).toBe(200);
    return JSON.parse(text) as FiguresAnswer;
  };
  const refused = async (path: string, init: RequestInit | undefined, status: number, detail: RegExp) => {
    const r = await fetch(base + path, init);
    const body = (await r.json()) as { detail: string };
    expect([r.status, body.detail], path).toEqual([status, expect.stringMatching(detail)]);
  };

  it('answers a bad question or refresh with a 400 saying what is wrong', async () => {
    await refused(`${F}&by=person`, undefined, 400, /never by person: intensity is use, not merit/);
    await refused(`${F}&by=person&top=3`, undefined, 400, /never by person/);
    // Nor is the funnel from access to a first pull request: it is of groups of starters.
    await refused(
      `/api/figures?${RANGE}&measure=funnelPrShare&by=person`,
      undefined,
      400,
      /^funnelPrShare is given by total, day, week or team \(a group of starters\), never by person\.$/,
    );
    await refused(THRESHOLDS, post({ quarter: '2026-2' }), 400, /^"quarter" must be a calendar quarter such as/);
    await refused(THRESHOLDS, post({}), 400, /^"quarter" must be a calendar quarter .*got "undefined"/);
    await refused(THRESHOLDS, post('{"quarter":'), 400, /^The body is not valid JSON: send \{"quarter": "2026-Q2"\}/);
    await refused(THRESHOLDS, { method: 'POST', body: '{}' }, 415, /^Send the quarter as JSON/);
    await refused(
      THRESHOLDS,
      post({ quarter: '2026-Q3' }),
      400,
      /^2026-Q3 has not started: the latest day with data is \d{4}-\d{2}-\d{2}, in 2026-Q2\.$/,
    );
    await refused(THRESHOLDS, post({ quarter: '2025-Q4' }), 400, /^2025-Q4 ended before the history starts/);
    const r = await fetch(base + THRESHOLDS);
    expect(r.status).toBe(405);
  });

  it('gives each team’s people in each band with the thresholds, and keeps a refresh', async () => {
    const byTeam = figuresAnswerSchema.parse(await read(`${F}&by=team`));
    expect(byTeam.rows.length).toBeGreaterThan(2);
    expectBanded(byTeam, 8);
    // The range ends on a Wednesday: its band is of the four weeks to Sunday 26 April, in the second quarter; the
    // period before it is March's, in the first.
    const [before, t] = byTeam.intensity!.thresholds;
    expect(before).toMatchObject({ quarter: '2026-Q1', basis: { start: '2026-03-02', end: '2026-03-29' } });
    expect(t).toMatchObject({
      quarter: '2026-Q2',
      refreshed: false,
      basis: { start: '2026-03-30', end: '2026-04-26' },
    });
    expect(t!.p25).toBeLessThanOrEqual(t!.p50);
    expect(t!.p50).toBeLessThanOrEqual(t!.p75);
    const [total] = (await read(F)).rows;
    expect(total!.current.intensityActive).toBeGreaterThanOrEqual(8);
    expectBanded({ ...byTeam, rows: [total!] }, 8);
    // Weekly: each week a row, the thresholds of its quarter.
    const weeks = await read(`/api/figures?start=2026-03-02&end=2026-04-26&by=week&${measures(ASKED)}&compare=none`);
    expect(weeks.rows.map((r) => r.key)).toEqual(
      Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2026, 2, 2 + 7 * i)).toISOString().slice(0, 10)),
    );
    expect(weeks.intensity!.thresholds.map((x) => x.quarter)).toEqual(['2026-Q1', '2026-Q2']);
    // Refreshed from this machine (no sign-in): kept, and the next answer says so.
    const fresh = thresholdsSchema.parse(await read(THRESHOLDS, post({ quarter: '2026-Q2' })));
    expect(fresh).toMatchObject({ quarter: '2026-Q2', refreshed: true, basis: t!.basis, p75: t!.p75 });
    expect((await read(`${F}&by=team`)).intensity!.thresholds[1]).toEqual(fresh);
  });
});

describe('intensity, signed in', () => {
  let provider: TestProvider;
  const people = (() => {
    const org = createDemoService(readDemoConfig(DEMO)).world().org;
    const [lo, hi] = [org.dayIndex('2026-03-30'), org.dayIndex('2026-04-26')];
    return org.users.filter((u, i) => u.email !== null && org.activeCount[i]![hi + 1]! - org.activeCount[i]![lo]! > 0);
  })();
  const lead = people[0]!;
  // Core: the lead and eight more active people, and four named who never used the agent; Core/Pair: two active
  // people; Else: the rest.
  const core = people.slice(0, 9);
  const unseen = ['new1@acme.example', 'new2@acme.example', 'new3@acme.example', 'new4@acme.example'];
  const pair = people.slice(9, 11);
  const others = people.slice(11);
  const EMAILS = { admin: 'admin@acme.example', lead: lead.email! };
  const SECRET = 'intensity-app-privacy-secret-of-32-chars';
  const base = { plain: '', private: '' };

  beforeAll(async () => {
    const at = [await listen(), await listen()];
    provider = await startProvider(at.map((l) => `${l.base}/auth/callback`));
    atEnd(() => provider.close());
    const teams = join(dir, 'teams.csv');
    const rows = [
      ['', 'Core', lead.email!],
      ...core.map((p) => [p.email!, 'Core', '']),
      ...unseen.map((e) => [e, 'Core', '']),
      ...pair.map((p) => [p.email!, 'Core/Pair', '']),
      ...others.map((p) => [p.email!, 'Else', '']),
    ];
    writeFileSync(teams, ['email,team,manager', ...rows.map((r) => r.join(','))].join('\n') + '\n');
    const env = (l: Awaited<ReturnType<typeof listen>>) => ({
      TEAMS_FILE: teams,
      ...signInEnv(provider.issuer, l.base),
    });
    base.plain = await dashboard(env(at[0]!), { at: at[0] });
    base.private = await dashboard({ ...env(at[1]!), PRIVACY_MIN_GROUP: '12', PRIVACY_SECRET: SECRET }, { at: at[1] });
  }, 60_000);

  const as = async (where: keyof typeof base, who: keyof typeof EMAILS) => {
    const jar = await signedIn(base[where], EMAILS[who]);
    return async (path: string, init?: RequestInit) => {
      const r = await request(jar, new URL(path, base[where]), init);
      return { status: r.res.status, text: r.body, body: JSON.parse(r.body) as FiguresAnswer & { detail?: string } };
    };
  };

  it('gives a manager their teams’ bands only, and only an admin refreshes the thresholds', async () => {
    const mgr = await as('plain', 'lead');
    const mine = await mgr(`${F}&by=team`);
    expect(mine.status).toBe(200);
    expect(mine.body.rows.map((r) => r.key)).toEqual(['Core', 'Core/Pair']);
    expectBanded(mine.body, 8);
    expect(mine.body.rows[0]!.current.intensityHeavy).not.toBeNull();
    // Core/Pair has two active people: no bands.
    expect(mine.body.rows[1]!.current.intensityHeavy).toBeNull();
    const else_ = await mgr(`${F}&${team('Else')}`);
    expect([else_.status, else_.body.detail]).toEqual([403, expect.stringMatching(/is not one of them\.$/)]);
    const origin = { origin: base.plain };
    const refresh = await mgr(THRESHOLDS, post({ quarter: '2026-Q2' }, origin));
    expect([refresh.status, refresh.body.detail]).toEqual([
      403,
      'Only an admin (ADMIN_EMAILS) can refresh the intensity thresholds.',
    ]);
    const admin = await as('plain', 'admin');
    const done = await admin(THRESHOLDS, post({ quarter: '2026-Q2' }, origin));
    expect(done.status, done.text).toBe(200);
    expect(thresholdsSchema.parse(done.body)).toMatchObject({ quarter: '2026-Q2', refreshed: true });
  });

  it('shows no team under k, no bands under the larger of k and 8, and no email, in privacy mode', async () => {
    const mgr = await as('private', 'lead');
    const r = await mgr(`${F}&by=team`);
    expect(r.status).toBe(200);
    // k = 12: Core (fifteen members) is shown, Core/Pair (two) is not; Core's eleven active people are under k.
    expect(r.body.rows.map((x) => x.key)).toEqual(['Core']);
    expect(r.body.rows[0]!.current).toMatchObject({ members: 15, intensityActive: 11, intensityHeavy: null });
    expectBanded(r.body, 12);
    const plain = await (await as('plain', 'lead'))(`${F}&by=team`);
    expect(plain.body.rows[0]!.current).toMatchObject({ members: 15, intensityActive: 11 });
    expect(plain.body.rows[0]!.current.intensityHeavy).not.toBeNull();
    expect(r.text).not.toMatch(/@/);
    const own = await mgr(`/api/figures?${RANGE}&user=${lead.id}&${measures(BANDS)}`);
    expect(own.status).toBe(200);
    expect(BANDS.reduce((n, b) => n + own.body.rows[0]!.current[b]!, 0)).toBe(1);
    expect(own.text).not.toMatch(/@/);
  });
});
