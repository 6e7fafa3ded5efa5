/**
 * What the alert rules, the alerts' webhook, the digest and the marks tell of people in privacy mode
 * (PRIVACY_MIN_GROUP=3) and with PSEUDONYMIZE=1, through the dashboard's HTTP server on the demo organization,
 * signed in through the test OpenID provider, posting to a real webhook receiver. The mapping (TEAMS_FILE) is made
 * of the demo's people: Eng with 2 direct members, Eng/Big (4 people) and Eng/Solo (1), Ops with 4 direct members and
 * Ops/Tiny (2): Eng/Big is shown (Eng less it is 3 people), Eng/Solo and Ops/Tiny are not.
 * A manager sets no rule on a team under k; the webhook and the digest are told no figure of a team under k and
 * no one's email or user id; a manager's preview and check now read their shown teams' rules only, people by
 * pseudonym; a manager reads no other author's email on the marks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertPreviewSchema,
  alertRuleSchema,
  alertRulesSchema,
  alertsSchema,
  alertsCheckSchema,
} from '../../api/alerts';
import { marksAnswerSchema } from '../../api/marks';
import { CookieJar, request, signInEnv, startProvider, type TestProvider, signedIn } from '../../test/oidc';
import { createApp, openAppStore } from '../app';
import { channelView, emailPseudonyms, pseudonym, smallTeamRefusal } from '../auth/privacy';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readDemoConfig } from '../demo/config';
import { createDemoService } from '../demo/service';
import { postDigest } from '../digest/digest';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';

const K = 3;
const TODAY = '2026-05-12';
const ENG_LEAD = 'eng.lead@acme.example';
const OPS_LEAD = 'ops.lead@acme.example';
const ADMIN = 'admin@acme.example';
const dir = mkdtempSync(join(tmpdir(), 'privacy-leaks-'));
let provider: TestProvider;
let base: string;
let server: Server;
let hook: Server;
let hookUrl: string;
/** The bodies the receiver was posted, as sent. */
const posted: string[] = [];
const stores: StoreDb[] = [];
const apps: ReturnType<typeof createApp>[] = [];
let current: ReturnType<typeof createApp>;
/** Every email and user id of the organization, the managers' and the admin's emails: none may be posted. */
let secrets: string[];

/** The demo's people with an email, each active on some day of the last two weeks (so their teams spend in May). */
function activePeople() {
  const org = createDemoService(readDemoConfig({ DEMO_TODAY: TODAY })).world().org;
  const end = org.dayIndex('2026-05-11');
  const people = org.users.filter(
    (p, u) => p.email && org.activeCount[u]![end + 1]! - org.activeCount[u]![end - 13]! > 0,
  );
  return { org, people };
}

beforeAll(async () => {
  server = createServer((req, res) => current.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posted.push(Buffer.concat(chunks).toString('utf8'));
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', () => ok()));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/alerts`;
  provider = await startProvider(`${base}/auth/callback`);

  const { org, people } = activePeople();
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
  const teamsFile = join(dir, 'teams.csv');
  const mapping = (all: typeof people, eng: typeof people) => {
    const team = (name: string, n: number, from: number) => all.slice(from, from + n).map((p) => `${p.email},${name},`);
    const csv = [
      'email,team,manager',
      `,Eng,${ENG_LEAD}`,
      `,Ops,${OPS_LEAD}`,
      ...team('Eng/Big', 4, 0),
      ...team('Eng/Solo', 1, 4),
      ...team('Ops', 4, 5),
      ...team('Ops/Tiny', 2, 9),
      ...eng.map((p) => `${p.email},Eng,`),
    ];
    writeFileSync(teamsFile, `${csv.join('\n')}\n`);
  };
  mapping(people, people.slice(11, 13));
  // One of Eng's own two is a person whose latest day was far above their usual, as an admin's preview names them
  // (on a dashboard without the modes): Eng's manager then has a person-day alert to be told of.
  current = await startApp({});
  const admin = await signIn(ADMIN);
  await read(admin, '/api/alert-rules', 'POST', { kind: 'person-day', scope: '' });
  const spiker = alertPreviewSchema.parse(await read(admin, '/api/alerts/preview')).rules[0]!.holding[0]!.key;
  const rest = people.filter((p) => p.id !== spiker);
  mapping(rest, [people.find((p) => p.id === spiker)!, rest[11]!]);
  secrets = [...org.users.flatMap((p) => [p.id, p.email ?? '']), ENG_LEAD, OPS_LEAD, ADMIN].filter((s) => s !== '');
}, 60_000);

afterAll(async () => {
  server.close();
  hook.close();
  await provider.close();
  await Promise.all(apps.map((a) => a.close()));
  await Promise.all(stores.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A dashboard on a store of its own, with these settings beside the test's. */
async function startApp(extra: Record<string, string>) {
  const env = {
    DEMO_TODAY: TODAY,
    DATA_DIR: ':memory:',
    ...signInEnv(provider.issuer, base),
    PRICES_FILE: join(dir, 'prices.json'),
    TEAMS_FILE: join(dir, 'teams.csv'),
    ALERT_WEBHOOK_URL: hookUrl,
    ...extra,
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  const store = (await openAppStore(config, storeConfig))!;
  stores.push(store);
  const app = createApp(config, { store, storeConfig, logger: createLogger(() => undefined) });
  apps.push(app);
  return app;
}

const signIn = (email: string) => signedIn(base, email);
const api = (jar: CookieJar, path: string, method = 'GET', body?: unknown) =>
  request(jar, new URL(path, base), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
async function read(jar: CookieJar, path: string, method = 'GET', body?: unknown): Promise<unknown> {
  const r = await api(jar, path, method, body);
  expect(r.res.status, `${method} ${path}: ${r.body}`).toBeLessThan(300);
  return JSON.parse(r.body);
}

/** The emails and user ids found in a body (case folded). */
const leaks = (body: string) => {
  const b = body.toLowerCase();
  return secrets.filter((s) =>
    new RegExp(`(^|[^a-z0-9_.-])${s.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_-]|$)`).test(b),
  );
};

/** Small budgets on every team and the organization, each with a rule that fires on it, and the people's rules. */
async function alertOnEverything(admin: CookieJar) {
  const teams = ['', 'Eng', 'Eng/Big', 'Eng/Solo', 'Ops', 'Ops/Tiny'];
  await read(admin, '/api/spend/budgets', 'PUT', { budgets: teams.map((team) => ({ team, monthly: 1 })) });
  for (const scope of teams)
    alertRuleSchema.parse(await read(admin, '/api/alert-rules', 'POST', { kind: 'budget-spent', scope, threshold: 1 }));
  for (const scope of ['', 'Eng/Solo'])
    alertRuleSchema.parse(await read(admin, '/api/alert-rules', 'POST', { kind: 'person-day', scope }));
}

describe('privacy mode (PRIVACY_MIN_GROUP=3)', () => {
  let admin: CookieJar;
  let eng: CookieJar;
  let ops: CookieJar;

  beforeAll(async () => {
    current = await startApp({ PRIVACY_MIN_GROUP: String(K) });
    admin = await signIn(ADMIN);
    eng = await signIn(ENG_LEAD);
    ops = await signIn(OPS_LEAD);
    expect(await read(eng, '/api/me')).toMatchObject({ role: 'manager' });
    expect(await read(ops, '/api/me')).toMatchObject({ role: 'manager' });
  }, 60_000);

  it('a manager makes no rule on a team under k, nor moves one there; an admin does', async () => {
    const refused = async (jar: CookieJar, path: string, method: string, body: unknown, team: string) => {
      const r = await api(jar, path, method, body);
      expect(r.res.status, r.body).toBe(403);
      expect(JSON.parse(r.body).detail).toBe(`${smallTeamRefusal(team, K)} Its alert rules are set by admins.`);
    };
    await refused(
      eng,
      '/api/alert-rules',
      'POST',
      { kind: 'active-drop', scope: 'Eng/Solo', threshold: 50 },
      'Eng/Solo',
    );
    await refused(
      ops,
      '/api/alert-rules',
      'POST',
      { kind: 'budget-spent', scope: 'Ops/Tiny', threshold: 80 },
      'Ops/Tiny',
    );
    const mine = alertRuleSchema.parse(
      await read(eng, '/api/alert-rules', 'POST', { kind: 'active-drop', scope: 'Eng/Big', threshold: 50 }),
    );
    await refused(
      eng,
      `/api/alert-rules/${mine.id}`,
      'PUT',
      { kind: 'active-drop', scope: 'Eng/Solo', threshold: 50 },
      'Eng/Solo',
    );
    // An admin's rule on a team under k is the admin's: a manager is neither shown it nor changes it.
    const admins = alertRuleSchema.parse(
      await read(admin, '/api/alert-rules', 'POST', { kind: 'active-drop', scope: 'Eng/Solo', threshold: 50 }),
    );
    expect(alertRulesSchema.parse(await read(eng, '/api/alert-rules')).rules.map((r) => r.scope)).toEqual(['Eng/Big']);
    expect((await api(eng, `/api/alert-rules/${admins.id}`, 'DELETE')).res.status).toBe(404);
    expect(
      (await api(eng, `/api/alert-rules/${admins.id}`, 'PUT', { kind: 'active-drop', scope: 'Eng/Big', threshold: 9 }))
        .res.status,
    ).toBe(404);
    for (const id of [mine.id, admins.id])
      expect((await api(admin, `/api/alert-rules/${id}`, 'DELETE')).res.status).toBe(204);
  });

  it('the webhook is told no alert of a team under k, and people by pseudonym only', async () => {
    await alertOnEverything(admin);
    posted.length = 0;
    const result = (await read(admin, '/api/alerts/check', 'POST')) as { posted: number; withheld: number };
    const scopes = alertsSchema.parse(await read(admin, '/api/alerts')).open.map((a) => a.scope);
    // Every budget rule fired, the small teams' too: the admin's alerts page shows them.
    expect(scopes).toEqual(expect.arrayContaining(['', 'Eng', 'Eng/Big', 'Eng/Solo', 'Ops', 'Ops/Tiny']));
    expect(result.posted).toBe(scopes.filter((s) => s !== 'Eng/Solo' && s !== 'Ops/Tiny').length);
    expect(result.withheld).toBe(scopes.length - result.posted);
    const body = posted.join('\n');
    expect(body).toContain('Eng/Big');
    expect(body).not.toMatch(/Eng\/Solo|Ops\/Tiny/);
    expect(leaks(body)).toEqual([]);
    expect(body).toMatch(/Person [0-9a-f]{10} used /);
    // Kept from the webhook, they are not posted by the next check either.
    posted.length = 0;
    expect(await read(admin, '/api/alerts/check', 'POST')).toMatchObject({ posted: 0, unposted: 0 });
    expect(posted).toEqual([]);
  });

  it('a manager’s preview and check now are of their shown teams’ rules, people by pseudonym, nothing under k', async () => {
    // Rules on every team of Eng's, the person-day ones included (the admin's on Eng/Solo, which is under k).
    const added = [];
    for (const scope of ['Eng', 'Eng/Big'])
      added.push(alertRuleSchema.parse(await read(eng, '/api/alert-rules', 'POST', { kind: 'person-day', scope })));
    const rules = alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules;
    const engRules = rules.filter((r) => r.scope === 'Eng' || r.scope === 'Eng/Big').map((r) => r.id);
    const preview = await api(eng, '/api/alerts/preview');
    expect(preview.res.status, preview.body).toBe(200);
    const p = alertPreviewSchema.parse(JSON.parse(preview.body));
    expect(p.rules.map((r) => r.ruleId).sort()).toEqual(engRules.sort());
    expect(preview.body).not.toMatch(/Eng\/Solo|Ops/);
    expect(leaks(preview.body)).toEqual([]);
    const people = p.rules.flatMap((r) => r.holding.filter((h) => h.kind === 'person-day'));
    expect(people.length).toBeGreaterThan(0);
    for (const h of people) {
      expect(h.key).toMatch(/^Person [0-9a-f]{10}$/);
      expect(h.summary.startsWith(`${h.key} used `)).toBe(true);
      expect(h.link).toMatch(/^\/teams\/Eng(\/Big)?\?start=\d{4}-\d{2}-\d{2}&end=2026-05-11$/);
    }
    // The admin reads the same alerts by name.
    const named = alertPreviewSchema.parse(await read(admin, '/api/alerts/preview'));
    const byName = named.rules.filter((r) => engRules.includes(r.ruleId)).flatMap((r) => r.holding);
    expect(byName.filter((h) => h.kind === 'person-day')).toHaveLength(people.length);
    // The check now: the new person-day alerts of Eng's rules opened and posted, by pseudonym, and nothing else.
    posted.length = 0;
    const checked = await api(eng, '/api/alerts/check', 'POST');
    expect(checked.res.status, checked.body).toBe(200);
    const c = alertsCheckSchema.parse(JSON.parse(checked.body));
    expect(c.opened.map((a) => a.summary).sort()).toEqual(people.map((h) => h.summary).sort());
    expect(c.resolved).toEqual([]);
    expect(leaks(checked.body)).toEqual([]);
    expect(c.posted).toBe(people.length);
    const body = posted.join('\n');
    expect(body).not.toMatch(/Eng\/Solo|Ops/);
    expect(leaks(body)).toEqual([]);
    // Ops's lead previews Ops's rules, not Ops/Tiny's (under k) nor Eng's.
    const opsRules = alertPreviewSchema.parse(await read(ops, '/api/alerts/preview'));
    expect(opsRules.rules.map((r) => rules.find((x) => x.id === r.ruleId)!.scope)).toEqual(['Ops']);
    for (const r of added) expect((await api(eng, `/api/alert-rules/${r.id}`, 'DELETE')).res.status).toBe(204);
  });

  it('the digest names people by pseudonym and tells no budget of a team under k', async () => {
    posted.length = 0;
    expect(
      await postDigest(
        new URL(hookUrl),
        await current.digest!(),
        createLogger(() => undefined),
      ),
    ).toBe(true);
    const body = posted.join('\n');
    expect(body).toContain('Eng/Big');
    expect(body).not.toMatch(/Eng\/Solo|Ops\/Tiny/);
    expect(leaks(body)).toEqual([]);
    expect(body).toMatch(/Person [0-9a-f]{10} used /);
  });

  it('a manager reads who set a rule or acknowledged an alert when it is themself only', async () => {
    const bigAlert = alertsSchema.parse(await read(admin, '/api/alerts')).open.find((a) => a.scope === 'Eng/Big')!;
    await read(admin, `/api/alerts/${bigAlert.id}/ack`, 'POST');
    const seen = alertsSchema.parse(await read(eng, '/api/alerts')).open.find((a) => a.id === bigAlert.id)!;
    expect(seen).toMatchObject({ acknowledgedBy: null, acknowledgedAt: expect.any(String) });
    const mine = alertRuleSchema.parse(
      await read(eng, '/api/alert-rules', 'POST', { kind: 'active-drop', scope: 'Eng/Big', threshold: 90 }),
    );
    expect(mine.createdBy).toBe(ENG_LEAD);
    const rules = alertRulesSchema.parse(await read(eng, '/api/alert-rules')).rules;
    expect(Object.fromEntries(rules.map((r) => [r.kind, r.createdBy]))).toEqual({
      'budget-spent': null,
      'active-drop': ENG_LEAD,
    });
    expect(JSON.stringify(await read(eng, '/api/alerts'))).not.toContain(ADMIN);
    expect(alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules.map((r) => r.createdBy)).toContain(
      ADMIN,
    );
  });

  it('a manager reads the author of their own marks only; an admin every author', async () => {
    for (const [jar, text] of [
      [admin, 'Training for Eng/Big'],
      [eng, 'Our rollout'],
    ] as const)
      await read(jar, '/api/marks', 'POST', { day: '2026-05-04', team: 'Eng/Big', text });
    const authors = async (jar: CookieJar) =>
      Object.fromEntries(
        marksAnswerSchema
          .parse(await read(jar, '/api/marks/all'))
          .marks.filter((m) => m.source === 'user')
          .map((m) => [m.text, m.author]),
      );
    expect(await authors(eng)).toEqual({ 'Training for Eng/Big': null, 'Our rollout': ENG_LEAD });
    expect(await authors(admin)).toEqual({ 'Training for Eng/Big': ADMIN, 'Our rollout': ENG_LEAD });
    const chart = marksAnswerSchema.parse(await read(eng, '/api/marks?start=2026-05-01&end=2026-05-11&team=Eng/Big'));
    expect(Object.fromEntries(chart.marks.filter((m) => m.source === 'user').map((m) => [m.text, m.author]))).toEqual({
      'Training for Eng/Big': null,
      'Our rollout': ENG_LEAD,
    });
  });
});

describe('PSEUDONYMIZE=1', () => {
  let admin: CookieJar;
  beforeAll(async () => {
    current = await startApp({ PSEUDONYMIZE: '1' });
    admin = await signIn(ADMIN);
  }, 60_000);

  it('the webhook is told no one’s email or user id', async () => {
    await alertOnEverything(admin);
    posted.length = 0;
    const result = (await read(admin, '/api/alerts/check', 'POST')) as { posted: number };
    expect(result.posted).toBeGreaterThan(0);
    expect(posted).toHaveLength(1);
    expect(leaks(posted[0]!)).toEqual([]);
    expect(posted[0]).toMatch(/Person [0-9a-f]{10} used /);
    // Without privacy mode every team is told of.
    expect(posted[0]).toContain('Eng/Solo');
  });

  it('the digest is told no one’s email or user id', async () => {
    posted.length = 0;
    expect(
      await postDigest(
        new URL(hookUrl),
        await current.digest!(),
        createLogger(() => undefined),
      ),
    ).toBe(true);
    expect(posted).toHaveLength(1);
    expect(leaks(posted[0]!)).toEqual([]);
    expect(posted[0]).toMatch(/Person [0-9a-f]{10} used /);
    expect(posted[0]).toContain('Eng/Solo');
  }, 60_000);

  it('a manager’s preview and check now name no one by email, and the webhook no one at all', async () => {
    const eng = await signIn(ENG_LEAD);
    await read(eng, '/api/alert-rules', 'POST', { kind: 'person-day', scope: 'Eng' });
    const preview = await api(eng, '/api/alerts/preview');
    expect(preview.res.status, preview.body).toBe(200);
    const spikes = alertPreviewSchema
      .parse(JSON.parse(preview.body))
      .rules.flatMap((r) => r.holding)
      .filter((h) => h.kind === 'person-day');
    expect(spikes.length).toBeGreaterThan(0);
    expect(spikes[0]!.summary).toMatch(/^person-[0-9a-f]{10}@pseudonym\.invalid used /);
    const emails = (body: string) => leaks(body).filter((x) => x.includes('@'));
    expect(emails(preview.body)).toEqual([]);
    posted.length = 0;
    const checked = await api(eng, '/api/alerts/check', 'POST');
    expect(checked.res.status, checked.body).toBe(200);
    expect(alertsCheckSchema.parse(JSON.parse(checked.body)).posted).toBe(spikes.length);
    expect(emails(checked.body)).toEqual([]);
    expect(posted).toHaveLength(1);
    expect(leaks(posted[0]!)).toEqual([]);
    expect(posted[0]).toMatch(/Person [0-9a-f]{10} used /);
  });
});

describe('what a channel is told (channelView)', () => {
  const secret = 'a-session-secret-of-at-least-32-characters!';
  const privacy = { minGroup: K, secret: 'a-privacy-secret-of-at-least-32-characters' };
  it('is nothing of its own with neither mode on', () => {
    expect(channelView(undefined)).toBeUndefined();
    expect(channelView({ privacy: undefined, pseudonymize: false, sessionSecret: secret })).toBeUndefined();
  });
  it('in privacy mode, names by the mode’s pseudonym and tells no team under k', () => {
    const c = channelView({ privacy, pseudonymize: false, sessionSecret: secret })!;
    expect(c.lens.name('usr_1')).toBe(pseudonym(privacy.secret, 'usr_1'));
    expect(c.minGroup).toBe(K);
    const message = { text: 'ada@acme.example' };
    expect(c.told(message)).toBe(message);
  });
  it('with PSEUDONYMIZE=1, names by pseudonym, rewrites every email as the pages do, and withholds no team', () => {
    const c = channelView({ privacy: undefined, pseudonymize: true, sessionSecret: secret })!;
    expect(c.lens.name('usr_1')).toBe(pseudonym(secret, 'usr_1'));
    expect(c.minGroup).toBeUndefined();
    const rewrite = emailPseudonyms(secret);
    expect(c.told({ blocks: [{ text: 'Team ada@acme.example: <x|bo@acme.example>' }] })).toEqual({
      blocks: [{ text: rewrite('Team ada@acme.example: <x|bo@acme.example>') }],
    });
    expect(rewrite('ada@acme.example')).toMatch(/^person-[0-9a-f]{10}@pseudonym\.invalid$/);
  });
});
