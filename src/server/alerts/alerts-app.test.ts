/**
 * The alerts' routes through the dashboard's HTTP server on the demo organization, signed in through the test
 * OpenID provider, posting to a real webhook receiver: an admin sets rules and runs the check; a manager sees
 * and sets their teams' rules only and their teams' and the organization's alerts, and acknowledges them; a
 * viewer is shown none; RESTRICT_ORG_VIEW keeps a manager to their teams' alerts.
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
  alertSchema,
  alertsSchema,
  alertRulesSchema,
  alertsCheckSchema,
} from '../../api/alerts';
import { readinessAnswerSchema } from '../../api/readiness';
import { teamsAnswerSchema, type TeamView } from '../../api/teams';
import { CookieJar, request, startProvider, walkSignIn, type TestProvider, signInEnv } from '../../test/oidc';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { isWithin } from '../teams/tree';

const dir = mkdtempSync(join(tmpdir(), 'alerts-'));
let provider: TestProvider;
let base: string;
let server: Server;
let hook: Server;
const posted: unknown[] = [];
const logs: string[] = [];
let store: StoreDb;
let open: ReturnType<typeof createApp>;
let restricted: ReturnType<typeof createApp>;
let current: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = createServer((req, res) => current.handler(req, res, () => res.end('the page')));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', () => ok()));
  provider = await startProvider(`${base}/auth/callback`);
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ currency: 'EUR', prices: [{ from: '2026-01-14', perMillionCredits: 8 }] }));
  const env = {
    DEMO_TODAY: '2026-04-01',
    DEMO_SEED: 'auth',
    DEMO_USERS: '60',
    DATA_DIR: ':memory:',
    ...signInEnv(provider.issuer, base),
    PRICES_FILE: prices,
    ALERT_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/webhookb2/SECRET`,
    ALERT_WEBHOOK_FORMAT: 'teams',
  };
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  store = (await openAppStore(config, storeConfig))!;
  const logger = createLogger((l) => logs.push(l));
  open = current = createApp(config, { store, storeConfig, logger });
  restricted = createApp(readServerConfig({ ...env, RESTRICT_ORG_VIEW: '1' }), { store, storeConfig, logger });
}, 60_000);

afterAll(async () => {
  server.close();
  hook.close();
  await provider.close();
  await Promise.all([open.close(), restricted.close()]);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(email: string) {
  const jar = new CookieJar();
  await walkSignIn(jar, new URL('/auth/login', base), email);
  return jar;
}
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
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);

describe('the alerts, for each signed-in reader', () => {
  let admin: CookieJar;
  let manager: { jar: CookieJar; email: string; team: string };
  let other: string;

  beforeAll(async () => {
    admin = await signIn('admin@acme.example');
    const tree = flat(teamsAnswerSchema.parse(await read(admin, '/api/teams')).teams);
    const team = tree.find((t) => t.managers.length > 0 && t.members > 2)!;
    const jar = await signIn(team.managers[0]!);
    const me = (await read(jar, '/api/me')) as { teams: string[] };
    manager = { jar, email: team.managers[0]!, team: team.path };
    other = tree.find((t) => !t.path.includes('/') && !me.teams.some((m) => isWithin(m, t.path)))!.path;
    // Budgets small enough to be passed in any month: the rules below fire.
    await read(admin, '/api/spend/budgets', 'PUT', {
      budgets: [
        { team: '', monthly: 1 },
        { team: manager.team, monthly: 1 },
        { team: other, monthly: 1 },
      ],
    });
  }, 60_000);

  it('an admin sets rules, with the reason of a refusal', async () => {
    for (const scope of ['', manager.team, other])
      alertRuleSchema.parse(
        await read(admin, '/api/alert-rules', 'POST', { kind: 'budget-spent', scope, threshold: 50 }),
      );
    const bad = async (body: unknown, detail: RegExp) => {
      const r = await api(admin, '/api/alert-rules', 'POST', body);
      expect(r.res.status, r.body).toBe(400);
      expect(JSON.parse(r.body).detail).toMatch(detail);
    };
    await bad({ kind: 'nope', scope: '' }, /"kind" must be one of "budget-spent"/);
    await bad(
      { kind: 'budget-spent', scope: '', threshold: 0 },
      /"threshold" \(percent of the budget\) must be a number from 1 to 1000/,
    );
    await bad({ kind: 'budget-spent', scope: 'No such team' }, /No team is called "No such team"/);
    await bad({ kind: 'no-data', scope: manager.team, threshold: 2 }, /is for the organization/);
    await bad({ kind: 'person-day', scope: '', threshold: 3 }, /takes no threshold/);
    await bad(
      { kind: 'budget-spent', scope: other, threshold: 70 },
      /has a “Month to date passes N % of the budget” rule already/,
    );
    expect(alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules).toHaveLength(3);
  });

  it('right after adding a rule already breached, the preview shows the alert it would open, storing and posting nothing', async () => {
    const preview = alertPreviewSchema.parse(await read(admin, '/api/alerts/preview'));
    expect(preview.day).toBe('2026-03-31');
    expect(preview.webhook).toBe(true);
    const rules = alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules;
    expect(preview.rules.map((r) => r.ruleId).sort()).toEqual(rules.map((r) => r.id).sort());
    const month = '?start=2026-03-01&end=2026-03-31';
    for (const r of preview.rules) {
      const scope = rules.find((x) => x.id === r.ruleId)!.scope;
      const name = scope === '' ? 'The organization' : scope;
      expect(r).toMatchObject({ known: true, resolving: [] });
      expect(r.holding).toEqual([
        {
          kind: 'budget-spent',
          scope,
          key: '',
          summary: expect.stringMatching(
            new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has spent [\\d,]+ % of its monthly budget: `),
          ),
          // The month the budget speaks of: the team's page, or the organization's, over it.
          link: scope === '' ? `/${month}` : `/teams/${scope.split('/').map(encodeURIComponent).join('/')}${month}`,
          openId: null,
        },
      ]);
    }
    // Nothing kept, nothing posted.
    expect(alertsSchema.parse(await read(admin, '/api/alerts')).open).toEqual([]);
    expect(posted).toEqual([]);
    // A manager previews their teams' rules only; a viewer none.
    const mine = alertPreviewSchema.parse(await read(manager.jar, '/api/alerts/preview'));
    expect(mine.rules.map((r) => r.holding[0]!.scope)).toEqual([manager.team]);
    const viewer = await signIn('someone.else@acme.example');
    const refused = await api(viewer, '/api/alerts/preview');
    expect(refused.res.status).toBe(403);
    expect(JSON.parse(refused.body).detail).toBe('The alert rules are set by managers (for their teams) and admins.');
  });

  it('a manager’s check now opens and posts their teams’ alerts only; an admin’s every rule’s, once; a viewer’s none', async () => {
    const viewer = await signIn('someone.else@acme.example');
    const refused = await api(viewer, '/api/alerts/check', 'POST');
    expect(refused.res.status).toBe(403);
    expect(JSON.parse(refused.body).detail).toBe(
      'The alerts check is run by managers (for their teams’ rules) and admins.',
    );
    const theirs = alertsCheckSchema.parse(await read(manager.jar, '/api/alerts/check', 'POST'));
    expect(theirs.opened.map((a) => a.scope)).toEqual([manager.team]);
    expect(theirs).toMatchObject({ resolved: [], posted: 1, unposted: 0, withheld: 0 });
    expect(alertsSchema.parse(await read(admin, '/api/alerts')).open.map((a) => a.scope)).toEqual([manager.team]);
    const first = alertsCheckSchema.parse(await read(admin, '/api/alerts/check', 'POST'));
    expect(first.opened.map((a) => a.scope).sort()).toEqual(['', other].sort());
    expect(first.posted).toBe(2);
    const again = alertsCheckSchema.parse(await read(admin, '/api/alerts/check', 'POST'));
    expect(again).toMatchObject({ opened: [], posted: 0 });
    expect(alertsCheckSchema.parse(await read(manager.jar, '/api/alerts/check', 'POST'))).toMatchObject({
      opened: [],
      resolved: [],
      posted: 0,
    });
    expect(posted).toHaveLength(2);
    const card = posted[0] as { type: string; attachments: { content: { body: { text: string }[] } }[] };
    expect(card.type).toBe('message');
    const told = card.attachments[0]!.content.body.map((b) => b.text).join('\n');
    expect(told).toContain(`${base}/teams/${manager.team.split('/').map(encodeURIComponent).join('/')}?start=`);
    expect(told).not.toContain(other);
    expect(logs.join('\n')).not.toMatch(/SECRET|webhookb2/);
    const all = alertsSchema.parse(await read(admin, '/api/alerts'));
    expect(all.open).toHaveLength(3);
    expect(all.open.every((a) => a.posted)).toBe(true);
    // The preview now says each is open already.
    const preview = alertPreviewSchema.parse(await read(admin, '/api/alerts/preview'));
    expect(preview.rules.flatMap((r) => r.holding.map((h) => h.openId)).sort()).toEqual(
      all.open.map((a) => a.id).sort(),
    );
  });

  it('a manager sees and sets their teams’ rules, sees their teams’ and the organization’s alerts, and acknowledges one', async () => {
    const { jar } = manager;
    expect(alertRulesSchema.parse(await read(jar, '/api/alert-rules')).rules.map((r) => r.scope)).toEqual([
      manager.team,
    ]);
    expect((await api(jar, '/api/alert-rules', 'POST', { kind: 'person-day', scope: other })).res.status).toBe(403);
    expect((await api(jar, '/api/alert-rules', 'POST', { kind: 'person-day', scope: '' })).res.status).toBe(403);
    const mine = alertRuleSchema.parse(
      await read(jar, '/api/alert-rules', 'POST', { kind: 'active-drop', scope: manager.team, threshold: 40 }),
    );
    expect(mine.createdBy).toBe(manager.email.toLowerCase());
    const changed = alertRuleSchema.parse(
      await read(jar, `/api/alert-rules/${mine.id}`, 'PUT', {
        kind: 'active-drop',
        scope: manager.team,
        threshold: 60,
        enabled: false,
      }),
    );
    expect(changed).toMatchObject({ threshold: 60, enabled: false });
    const adminRules = alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules;
    const others = adminRules.find((r) => r.scope === other)!;
    expect((await api(jar, `/api/alert-rules/${others.id}`, 'DELETE')).res.status).toBe(404);
    expect((await api(jar, `/api/alert-rules/${mine.id}`, 'DELETE')).res.status).toBe(204);

    const seen = alertsSchema.parse(await read(jar, '/api/alerts'));
    expect(seen.open.map((a) => a.scope).sort()).toEqual(['', manager.team].sort());
    const theirs = alertsSchema.parse(await read(admin, '/api/alerts')).open.find((a) => a.scope === other)!;
    expect((await api(jar, `/api/alerts/${theirs.id}/ack`, 'POST')).res.status).toBe(404);
    const ack = alertSchema.parse(
      await read(jar, `/api/alerts/${seen.open.find((a) => a.scope === manager.team)!.id}/ack`, 'POST'),
    );
    expect(ack.acknowledgedBy).toBe(manager.email.toLowerCase());
    expect(ack.acknowledgedAt).not.toBeNull();

    current = restricted;
    try {
      const kept = alertsSchema.parse(await read(jar, '/api/alerts'));
      expect(kept.open.map((a) => a.scope)).toEqual([manager.team]);
    } finally {
      current = open;
    }
  });

  it('a viewer is shown no alert and no rule', async () => {
    const jar = await signIn('someone.else@acme.example');
    expect(await read(jar, '/api/me')).toMatchObject({ role: 'viewer' });
    expect((await api(jar, '/api/alerts')).res.status).toBe(403);
    expect((await api(jar, '/api/alert-rules')).res.status).toBe(403);
    expect((await api(jar, '/api/alert-rules', 'POST', { kind: 'no-data', scope: '', threshold: 2 })).res.status).toBe(
      403,
    );
  });

  it('removing a rule resolves its open alert, listed then as past', async () => {
    const rules = alertRulesSchema.parse(await read(admin, '/api/alert-rules')).rules;
    const org = rules.find((r) => r.scope === '')!;
    expect((await api(admin, `/api/alert-rules/${org.id}`, 'DELETE')).res.status).toBe(204);
    const after = alertsSchema.parse(await read(admin, '/api/alerts'));
    expect(after.open.map((a) => a.scope).sort()).toEqual([manager.team, other].sort());
    expect(after.past.map((a) => a.scope)).toEqual(['']);
    expect(after.past[0]!.resolvedAt).not.toBeNull();
  });

  it('reads the people’s figures of the other rules from the store and the analytics copy', async () => {
    for (const body of [
      { kind: 'person-day', scope: '' },
      { kind: 'person-day', scope: manager.team },
      { kind: 'active-drop', scope: '', threshold: 1 },
      { kind: 'active-drop', scope: manager.team, threshold: 1 },
      { kind: 'no-data', scope: '', threshold: 365 },
    ])
      await read(admin, '/api/alert-rules', 'POST', body);
    const dry = await open.alerts!.check({ dryRun: true });
    expect(dry.day).toBe('2026-03-31');
    expect(logs.filter((l) => l.includes('could not be read'))).toEqual([]);
    // What would open is what the rules say of the demo's weeks (the demo's people vary week to week).
    expect(dry.opened.every((a) => ['person-day', 'active-drop'].includes(a.kind))).toBe(true);
  });

  it('the readiness rules: a manager’s rules, preview and alerts are of their teams’ repositories only', async () => {
    for (const scope of ['', manager.team, other])
      await read(admin, '/api/alert-rules', 'POST', { kind: 'readiness-stale', scope, threshold: 1 });
    const owned = async (team: string) =>
      new Set(
        readinessAnswerSchema
          .parse(await read(admin, `/api/readiness?team=${encodeURIComponent(team)}`))
          .repos.map((r) => r.key),
      );
    const mine = await owned(manager.team);
    const theirs = await owned(other);
    const stale = <T extends { kind: string }>(l: readonly T[]) => l.filter((a) => a.kind === 'readiness-stale');
    // The manager's rules and preview: their team's rule, holding for the repositories their team owns only.
    const rules = alertRulesSchema.parse(await read(manager.jar, '/api/alert-rules')).rules;
    expect(stale(rules).map((r) => r.scope)).toEqual([manager.team]);
    const preview = alertPreviewSchema.parse(await read(manager.jar, '/api/alerts/preview'));
    const holding = stale(preview.rules.flatMap((r) => r.holding));
    expect(holding.length).toBeGreaterThan(0);
    expect(holding.every((h) => h.scope === manager.team && mine.has(h.key))).toBe(true);
    // The admin's check opens every scope's; the other team's repositories are alerted on (the demo's reports are
    // older than a day), and the manager is not shown those.
    const checked = alertsCheckSchema.parse(await read(admin, '/api/alerts/check', 'POST'));
    const opened = stale(checked.opened);
    expect(opened.filter((a) => a.scope === other).length).toBeGreaterThan(0);
    expect(opened.filter((a) => a.scope === other).every((a) => theirs.has(a.key))).toBe(true);
    // They name repositories, never people.
    expect(opened.some((a) => a.summary.includes('@'))).toBe(false);
    const seen = stale(alertsSchema.parse(await read(manager.jar, '/api/alerts')).open);
    expect(new Set(seen.map((a) => a.scope))).toEqual(
      new Set(opened.filter((a) => a.scope !== other).map((a) => a.scope)),
    );
    expect(seen.some((a) => a.scope === other)).toBe(false);
    // Kept to their teams (RESTRICT_ORG_VIEW): not the organization's either.
    current = restricted;
    try {
      const kept = stale(alertsSchema.parse(await read(manager.jar, '/api/alerts')).open);
      expect(kept.every((a) => a.scope === manager.team)).toBe(true);
    } finally {
      current = open;
    }
    // A manager sets no readiness rule for another team.
    const refused = await api(manager.jar, '/api/alert-rules', 'POST', { kind: 'readiness-drop', scope: other });
    expect(refused.res.status).toBe(403);
  });
});
