/**
 * The demo service as an in-process origin: its answers are the service's own, and each one leaves the
 * event loop a turn, so a long sync over it never keeps the server from answering others.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from './auth';
import { embeddedOrigin } from './embedded';
import { createDemoService } from './service';

const demo = createDemoService({
  seed: 'embedded',
  users: 20,
  repos: 1,
  reportsPerRepo: 1,
  today: '2026-03-01',
  keys: DEFAULT_KEYS,
});

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
    // A turn ran before each answer: without the yield, all five answers come before the first turn.
    expect(turns.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
  });
});
