/**
 * The background sync's runs: each step's days (every endpoint and `/users`) newest first, and what
 * keeps ready from the store told after each step, once its days are in.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../core/log';
import type { DayRange } from '../../lib/dates';
import { createScheduler } from './scheduler';
import { FillFailed, type SyncEngine } from './engine';

describe('the sync scheduler', () => {
  it('fills a run step by step, newest first, and says so after each step has stored its days', async () => {
    const events: string[] = [];
    const slow = (what: string) => new Promise<void>((r) => setTimeout(() => (events.push(what), r()), 5));
    const engine = {
      fillDays: (endpoint: string, grouping: string, r: DayRange) =>
        endpoint === 'tokens' && grouping === '' ? slow(`tokens ${r.start}…${r.end}`) : Promise.resolve(),
      fillUsers: (r: DayRange) => slow(`users ${r.start}…${r.end}`),
      syncReadiness: () => slow('readiness'),
    } as unknown as SyncEngine;
    const scheduler = createScheduler(
      engine,
      () => '2026-03-10',
      silentLogger,
      () => events.push('stored'),
    );
    const run = await scheduler.run({ start: '2026-01-20', end: '2026-03-10' });
    expect(run.failures).toBe(0);
    const steps = ['2026-02-25…2026-03-10', '2026-02-11…2026-02-24', '2026-01-28…2026-02-10', '2026-01-20…2026-01-27'];
    expect(events.filter((e) => e !== 'stored')).toEqual([
      ...steps.flatMap((s) => [`tokens ${s}`, `users ${s}`]),
      'readiness',
    ]);
    // Told once per step, each time after that step's fills.
    const told = events.flatMap((e, i) => (e === 'stored' ? [i] : []));
    expect(told).toHaveLength(steps.length);
    for (const [k, s] of steps.entries()) {
      expect(told[k]!).toBeGreaterThan(events.indexOf(`users ${s}`));
      expect(told[k]!).toBeGreaterThan(events.indexOf(`tokens ${s}`));
      if (k + 1 < steps.length) expect(told[k]!).toBeLessThan(events.indexOf(`tokens ${steps[k + 1]}`));
    }
  });

  it('tells when a whole run has finished (the alerts are checked then), once per run and after its last fill', async () => {
    const events: string[] = [];
    const engine = {
      fillDays: async () => undefined,
      fillUsers: async () => void events.push('users'),
      syncReadiness: async () => void events.push('readiness'),
    } as unknown as SyncEngine;
    const scheduler = createScheduler(
      engine,
      () => '2026-03-10',
      silentLogger,
      undefined,
      1,
      (r) => events.push(`finished ${r.range.start}…${r.range.end} ${r.finishedAt ? 'done' : 'running'}`),
    );
    await scheduler.run({ start: '2026-02-20', end: '2026-03-10' });
    expect(events).toEqual(['users', 'users', 'readiness', 'finished 2026-02-20…2026-03-10 done']);
  });

  it('tries a fill that could not reach the store again with backoff, a few times; a refusal of the service never', async () => {
    const gone = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const calls = new Map<string, number>();
    const count = (what: string) => calls.set(what, (calls.get(what) ?? 0) + 1).get(what)!;
    const engine = {
      // Tokens: two failovers, then stored. Tools by name: the store never comes back. Users: the service refuses.
      fillDays: async (endpoint: string, grouping: string) => {
        const n = count(`${endpoint}:${grouping}`);
        if ((endpoint === 'tokens' && grouping === '' && n <= 2) || (endpoint === 'tools' && grouping === 'tool_name'))
          throw gone;
      },
      fillUsers: async () => {
        count('users');
        throw new FillFailed({ status: 503, headers: {}, body: '{}' });
      },
      syncReadiness: async () => void count('readiness'),
    } as unknown as SyncEngine;
    const logged: Record<string, unknown>[] = [];
    const logger = { ...silentLogger, error: (_m: string, f?: Record<string, unknown>) => void logged.push(f ?? {}) };
    const run = await createScheduler(engine, () => '2026-03-10', logger, undefined, 1).run({
      start: '2026-03-01',
      end: '2026-03-10',
    });
    expect(calls.get('tokens:')).toBe(3);
    expect(calls.get('tools:tool_name')).toBe(6);
    expect(calls.get('users')).toBe(1);
    expect(calls.get('readiness')).toBe(1);
    expect(run.failures).toBe(2);
    // Each failure logged, saying when it is tried again (doubling), or that it is not.
    expect(logged.filter((f) => f.error === gone.message).map((f) => f.retryInMs)).toEqual([
      1,
      1,
      2,
      2,
      4,
      8,
      16,
      undefined,
    ]);
  });
});
