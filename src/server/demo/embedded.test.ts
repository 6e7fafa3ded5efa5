/**
 * The demo service as an in-process origin: its answers are the service's own, and each one leaves the
 * event loop a turn, so a long sync over it never keeps the server from answering others; its organization is
 * built a part at a time, so a server embedding a large one answers its probes while it is made.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from './auth';
import { embeddedOrigin } from './embedded';
import { createDemoService } from './service';
import { daysBetween, HISTORY_START } from '../../lib/dates';
import { buildWorld, worldParts } from './world';

const CONFIG = { seed: 'embedded', users: 20, repos: 1, reportsPerRepo: 1, today: '2026-03-01', keys: DEFAULT_KEYS };
const demo = createDemoService(CONFIG);

describe('the embedded demo origin', () => {
  it('answers as the service does', async () => {
    const origin = embeddedOrigin(demo, 5_000);
    const target = {
      method: 'GET',
      path: '/api/v1/analytics/tokens',
      search: '?startDate=2026-02-01&endDate=2026-02-03',
    };
    const r = await origin({ ...target, authorization: undefined });
    expect(r.status).toBe(200);
    expect(r.body).toBe(
      demo.handle({ method: 'GET', url: target.path + target.search, headers: { authorization: 'Bearer demo-owner' } })
        .body,
    );
  });

  it('lets what waits on the event loop run between two answers', async () => {
    const origin = embeddedOrigin(demo, 5_000);
    const turns: number[] = [];
    let answers = 0;
    // What a request, a timer or a worker's message would be: callbacks of the event loop, not promises.
    const tick = () => {
      turns.push(answers);
      if (answers < 5) setImmediate(tick);
    };
    setImmediate(tick);
    for (let i = 0; i < 5; i++) {
      await origin({
        method: 'GET',
        path: '/api/v1/analytics/tools',
        search: '?startDate=2026-02-01&endDate=2026-02-01',
        authorization: undefined,
      });
      answers++;
    }
    // A turn ran before each answer: without the yields, all five answers come before the first turn.
    expect([...new Set(turns)].slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('reads an answer in a turn of its own, after the turn it was made in', async () => {
    await demo.ready();
    const origin = embeddedOrigin(demo, 5_000);
    let turns = 0;
    let on = true;
    const tick = () => {
      turns++;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    await origin({
      method: 'GET',
      path: '/api/v1/analytics/tools',
      search: '?startDate=2026-02-01&endDate=2026-02-01',
      authorization: undefined,
    });
    on = false;
    // One turn before the answer is made, one before it is read: a large day made and read at once held the loop.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it("makes the days' figures a part each, after the people's", () => {
    const config = { ...CONFIG, seed: 'days', users: 30, today: '2026-03-01' };
    const days = daysBetween(HISTORY_START, '2026-03-01');
    let parts = 0;
    for (const it = worldParts(config, config.today); !it.next().done;) parts++;
    // Each person made, then their days, then each day's figures (a year of them sorted at once held the loop).
    expect(parts).toBe(2 * 30 + days);
  });

  it('builds its organization a part at a time, the event loop going on meanwhile, as the whole of it at once', async () => {
    const config = { ...CONFIG, seed: 'parts', users: 1_000, repos: 2, reportsPerRepo: 2, today: '2026-06-01' };
    const parted = createDemoService(config);
    // The team mapping's people and the latest day come without the days being built.
    expect(parted.latestDay()).toBe('2026-05-31');
    expect(parted.people().users).toHaveLength(1_000);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const t0 = performance.now();
    const world = await parted.ready();
    const ms = performance.now() - t0;
    clearInterval(timer);
    // Each part holds the loop for about 20 ms: a build of this length let timers run many times.
    expect(turns).toBeGreaterThan(Math.min(5, ms / 100));
    expect(parted.world()).toBe(world);
    const whole = buildWorld(config, '2026-06-01');
    expect(world.org.users).toEqual(whole.org.users);
    expect(world.org.aggs).toEqual(whole.org.aggs);
    expect(world.org.activeCount).toEqual(whole.org.activeCount);
    expect(world.readiness.repos).toEqual(whole.readiness.repos);
    expect(world.readiness.reports).toEqual(whole.readiness.reports);
  });

  it('answers a question asked while its organization is still being built, once it is', async () => {
    const parted = createDemoService({ ...CONFIG, seed: 'early', users: 2_000 });
    const building = parted.ready();
    const r = await embeddedOrigin(
      parted,
      5_000,
    )({
      method: 'GET',
      path: '/api/v1/analytics/tokens',
      search: '?startDate=2026-02-01&endDate=2026-02-03',
      authorization: undefined,
    });
    expect(r.status).toBe(200);
    expect(await building).toBe(parted.world());
  });
});
