/**
 * The weekly digest, built from the demo organization's store and posted to a real HTTP receiver
 * started here: its figures are the store's, a failed post is tried again and logged, and the
 * webhook's address is never written to the log.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRITERIA_BY_ID } from '../../api/criteria';
import { readinessAnswerSchema } from '../../api/readiness';
import { usersTableSchema } from '../../api/users';
import { fixesForSet } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { createLogger } from '../core/log';
import { readStoreConfig } from '../store/config';
import type { StoreDb } from '../store/db';
import { postDigest, scheduleDigest } from './digest';

const dir = mkdtempSync(join(tmpdir(), 'digest-'));
const servers: Server[] = [];
const stores: StoreDb[] = [];
afterAll(async () => {
  servers.forEach((s) => s.close());
  await Promise.all(stores.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A webhook receiver: answers each post with the next status of `statuses` (then 200), keeping the bodies. */
async function receiver(statuses: number[] = []) {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.statusCode = statuses.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'ok' : 'no');
    });
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  // The path stands for the secret part of a real webhook's address.
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T0SECRET/B0SECRET`);
  return { url, bodies };
}

const prices = join(dir, 'prices.json');
writeFileSync(prices, JSON.stringify({ currency: 'USD', prices: [{ from: '2026-01-14', perMillionCredits: 50 }] }));
const ENV = {
  DEMO_TODAY: '2026-05-01',
  DEMO_SEED: 'digest',
  DEMO_USERS: '80',
  DATA_DIR: ':memory:',
  PRICES_FILE: prices,
  PUBLIC_URL: 'https://dashboard.acme.example',
};

describe('the weekly digest', async () => {
  const config = readServerConfig(ENV);
  const storeConfig = readStoreConfig(ENV);
  const store = (await openAppStore(config, storeConfig))!;
  stores.push(store);
  const app = createApp(config, { store, storeConfig });
  const server = createServer((req, res) => app.handler(req, res, () => res.end()));
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('gives the week’s figures against the week before, spend, highlights and links, as Slack blocks', async () => {
    const message = await app.digest!();
    const week = usersTableSchema.parse(
      await (await fetch(`${base}/api/users?start=2026-04-24&end=2026-04-30&limit=1000`)).json(),
    );
    const before = usersTableSchema.parse(
      await (await fetch(`${base}/api/users?start=2026-04-17&end=2026-04-23&limit=1000`)).json(),
    );
    const credits = week.users.reduce((n, u) => n + u.credits, 0);
    expect(message.text.split('\n')[0]).toBe('Agent usage, Apr 24, 2026 – Apr 30, 2026');
    expect(message.text).toContain(`Active people: ${week.users.length} (`);
    expect(message.text).toContain(`Standard credits: ${Math.round(credits).toLocaleString('en-US')} (`);
    const change =
      (credits - before.users.reduce((n, u) => n + u.credits, 0)) / before.users.reduce((n, u) => n + u.credits, 0);
    expect(message.text).toContain(
      `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(0)} % on the week before`,
    );
    // Spend at 50 USD per million credits, the same credits.
    const spend = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: 0,
    }).format((credits * 50) / 1e6);
    expect(message.text).toContain(`Spend this week: ${spend}`);
    const blocks = message.blocks as { type: string; text: { text: string } }[];
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Agent usage, Apr 24, 2026 – Apr 30, 2026' },
    });
    const highlights = blocks.find((b) => b.text.text.startsWith('*Highlights*'))!;
    expect(highlights.text.text).toMatch(/<https:\/\/dashboard\.acme\.example\/[^|>]+\|[^>]+>/);
    expect(blocks.at(-1)!.text.text).toContain(
      '<https://dashboard.acme.example/?start=2026-04-24&end=2026-04-30|Open the dashboard>',
    );
  });

  it('names the criterion whose fix brings the most repositories below level 3 up to it', async () => {
    const message = await app.digest!();
    const all = readinessAnswerSchema.parse(await (await fetch(`${base}/api/readiness`)).json());
    const latest = new Map(all.reports.map((r) => [repoKey(r.repoUrl), r]));
    const top = fixesForSet(
      [...latest].map(([key, report]) => ({ key, report })),
      (id) => CRITERIA_BY_ID.get(id)?.level,
    )[0]!;
    expect(top.helps.length).toBeGreaterThan(1);
    const name = CRITERIA_BY_ID.get(top.id)?.name ?? top.id;
    const n = top.helps.length;
    const line =
      top.lifts.length === n
        ? `Fix ${name} to bring ${n} repositories to level 3`
        : `Fix ${name}: one of the fewest fixes that bring ${n} repositories to level 3 (${top.lifts.length} on its own)`;
    expect(message.text).toContain(`Readiness: ${line}`);
    const blocks = message.blocks as { text?: { text: string } }[];
    expect(blocks.map((b) => b.text?.text)).toContain(
      `*Readiness*\n• <https://dashboard.acme.example/readiness|${line}>`,
    );
  });

  it('is posted to the webhook, tried again after failures with growing waits, and the address never logged', async () => {
    const r = await receiver([503, 500]);
    const logs: string[] = [];
    const message = await app.digest!();
    const t0 = Date.now();
    expect(
      await postDigest(
        r.url,
        message,
        createLogger((l) => logs.push(l)),
        { firstWaitMs: 50 },
      ),
    ).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150); // 50 then 100
    expect(r.bodies).toHaveLength(3);
    expect(new Set(r.bodies).size).toBe(1);
    expect(JSON.parse(r.bodies[0]!)).toEqual(message);
    expect(logs.filter((l) => l.includes('digest post failed')).map((l) => JSON.parse(l).status)).toEqual([503, 500]);
    expect(logs.some((l) => l.includes('"msg":"digest posted"'))).toBe(true);
    expect(logs.join('\n')).not.toMatch(/SECRET|hooks/);
  });

  it('is not tried again when the webhook refuses it, and says it was not delivered', async () => {
    const r = await receiver([400]);
    const logs: string[] = [];
    expect(
      await postDigest(
        r.url,
        { text: 'x' },
        createLogger((l) => logs.push(l)),
        { firstWaitMs: 10 },
      ),
    ).toBe(false);
    expect(r.bodies).toHaveLength(1);
    expect(logs.some((l) => l.includes('"level":"error"') && l.includes('digest not delivered'))).toBe(true);
  });

  it('keeps trying an unreachable webhook as many times as allowed, logging each failure without the address', async () => {
    const r = await receiver();
    servers.at(-1)!.close();
    await new Promise((ok) => setTimeout(ok, 20));
    const logs: string[] = [];
    expect(
      await postDigest(
        r.url,
        { text: 'x' },
        createLogger((l) => logs.push(l)),
        { attempts: 3, firstWaitMs: 10 },
      ),
    ).toBe(false);
    expect(logs.filter((l) => l.includes('digest post failed'))).toHaveLength(3);
    expect(logs.join('\n')).not.toMatch(/SECRET|hooks|127\.0\.0\.1/);
  });

  it('is scheduled by a cron expression in UTC, Mondays 08:00 by default; a bad one is refused by name', () => {
    expect(config.digestSchedule).toBe('0 8 * * 1');
    const s = scheduleDigest(
      config.digestSchedule,
      async () => {},
      createLogger(() => {}),
    );
    try {
      const next = s.next()!;
      expect(next.getUTCDay()).toBe(1);
      expect(next.getUTCHours()).toBe(8);
      expect(next.getUTCMinutes()).toBe(0);
    } finally {
      s.stop();
    }
    expect(() =>
      scheduleDigest(
        'every monday',
        async () => {},
        createLogger(() => {}),
      ),
    ).toThrow(/^DIGEST_SCHEDULE "every monday" is not a cron expression/);
    expect(() => readServerConfig({ ...ENV, DIGEST_WEBHOOK_URL: 'not a url' })).toThrow(
      'DIGEST_WEBHOOK_URL must be an absolute http(s) URL',
    );
  });
});
