/**
 * The alerts' check on both stores, posting to a real HTTP receiver started here: an alert is stored, posted
 * once, kept open without being posted again, resolved, and a new one opened after clearing; a failed post is
 * tried again (the digest's retries) and, when it never gets through, by the next check; the webhook's address
 * is never logged; Slack's and Teams' formats.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_ENGINES, type OpenedStore } from '../../test/stores';
import { readCoreConfig } from '../core/config';
import { createLogger } from '../core/log';
import { addAlertRule, applyAlertChanges, listAlerts } from '../store/alerts-queries';
import { privacyLens } from '../auth/privacy';
import { createAlertChecker } from './check';
import type { Figures, ScopeFigures } from './rules';
import { webhookFormat, type WebhookFormat } from './webhook';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A webhook receiver: answers each post with the next status of `statuses` (then 200), keeping the bodies. */
async function receiver(statuses: number[] = []) {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.statusCode = statuses.shift() ?? 200;
      if (res.statusCode === 200) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end(res.statusCode === 200 ? 'ok' : 'no');
    });
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  // The path stands for the secret part of a real webhook's address.
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T0SECRET/B0SECRET`);
  return { url, bodies, statuses };
}

const PUBLIC = new URL('https://dashboard.acme.example/dash/');

describe.each(STORE_ENGINES)('the alerts check, in the $name store', ({ available, open }) => {
  const opened: OpenedStore[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.store.close();
      await o.drop();
    }
  });

  /** A store with one rule, a checker posting to `url`, and the figures of "today" to set. */
  async function setUp(url: URL | undefined, format: WebhookFormat = 'slack') {
    const o = await open();
    opened.push(o);
    const logs: string[] = [];
    const today: { figures: Figures } = { figures: { day: '2026-06-01', scopes: new Map() } };
    const checker = createAlertChecker({
      store: o.store,
      figures: async () => today.figures,
      webhook: url && { url, format },
      publicUrl: PUBLIC,
      logger: createLogger((l) => logs.push(l)),
      post: { firstWaitMs: 20, attempts: 3 },
    });
    const budget = (day: string, monthToDate: number) => {
      const s: ScopeFigures = { budget: { budget: 1000, monthToDate, forecastHigh: null, currency: 'USD' } };
      today.figures = { day, scopes: new Map([['Eng', s]]) };
    };
    await addAlertRule(o.store.db, { kind: 'budget-spent', scope: 'Eng', threshold: 80, enabled: true }, null);
    return { o, logs, checker, budget };
  }

  it.skipIf(!available)(
    'stores, posts once, stays open without posting again, resolves, and opens a new one after clearing',
    async () => {
      const r = await receiver();
      const { o, checker, budget, logs } = await setUp(r.url);
      budget('2026-06-01', 500);
      expect((await checker.check()).opened).toEqual([]);
      budget('2026-06-02', 850);
      const first = await checker.check();
      expect(first.opened.map((a) => a.summary)).toEqual([
        'Eng has spent 85 % of its monthly budget: $850 of $1,000 to Jun 2, 2026.',
      ]);
      expect(first.posted).toBe(1);
      // The same day again, and the next day with the condition still holding: nothing new, nothing posted.
      expect(await checker.check()).toMatchObject({ opened: [], resolved: [], posted: 0 });
      budget('2026-06-03', 900);
      expect(await checker.check()).toMatchObject({ opened: [], resolved: [], posted: 0 });
      expect(r.bodies).toHaveLength(1);
      const slack = r.bodies[0] as { text: string; blocks: { text?: { text: string } }[] };
      expect(slack.text).toContain('Agent usage: an alert opened');
      expect(slack.blocks[1]!.text!.text).toBe(
        '• <https://dashboard.acme.example/dash/teams/Eng?start=2026-06-01&end=2026-06-02|Eng has spent 85 % of its monthly budget: $850 of $1,000 to Jun 2, 2026.>',
      );
      // A new month: the condition clears, the alert resolves (nothing posted).
      budget('2026-07-01', 100);
      const cleared = await checker.check();
      expect(cleared.resolved.map((x) => x.summary)).toEqual([first.opened[0]!.summary]);
      let list = await listAlerts(o.store.db, 10);
      expect([list.open.length, list.past.length]).toEqual([0, 1]);
      expect(list.past[0]).toMatchObject({
        opened_day: '2026-06-02',
        posted: 1,
        link: '/teams/Eng?start=2026-06-01&end=2026-06-02',
      });
      // Over again: a new alert, posted.
      budget('2026-07-20', 990);
      expect((await checker.check()).opened).toHaveLength(1);
      list = await listAlerts(o.store.db, 10);
      expect([list.open.length, list.past.length]).toEqual([1, 1]);
      expect(r.bodies).toHaveLength(2);
      expect(logs.join('\n')).not.toMatch(/SECRET|hooks/);
    },
  );

  it.skipIf(!available)(
    'in privacy mode, tells the channel a person by their pseudonym, never their email or id',
    async () => {
      const r = await receiver();
      const o = await open();
      opened.push(o);
      const spikes = [{ userId: 'u-42', email: 'ada@acme.example', value: 900, median: 300 }];
      const checker = createAlertChecker({
        store: o.store,
        figures: async () => ({ day: '2026-06-02', scopes: new Map([['Eng', { spikes }]]) }),
        webhook: { url: r.url, format: 'slack' },
        publicUrl: PUBLIC,
        logger: createLogger(() => undefined),
        channel: {
          lens: {
            ...privacyLens({ minGroup: 2, secret: 'a key of 32 characters or more!!' }),
            name: (id) => `Person of ${id.length} characters`,
          },
          minGroup: 2,
          told: (m) => m,
          hidden: async () => false,
        },
      });
      await addAlertRule(o.store.db, { kind: 'person-day', scope: 'Eng', threshold: null, enabled: true }, null);
      expect((await checker.check()).posted).toBe(1);
      const posted = JSON.stringify(r.bodies);
      expect(posted).not.toMatch(/ada@acme|u-42/);
      expect(posted).toContain('Person of 4 characters used 3.0× their usual credits');
      expect(posted).toContain('https://dashboard.acme.example/dash/teams/Eng');
      // The store keeps the name: an admin reads it on the alerts page.
      expect((await listAlerts(o.store.db, 10)).open[0]).toMatchObject({ key: 'u-42' });
    },
  );

  it.skipIf(!available)('two checks at once open and post an alert once', async () => {
    const r = await receiver();
    const { o, checker, budget } = await setUp(r.url);
    budget('2026-06-02', 850);
    const both = await Promise.all([checker.check(), checker.check(), checker.check()]);
    expect(both.map((b) => b.opened.length).sort()).toEqual([0, 0, 1]);
    expect(r.bodies).toHaveLength(1);
    expect((await listAlerts(o.store.db, 10)).open).toHaveLength(1);
  });

  it.skipIf(!available)('the store keeps one open alert per rule, scope and key, whoever opens it', async () => {
    const o = await open();
    opened.push(o);
    const a = { ruleId: 'r', kind: 'person-day', scope: '', key: 'u1', summary: 's', link: '/users/u1' };
    // Two replicas' checks of the same day, each past its own evaluation: the second opens nothing.
    expect(await applyAlertChanges(o.store.db, '2026-06-01', [a], [])).toHaveLength(1);
    expect(await applyAlertChanges(o.store.db, '2026-06-01', [a, { ...a, key: 'u2' }], [])).toHaveLength(1);
    const [first] = (await listAlerts(o.store.db, 10)).open.filter((x) => x.key === 'u1');
    // Once resolved, the same person's next day far above their usual is a new alert.
    await applyAlertChanges(o.store.db, '2026-06-02', [], [first!.id]);
    expect(await applyAlertChanges(o.store.db, '2026-06-03', [a], [])).toHaveLength(1);
    const all = await listAlerts(o.store.db, 10);
    expect(all.open.map((x) => `${x.key} ${x.opened_day}`).sort()).toEqual(['u1 2026-06-03', 'u2 2026-06-01']);
    expect(all.past.map((x) => `${x.key} ${x.opened_day}`)).toEqual(['u1 2026-06-01']);
  });

  it.skipIf(!available)(
    'tries a failed post again with growing waits (429, 500, then taken), never logging the address',
    async () => {
      const r = await receiver([429, 500]);
      const { checker, budget, logs } = await setUp(r.url);
      budget('2026-06-02', 850);
      const t0 = Date.now();
      expect(await checker.check()).toMatchObject({ posted: 1, unposted: 0 });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(60); // 20 then 40
      expect(r.bodies).toHaveLength(1);
      expect(logs.filter((l) => l.includes('alert post failed')).map((l) => JSON.parse(l).status)).toEqual([429, 500]);
      expect(logs.some((l) => l.includes('"msg":"alert posted"'))).toBe(true);
      expect(logs.join('\n')).not.toMatch(/SECRET|hooks/);
    },
  );

  it.skipIf(!available)('keeps an alert the webhook never took, and posts it with the next check (once)', async () => {
    const r = await receiver([503, 503, 503]);
    const { o, checker, budget, logs } = await setUp(r.url);
    budget('2026-06-02', 850);
    expect(await checker.check()).toMatchObject({ posted: 0, unposted: 1 });
    expect(r.bodies).toHaveLength(0);
    expect((await listAlerts(o.store.db, 10)).open[0]).toMatchObject({ posted: 0 });
    expect(logs.some((l) => l.includes('alert not delivered'))).toBe(true);
    // The next check: nothing new opens, the stored alert is posted and marked.
    expect(await checker.check()).toMatchObject({ opened: [], posted: 1, unposted: 0 });
    expect(await checker.check()).toMatchObject({ posted: 0 });
    expect(r.bodies).toHaveLength(1);
    expect((await listAlerts(o.store.db, 10)).open[0]).toMatchObject({ posted: 1 });
    expect(logs.join('\n')).not.toMatch(/SECRET|hooks|127\.0\.0\.1/);
  });

  it.skipIf(!available)('posts in Microsoft Teams’ format: an Adaptive Card message', async () => {
    const r = await receiver();
    const { checker, budget } = await setUp(r.url, 'teams');
    budget('2026-06-02', 850);
    await checker.check();
    expect(r.bodies).toEqual([
      {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: expect.objectContaining({
              type: 'AdaptiveCard',
              body: [
                expect.objectContaining({ text: 'Agent usage: an alert opened' }),
                expect.objectContaining({
                  text: '- [Eng has spent 85 % of its monthly budget: $850 of $1,000 to Jun 2, 2026.](https://dashboard.acme.example/dash/teams/Eng?start=2026-06-01&end=2026-06-02)',
                }),
              ],
              actions: [
                {
                  type: 'Action.OpenUrl',
                  title: 'Open the alerts page',
                  url: 'https://dashboard.acme.example/dash/alerts',
                },
              ],
            }),
          },
        ],
      },
    ]);
  });

  it.skipIf(!available)('a dry run says what would open and resolve, and stores and posts nothing', async () => {
    const r = await receiver();
    const { o, checker, budget } = await setUp(r.url);
    budget('2026-06-02', 850);
    const dry = await checker.check({ dryRun: true });
    expect(dry.opened.map((a) => a.scope)).toEqual(['Eng']);
    expect((await listAlerts(o.store.db, 10)).open).toEqual([]);
    expect(r.bodies).toEqual([]);
    // Without a webhook the alert is stored and waits, unposted.
    const quiet = await setUp(undefined);
    quiet.budget('2026-06-02', 850);
    expect(await quiet.checker.check()).toMatchObject({ posted: 0, unposted: 1 });
  });
});

describe('the webhook’s format', () => {
  it('is the setting’s, else Teams for Teams and Power Automate hosts, else Slack', () => {
    const f = (u: string, s?: WebhookFormat) => webhookFormat(new URL(u), s);
    expect(f('https://acme.webhook.office.com/webhookb2/x')).toBe('teams');
    expect(f('https://prod-12.westus.logic.azure.com:443/workflows/x')).toBe('teams');
    expect(f('https://hooks.slack.com/services/x')).toBe('slack');
    expect(f('https://notwebhook.office.com.evil.example/x')).toBe('slack');
    expect(f('https://hooks.slack.com/services/x', 'teams')).toBe('teams');
  });

  it('is read from ALERT_WEBHOOK_URL and ALERT_WEBHOOK_FORMAT at start; a bad one stops it, named, without the value', () => {
    const c = readCoreConfig({ ALERT_WEBHOOK_URL: 'https://acme.webhook.office.com/x', ALERT_WEBHOOK_FORMAT: 'slack' });
    expect([c.alertWebhookUrl?.href, c.alertWebhookFormat]).toEqual(['https://acme.webhook.office.com/x', 'slack']);
    expect(readCoreConfig({}).alertWebhookUrl).toBeUndefined();
    expect(() => readCoreConfig({ ALERT_WEBHOOK_URL: 'not a url T0SECRET' })).toThrow(
      /^ALERT_WEBHOOK_URL must be an absolute http\(s\) URL$/,
    );
    expect(() => readCoreConfig({ ALERT_WEBHOOK_URL: 'ftp://x/T0SECRET' })).toThrow(
      /^ALERT_WEBHOOK_URL must be an http\(s\) URL$/,
    );
    expect(() => readCoreConfig({ ALERT_WEBHOOK_FORMAT: 'discord' })).toThrow(
      /^ALERT_WEBHOOK_FORMAT must be "slack" or "teams"/,
    );
  });
});
